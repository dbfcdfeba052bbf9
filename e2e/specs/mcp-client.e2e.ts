import { expect, test } from "@playwright/test";
import { useHost } from "../fixtures/host.js";
import { addStdioServer, EVERYTHING, serverRow } from "../fixtures/mcp.js";
import { createSession, send } from "../fixtures/session.js";

const ELICIT = "mcp__everything__trigger-elicitation-request";
const LONG = "mcp__everything__trigger-long-running-operation";
const toolRow = (page: import("@playwright/test").Page, name: string) => page.locator(`[data-testid="mcp-tool-row"][data-public-name="${name}"]`);

/** The MCP client surface in the browser (MCP-12): a server's request for input answered from the chat, a progress bar. */
test.describe("MCP client surface (MCP-12)", () => {
  test.describe.configure({ mode: "serial" });
  const host = useHost();

  test("a server's form is answered from the chat; the tool's result shows the answer", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(host.url("/mcp"));
    await addStdioServer(page, "everything", process.execPath, [EVERYTHING, "stdio"]);
    const row = serverRow(page, "everything");
    await expect(row).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await row.getByTestId("mcp-server-expand").click();
    // Offered only to clients that declare elicitation: it arrives with the list_changed after initialize.
    await expect(toolRow(page, ELICIT)).toBeVisible({ timeout: 20_000 });

    await createSession(page, "Elicitation");
    await send(page, `/call ${ELICIT} {}`);
    const card = page.locator(`[data-testid="tool-card"][data-tool-name="${ELICIT}"]`).last();
    const form = card.getByTestId("elicitation-card");
    // It changes things on the server's side, so a mode that asks for such tools asks first.
    const approve = card.getByTestId("tool-approval-once");
    await expect(approve.or(form)).toBeVisible({ timeout: 20_000 });
    if (await approve.isVisible()) await approve.click();
    await expect(form).toBeVisible({ timeout: 20_000 });
    await expect(form.getByTestId("elicitation-message")).toContainText("Please provide inputs");
    // It waits for a person like an approval: counted on the tray's bell, and the card says so.
    await expect(page.getByTestId("approval-tray-button")).toHaveAttribute("data-count", "1");
    await expect(card.getByTestId("tool-card-status")).toContainText("waiting for input");
    // Defaults are filled in.
    await expect(form.locator('[data-testid="elicitation-field"][data-name="integer"] input')).toHaveValue("42");
    // The required name is marked as missing when accepting without it.
    await form.getByTestId("elicitation-accept").click();
    await expect(form.locator('[data-testid="elicitation-field-error"][data-field="name"]')).toHaveText("Required");
    await form.locator('[data-testid="elicitation-field"][data-name="name"] input').fill("Ada Lovelace");
    await page.screenshot({ path: test.info().outputPath("mcp-elicitation-form.png"), fullPage: true });
    await form.getByTestId("elicitation-accept").click();

    await expect(card).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await expect(card.getByTestId("elicitation-card")).toHaveCount(0);
    await card.getByTestId("tool-card-toggle").click();
    await card.getByRole("tab", { name: "Result" }).click();
    await expect(card.getByTestId("tool-card-result")).toContainText("- Name: Ada Lovelace");
    await expect(card.getByTestId("tool-card-result")).toContainText("- Favorite Integer: 42");
  });

  test("a long operation's progress bar moves while it runs", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(host.url("/"));
    await createSession(page, "Progress");
    await send(page, `/call ${LONG} {"duration": 6, "steps": 6}`);
    const card = page.locator(`[data-testid="tool-card"][data-tool-name="${LONG}"]`).last();
    const bar = card.getByRole("progressbar");
    await expect(bar).toBeVisible({ timeout: 20_000 });
    await expect(bar).toHaveAttribute("aria-valuemax", "6");
    const first = Number(await bar.getAttribute("aria-valuenow"));
    // Later reports move it on (no timing: wait until it has changed).
    await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 30_000 }).toBeGreaterThan(first);
    await page.screenshot({ path: test.info().outputPath("mcp-progress.png") });
    await expect(card).toHaveAttribute("data-status", "ok", { timeout: 30_000 });
    await expect(card.getByRole("progressbar")).toHaveCount(0);
  });

  test("the server page's Logs tab lists the server's messages", async ({ page }) => {
    await page.goto(host.url("/mcp"));
    await serverRow(page, "everything").getByTestId("mcp-server-expand").click();
    await page.getByTestId("mcp-logs-tab").click();
    const logs = page.getByTestId("mcp-logs");
    await expect(logs).toContainText("cleared when the server restarts");
    await expect(logs.getByTestId("mcp-logs-server-level")).toHaveValue("info");
    // server-everything logs at info when it receives the roots.
    await expect(logs.getByTestId("mcp-log-entry").filter({ hasText: "Roots updated" }).first()).toBeVisible({ timeout: 20_000 });
    await logs.getByTestId("mcp-logs-level").selectOption("error");
    await expect(logs.getByTestId("mcp-log-entry").filter({ hasText: "Roots updated" })).toHaveCount(0);
  });
});
