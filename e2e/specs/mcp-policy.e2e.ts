import { expect, test } from "@playwright/test";
import { useHost } from "../fixtures/host.js";
import { addStdioServer, EVERYTHING, serverRow } from "../fixtures/mcp.js";
import { createSession, send } from "../fixtures/session.js";
import { PORTS } from "../ports.js";

const ECHO = "mcp__everything__echo";
const toolRow = (page: import("@playwright/test").Page, name: string) => page.locator(`[data-testid="mcp-tool-row"][data-public-name="${name}"]`);

interface Recorded { path: string; body: { messages?: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] } }
/** The tool names of the scripted model's last request whose last user message contains `text`. */
async function requestTools(text: string): Promise<string[]> {
  const all = (await (await fetch(`http://127.0.0.1:${PORTS.model}/__requests`)).json()) as Recorded[];
  const mine = all.filter((r) => JSON.stringify(r.body.messages ?? []).includes(text));
  const last = mine.at(-1);
  if (!last) throw new Error(`no model request with "${text}" yet`);
  return (last.body.tools ?? []).map((t) => t.function.name);
}

test.describe("MCP policy plane (MCP-8)", () => {
  test.describe.configure({ mode: "serial" });
  const host = useHost();

  test("a tool disabled on the MCP page is gone from the model's tool list, and back when enabled", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(host.url("/mcp"));
    await addStdioServer(page, "everything", process.execPath, [EVERYTHING, "stdio"]);
    const row = serverRow(page, "everything");
    await expect(row).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await row.getByTestId("mcp-server-expand").click();
    // The tool list arrives with the server's first generation; under load that can take a while.
    await expect(toolRow(page, ECHO)).toBeVisible({ timeout: 20_000 });
    await expect(toolRow(page, ECHO)).toHaveAttribute("data-enabled", "true");

    await toolRow(page, ECHO).getByTestId("mcp-tool-enabled").click();
    await expect(toolRow(page, ECHO)).toHaveAttribute("data-enabled", "false");
    await expect(toolRow(page, ECHO)).toContainText("disabled: hidden from the agent");
    await expect(row).toHaveAttribute("data-state", "ready");
    await page.screenshot({ path: test.info().outputPath("mcp-tool-disabled.png"), fullPage: true });

    await createSession(page, "Policy");
    await send(page, "Which MCP tools do you have? (1)");
    await expect(page.getByTestId("message-assistant").last()).toContainText("Only the ones the MCP page gives me.", { timeout: 20_000 });
    await expect.poll(() => requestTools("(1)").catch(() => [])).not.toEqual([]);
    const without = await requestTools("(1)");
    expect(without).not.toContain(ECHO);
    expect(without).toContain("mcp__everything__get-sum");

    await page.goto(host.url("/mcp"));
    await serverRow(page, "everything").getByTestId("mcp-server-expand").click();
    await expect(toolRow(page, ECHO)).toBeVisible({ timeout: 20_000 });
    await toolRow(page, ECHO).getByTestId("mcp-tool-enabled").click();
    await expect(toolRow(page, ECHO)).toHaveAttribute("data-enabled", "true");
    await page.goBack();
    await send(page, "Which MCP tools do you have? (2)");
    await expect(page.getByTestId("message-assistant").last()).toContainText("Only the ones", { timeout: 20_000 });
    await expect.poll(() => requestTools("(2)").catch(() => [])).toContain(ECHO);
  });

  test("an `ask` tool waits for a person even though it only reads; approved from the tray it runs", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(host.url("/mcp"));
    await serverRow(page, "everything").getByTestId("mcp-server-expand").click();
    await expect(toolRow(page, ECHO)).toBeVisible({ timeout: 20_000 });
    const select = toolRow(page, ECHO).getByTestId("mcp-tool-approval");
    await select.selectOption("ask");
    await expect(select).toHaveValue("ask");

    await createSession(page, "Ask echo");
    await send(page, `/call ${ECHO} {"message": "asked first"}`);
    const card = page.locator(`[data-testid="tool-card"][data-tool-name="${ECHO}"]`).last();
    await expect(card).toHaveAttribute("data-waiting", "true", { timeout: 20_000 });
    await page.getByTestId("approval-tray-button").click();
    const tray = page.getByTestId("approval-tray");
    const approval = tray.getByTestId("tool-approval-card");
    await expect(approval.getByTestId("tool-approval-reason")).toContainText("set to ask before every call");
    await page.screenshot({ path: test.info().outputPath("mcp-ask-tray.png") });
    await approval.getByTestId("tool-approval-once").click();
    await expect(card).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    if (await tray.count()) await page.keyboard.press("Escape");
    await expect(tray).toHaveCount(0);
    await card.getByTestId("tool-card-toggle").click();
    await card.getByRole("tab", { name: "Result" }).click();
    await expect(card.getByTestId("tool-card-result")).toContainText("asked first");
  });
});
