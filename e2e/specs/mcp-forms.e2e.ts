import { expect, test } from "@playwright/test";
import { addStdioServer, EVERYTHING, hostQuery, serverRow } from "../fixtures/mcp.js";
import { useHost } from "../fixtures/host.js";

/** MCP-10 revised: saving tries the server first; "Save anyway" is an explicit second step; import errors are sentences. */
test.describe("MCP forms: try first, save anyway, import errors in words (MCP-10)", () => {
  const host = useHost();
  const MISSING = "/nonexistent/seam-mcp-server";

  test("a missing executable shows the error inline and saves nothing, until Save anyway", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(host.url("/mcp"));
    await expect(page.getByTestId("mcp-empty")).toBeVisible();
    await addStdioServer(page, "ghost", MISSING, []);

    const failure = page.getByTestId("mcp-probe-error");
    await expect(failure).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("mcp-probe-message")).toHaveText(`The command '${MISSING}' was not found (ENOENT). Check the path, or install it.`);
    await expect(failure).toContainText("nothing was saved");
    await expect(failure).toContainText("Failed while starting.");
    await expect(page.getByTestId("mcp-form")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("mcp-probe-error.png") });

    // Nothing saved: not in the list after a reload, nor on the host.
    await page.keyboard.press("Escape");
    await page.reload();
    await expect(page.getByTestId("mcp-empty")).toBeVisible();
    expect(await hostQuery<unknown[]>(host, "mcp.list")).toEqual([]);

    // Again, then "Save anyway": listed, retrying or failed, and still there after a reload.
    await addStdioServer(page, "ghost", MISSING, []);
    await expect(failure).toBeVisible({ timeout: 20_000 });
    await page.getByTestId("mcp-save-anyway").click();
    await expect(page.getByTestId("mcp-form")).toHaveCount(0);
    await expect(page.getByTestId("mcp-saved-notice")).toContainText('Saved "ghost" without a successful try');
    await expect(serverRow(page, "ghost")).toHaveAttribute("data-state", /^(connecting|retrying|failed)$/);
    await page.reload();
    await expect(serverRow(page, "ghost")).toHaveAttribute("data-state", /^(connecting|retrying|failed)$/);

    await serverRow(page, "ghost").getByTestId("mcp-remove").click();
    await page.getByTestId("mcp-remove-confirm").click();
    await expect(serverRow(page, "ghost")).toHaveCount(0);
  });

  test("a good server: the try succeeds, the sheet closes, and the confirmation names the tool count", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(host.url("/mcp"));
    await addStdioServer(page, "everything", process.execPath, [EVERYTHING, "stdio"]);
    await expect(page.getByTestId("mcp-saved-notice")).toContainText(/Added "everything" \(.+\): \d+ tools available\./, { timeout: 30_000 });
    await expect(page.getByTestId("mcp-form")).toHaveCount(0);
    await expect(serverRow(page, "everything")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  });

  test("import: a 1 MB paste, broken JSON and a wrong shape are sentences; a failing server can be saved anyway", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(host.url("/mcp"));
    await page.getByTestId("mcp-import-button").click();
    const text = page.getByTestId("mcp-import-text");
    const error = page.getByTestId("mcp-import-error");

    await text.fill(`{"mcpServers": {"big": {"command": "x", "args": ["${"y".repeat(1024 * 1024)}"]}}}`);
    await expect(error).toHaveText("The pasted config is 1.0 MB; Seam imports at most 256 KB at a time. Paste only the mcpServers block, or import the servers in parts.");
    await expect(page.getByTestId("mcp-import-preview-button")).toBeDisabled();

    await text.fill('{\n  "mcpServers": {\n    "a": {"command": "x"}\n    "b": {}\n  }\n}');
    await page.getByTestId("mcp-import-preview-button").click();
    await expect(error).toHaveText(/^Not valid JSON: Expected ',' or '}' at line 4, column 5\.$/);

    await text.fill(JSON.stringify({ mcpServers: { foo: { command: 42 }, bar: { command: "x", args: [1, {}, []] } } }));
    await page.getByTestId("mcp-import-preview-button").click();
    const preview = page.getByTestId("mcp-import-preview");
    await expect(preview.locator('[data-server="foo"] [data-testid="mcp-import-issue"]').first()).toHaveText("mcpServers.foo.command: command must be a string");
    await expect(preview.locator('[data-server="bar"] [data-testid="mcp-import-issue"]')).toHaveText(["mcpServers.bar.args.1: must be a string", "mcpServers.bar.args.2: must be a string"]);
    await expect(page.getByText(/"code":|"path":\s*\[/)).toHaveCount(0);

    // A server that fails its try is listed with the reason; nothing of it is saved until "Save anyway".
    await text.fill(JSON.stringify({ mcpServers: { ghost2: { command: MISSING } } }));
    await page.getByTestId("mcp-import-preview-button").click();
    await expect(preview.locator('[data-server="ghost2"]')).toHaveAttribute("data-action", "add");
    await page.getByTestId("mcp-import-apply").click();
    const result = page.getByTestId("mcp-import-result");
    await expect(result).toContainText("Nothing was saved.", { timeout: 20_000 });
    await expect(result.getByTestId("mcp-import-probe-error")).toContainText(`The command '${MISSING}' was not found (ENOENT)`);
    expect((await hostQuery<{ config: { name: string } }[]>(host, "mcp.list")).map((v) => v.config.name)).not.toContain("ghost2");
    await page.screenshot({ path: test.info().outputPath("mcp-import-probe-error.png") });
    await result.getByTestId("mcp-save-anyway").click();
    await expect(result).toContainText("Added 1.");
    await expect(result.getByTestId("mcp-import-probe-error")).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(serverRow(page, "ghost2")).toHaveAttribute("data-state", /^(connecting|retrying|failed)$/);
  });
});
