import { expect, test } from "@playwright/test";
import { useHost } from "../fixtures/host.js";
import { addStdioServer, EVERYTHING, serverRow } from "../fixtures/mcp.js";
import { createSession, send } from "../fixtures/session.js";

test.describe("deferred tools (CTX-3)", () => {
  const host = useHost();

  test("a low budget set in Settings defers the MCP tools; tool_search loads one; its card and the meter say so", async ({ page }) => {
    test.setTimeout(90_000);
    // A budget of 5 tools: the built-in tools alone pass it, so every MCP tool is deferred.
    await page.goto(host.url("/settings"));
    await page.getByTestId("model-defer-max-tools").fill("0");
    await page.getByTestId("model-save").click();
    await expect(page.getByTestId("model-error")).toContainText("Max tools must be at least 1");
    await page.getByTestId("model-defer-max-tools").fill("5");
    await page.getByTestId("model-save").click();
    await expect(page.getByTestId("model-saved")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("model-defer-max-tools")).toHaveValue("5");
    await page.getByTestId("model-defer-tools").screenshot({ path: test.info().outputPath("deferred-tools-settings.png") });

    await page.goto(host.url("/mcp"));
    await addStdioServer(page, "everything", process.execPath, [EVERYTHING, "stdio"]);
    await expect(serverRow(page, "everything")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });

    await createSession(page, "Deferred tools");
    const meter = page.getByTestId("context-meter");
    await expect(meter).toBeVisible();
    await meter.hover();
    await expect(page.getByTestId("context-deferred-line").first()).toHaveText(/^\d+ tools deferred · 0 loaded$/);
    await page.mouse.move(0, 0);

    await send(page, "Find the echo tool");
    const card = page.locator('[data-testid="tool-card"][data-tool-name="tool_search"]');
    await expect(card).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await expect(card.getByTestId("tool-card-summary")).toHaveText(/^"echo" → \d+ loaded$/);
    await card.getByTestId("tool-card-toggle").click();
    await card.getByRole("tab", { name: "Result" }).click();
    await expect(card.getByTestId("tool-search-match").filter({ hasText: "mcp__everything__echo" })).toBeVisible();
    await expect(page.getByTestId("message-assistant").last()).toContainText("mcp__everything__echo");

    await meter.hover();
    await expect(page.getByTestId("context-deferred-line").first()).toHaveText(/^\d+ tools deferred · [1-9]\d* loaded$/);
    await expect(page.getByTestId("context-loaded").first()).toContainText("mcp__everything__echo");
    await page.screenshot({ path: test.info().outputPath("deferred-tools.png"), fullPage: true });
  });
});
