import { expect, test } from "@playwright/test";
import { fileURLToPath } from "node:url";
import { useHost } from "../fixtures/host.js";
import { addStdioServer, EVERYTHING, mcpPid, serverRow } from "../fixtures/mcp.js";
import { createSession, send } from "../fixtures/session.js";

/** The 2026-07-28 test peer (v2 SDK server), run through tsx. */
const MODERN = fileURLToPath(new URL("../../apps/host/test/fixture/mcp/modern.ts", import.meta.url));

// The host inherits this; imported configs reference it instead of storing the pasted value (SEC-2).
process.env.SEAM_E2E_MCP_TOKEN = "value-from-the-host-environment";

test.describe("MCP servers page (MCP-10, SEC-2, SEC-5)", () => {
  const host = useHost();

  test("add server-everything through the form, see its tools, call echo and the image tool from a chat", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(host.url("/mcp"));
    await expect(page.getByTestId("mcp-empty")).toBeVisible();
    await addStdioServer(page, "everything", process.execPath, [EVERYTHING, "stdio"]);

    const row = serverRow(page, "everything");
    await expect(row).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await expect(page.getByTestId("mcp-form")).toHaveCount(0);
    await expect(row.getByTestId("mcp-status")).toHaveText(/ready/);
    await expect(row.getByTestId("mcp-generation")).not.toHaveText("0");
    await row.getByTestId("mcp-server-expand").click();
    const tools = page.getByTestId("mcp-tools-table");
    await expect(tools.locator('[data-testid="mcp-tool-row"][data-public-name="mcp__everything__echo"]')).toBeVisible();
    await expect(tools.locator('[data-testid="mcp-tool-row"][data-public-name="mcp__everything__get-tiny-image"]')).toContainText("get-tiny-image");
    // The protocol version negotiated with this 2025 server (MCP-14).
    await expect(page.getByTestId("mcp-protocol-version")).toContainText("2025-11-25");
    await page.screenshot({ path: test.info().outputPath("mcp-page.png"), fullPage: true });

    await createSession(page, "MCP echo");
    await send(page, "Please echo through MCP");
    const echo = page.locator('[data-testid="tool-card"][data-tool-name="mcp__everything__echo"]');
    await expect(echo).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await echo.getByTestId("tool-card-toggle").click();
    await echo.getByRole("tab", { name: "Result" }).click();
    await expect(echo.getByTestId("tool-card-result")).toContainText("hello from seam");
    await expect(page.getByTestId("message-assistant").last()).toContainText("The server answered:");

    await send(page, "Show me the tiny image");
    const image = page.locator('[data-testid="tool-card"][data-tool-name="mcp__everything__get-tiny-image"]');
    await expect(image).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await image.getByTestId("tool-card-toggle").click();
    await image.getByRole("tab", { name: "Result" }).click();
    const img = image.getByTestId("mcp-result-image");
    await expect(img).toBeVisible();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expect(image.getByTestId("mcp-result")).toContainText("The image above is the MCP logo.");
    await page.screenshot({ path: test.info().outputPath("mcp-image-card.png"), fullPage: true });
  });

  test("a bad form shows inline errors and saves nothing", async ({ page }) => {
    await page.goto(host.url("/mcp"));
    await expect(serverRow(page, "everything")).toBeVisible();
    await page.getByTestId("mcp-add-button").click();
    const form = page.getByTestId("mcp-form");

    // Missing command.
    await page.getByTestId("mcp-name").fill("broken");
    await page.getByTestId("mcp-save").click();
    await expect(form.getByTestId("mcp-field-error")).toContainText("Command is required");
    await expect(page.getByTestId("mcp-form-error")).toContainText("Not saved");

    // A secret typed as a plain value is refused inline, with a way out.
    await page.getByTestId("mcp-command").fill(process.execPath);
    await page.getByTestId("mcp-add-env").click();
    await form.getByTestId("mcp-kv-key").fill("GITHUB_TOKEN");
    await form.getByTestId("mcp-kv-value").fill("ghp_typedSecret");
    await expect(form.getByTestId("mcp-kv-row")).toContainText("looks like a secret");
    await form.getByTestId("mcp-kv-use-env").click();
    await expect(form.getByTestId("mcp-kv-mode")).toHaveValue("env");
    await expect(form.getByTestId("mcp-kv-value")).toHaveValue("GITHUB_TOKEN");

    // Bad URL.
    await page.getByTestId("mcp-transport-http").click();
    await page.getByTestId("mcp-url").fill("not a url");
    await page.getByTestId("mcp-save").click();
    await expect(form.getByTestId("mcp-field-error")).toContainText("Enter an http(s) URL");

    // Duplicate name.
    await page.getByTestId("mcp-url").fill("http://127.0.0.1:9/mcp");
    await page.getByTestId("mcp-name").fill("everything");
    await page.getByTestId("mcp-save").click();
    await expect(form.getByTestId("mcp-field-error")).toContainText('A server named "everything" already exists');
    await page.screenshot({ path: test.info().outputPath("mcp-form-errors.png") });

    // A server that cannot start: the try before saving fails, the host keeps nothing (MCP-10; e2e/specs/mcp-forms.e2e.ts has the rest).
    await page.getByTestId("mcp-name").fill("nowhere");
    await page.getByTestId("mcp-transport-stdio").click();
    await page.getByTestId("mcp-command").fill("/nonexistent/mcp-server");
    await page.getByTestId("mcp-advanced").click();
    await page.getByTestId("mcp-startup-timeout").fill("5");
    await page.getByTestId("mcp-fail-on-startup").check();
    await page.getByTestId("mcp-save").click();
    // The env row above references GITHUB_TOKEN, which the host does not have: the try stops there, before spawning.
    await expect(page.getByTestId("mcp-probe-error")).toContainText("Environment variable GITHUB_TOKEN needs GITHUB_TOKEN, which is neither set", { timeout: 20_000 });
    await page.keyboard.press("Escape");

    await page.reload();
    await expect(serverRow(page, "everything")).toBeVisible();
    await expect(page.getByTestId("mcp-server-row")).toHaveCount(1);
  });

  test("import a pasted {\"mcpServers\"} JSON: preview, apply, no pasted secret stored", async ({ page }) => {
    await page.goto(host.url("/mcp"));
    await page.getByTestId("mcp-import-button").click();
    const pasted = JSON.stringify({
      mcpServers: {
        imported: { command: process.execPath, args: [EVERYTHING, "stdio"], env: { SEAM_E2E_MCP_TOKEN: "pasted-secret-e2e-42" } },
        everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
        legacy: { type: "sse", url: "http://127.0.0.1:9/sse" },
      },
    }, null, 2);
    await page.getByTestId("mcp-import-text").fill(pasted);
    await page.getByTestId("mcp-import-preview-button").click();
    const preview = page.getByTestId("mcp-import-preview");
    await expect(preview.locator('[data-server="imported"]')).toHaveAttribute("data-action", "add");
    await expect(preview.locator('[data-server="imported"]')).toContainText("SEAM_E2E_MCP_TOKEN will be read from the host environment; the pasted value is not stored.");
    await expect(preview.locator('[data-server="everything"]')).toHaveAttribute("data-action", "unchanged");
    await expect(preview.locator('[data-server="legacy"]')).toHaveAttribute("data-action", "invalid");
    await expect(preview.locator('[data-server="legacy"]')).toContainText("SSE-only servers are not supported");
    await page.screenshot({ path: test.info().outputPath("mcp-import-preview.png") });
    await page.getByTestId("mcp-import-apply").click();
    await expect(page.getByTestId("mcp-import-result")).toContainText("Added 1.", { timeout: 30_000 });
    await page.keyboard.press("Escape");
    await expect(serverRow(page, "imported")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });

    const db = host.storedText();
    expect(db).toContain("SEAM_E2E_MCP_TOKEN");
    expect(db).not.toContain("pasted-secret-e2e-42");

    // Export gives the same shape back, with the reference as a placeholder.
    await page.getByTestId("mcp-export-button").click();
    await expect(page.getByTestId("mcp-export-json")).toContainText('"SEAM_E2E_MCP_TOKEN": "${SEAM_E2E_MCP_TOKEN}"');
    await page.keyboard.press("Escape");

    await serverRow(page, "imported").getByTestId("mcp-remove").click();
    await page.getByTestId("mcp-remove-confirm").click();
    await expect(serverRow(page, "imported")).toHaveCount(0);
  });

  test("a killed server process shows retrying, then ready again", async ({ page }) => {
    await page.goto(host.url("/mcp"));
    const row = serverRow(page, "everything");
    await expect(row).toHaveAttribute("data-state", "ready");
    // Record every state the row shows; a short outage may only be visible for a moment.
    await page.evaluate(() => {
      const w = window as unknown as { mcpStates: string[] };
      w.mcpStates = [];
      const read = () => {
        const state = document.querySelector('[data-testid="mcp-server-row"][data-server="everything"]')?.getAttribute("data-state");
        if (state && w.mcpStates.at(-1) !== state) w.mcpStates.push(state);
      };
      new MutationObserver(read).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-state"], childList: true });
      read();
    });
    const pid = await mcpPid(host, "everything");
    process.kill(pid, "SIGKILL");
    await expect.poll(() => page.evaluate(() => (window as unknown as { mcpStates: string[] }).mcpStates)).toContain("retrying");
    await expect(row).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    const states = await page.evaluate(() => (window as unknown as { mcpStates: string[] }).mcpStates);
    expect(states.indexOf("retrying")).toBeLessThan(states.lastIndexOf("ready"));
    expect(await mcpPid(host, "everything")).not.toBe(pid);
  });

  test("a 2026-07-28 server is spoken to in that revision, and the page says so (MCP-14)", async ({ page }) => {
    test.setTimeout(60_000);
    await page.goto(host.url("/mcp"));
    await addStdioServer(page, "modern", process.execPath, ["--import", "tsx", MODERN, "stdio"]);
    const row = serverRow(page, "modern");
    await expect(row).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await row.getByTestId("mcp-server-expand").click();
    await expect(page.getByTestId("mcp-protocol-version")).toContainText("2026-07-28");
    await expect(page.locator('[data-testid="mcp-tool-row"][data-public-name="mcp__modern__echo"]')).toBeVisible();
  });
});
