import { expect, test, type Page } from "@playwright/test";
import { useHost } from "../fixtures/host.js";
import { addStdioServer, EVERYTHING, serverRow } from "../fixtures/mcp.js";
import { createSession, send } from "../fixtures/session.js";

/** server-everything's tool without readOnlyHint: effect `external`, so the default mode (ask) asks. */
const TOOL = "mcp__everything__toggle-subscriber-updates";
const CALL = `/call ${TOOL} {}`;

/** Another tool that asks, with no rule from the tests before (the two-tab test). */
const OTHER = "mcp__everything__toggle-simulated-logging";

const toolCards = (page: Page, tool = TOOL) => page.locator(`[data-testid="tool-card"][data-tool-name="${tool}"]`);
/** The approval card inside the tool card it holds up. */
const inlineApproval = (page: Page, tool = TOOL) => toolCards(page, tool).last().getByTestId("tool-approval-card");

test.describe("permissions: approval cards, rules, audit and modes (PERM-1..4)", () => {
  test.describe.configure({ mode: "serial" });
  const host = useHost({ model: false });

  test("an MCP tool asks; deny with a message, then always allow; the page lists the rule and the audit", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(host.url("/mcp"));
    await addStdioServer(page, "everything", process.execPath, [EVERYTHING, "stdio"]);
    await expect(serverRow(page, "everything")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });

    await createSession(page, "Perms");
    await expect(page.getByTestId("mode-switch-label")).toHaveText("default (Ask)");

    // 1. The call waits: its card says so and holds the approval card; the tray mirrors it; the list marks the session.
    await send(page, CALL);
    const card = toolCards(page).last();
    await expect(card).toHaveAttribute("data-waiting", "true", { timeout: 20_000 });
    await expect(card.getByTestId("tool-card-status")).toHaveText(/waiting for approval/);
    const approval = inlineApproval(page);
    await expect(approval.getByTestId("tool-approval-summary")).toContainText(TOOL);
    await expect(approval.getByTestId("tool-approval-server")).toHaveText("everything");
    await expect(approval.getByTestId("tool-approval-reason")).toContainText("Ask mode");
    await expect(page.getByTestId("approval-count")).toHaveText("1");
    await expect(page.getByTestId("nav-approvals-count")).toHaveText("1");
    const item = page.locator('[data-testid="session-item"]', { hasText: "Perms" });
    await expect(item).toHaveAttribute("data-waiting", "true");
    await expect(item.getByTestId("session-item-waiting")).toHaveText("waiting for you");
    await page.screenshot({ path: test.info().outputPath("approval-inline.png"), fullPage: true });

    await page.getByTestId("approval-tray-button").click();
    const tray = page.getByTestId("approval-tray");
    await expect(tray.getByTestId("tool-approval-card")).toBeVisible();
    await expect(tray.getByTestId("tool-approval-session-link")).toHaveText("Perms");
    await page.screenshot({ path: test.info().outputPath("approval-tray.png") });
    await page.keyboard.press("Escape");
    await expect(tray).toHaveCount(0);

    // 2. Deny with a message: the model gets permission_denied with it.
    await approval.getByTestId("tool-approval-deny").click();
    await approval.getByTestId("tool-approval-deny-message").fill("Not now, use the read-only tools");
    await approval.getByTestId("tool-approval-deny-confirm").click();
    await expect(card).toHaveAttribute("data-status", "error");
    await expect(card.getByTestId("tool-card-status")).toContainText("permission_denied");
    await card.getByTestId("tool-card-toggle").click();
    await card.getByRole("tab", { name: "Result" }).click();
    await expect(card.getByTestId("tool-card-result")).toContainText("Not now, use the read-only tools");
    await expect(page.getByTestId("approval-count")).toHaveCount(0);
    await expect(item).not.toHaveAttribute("data-waiting", "true");

    // 3. Again, answered with the keyboard: "r" opens Always allow…, the suggested rule is editable.
    await send(page, CALL);
    await expect(toolCards(page)).toHaveCount(2);
    const second = toolCards(page).last();
    await expect(second).toHaveAttribute("data-waiting", "true", { timeout: 20_000 });
    const again = inlineApproval(page);
    await again.focus();
    await page.keyboard.press("r");
    const rule = again.getByTestId("tool-approval-rule-input");
    await expect(rule).toBeFocused();
    await expect(rule).toHaveValue(TOOL);
    // A broken edit is refused by the host's check and nothing is sent.
    await rule.fill("not a pattern!");
    await again.getByTestId("tool-approval-always-save").click();
    await expect(again.getByTestId("tool-approval-rule-error")).toContainText("is not a tool name");
    await rule.fill(TOOL);
    await again.getByTestId("tool-approval-scope-workspace").check();
    await page.screenshot({ path: test.info().outputPath("approval-always.png"), fullPage: true });
    await again.getByTestId("tool-approval-always-save").click();
    await expect(second).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await expect(again).toHaveCount(0);

    // 4. The Permissions page: the rule under its workspace, the audit log with both answers.
    await page.getByRole("link", { name: "Permissions" }).click();
    await expect(page).toHaveURL(/\/permissions/);
    const ruleRow = page.locator(`[data-testid="rule-row"][data-pattern="${TOOL}"]`);
    await expect(ruleRow).toHaveAttribute("data-action", "allow");
    await expect(page.locator('[data-testid="rule-group"][data-scope="workspace"]')).toContainText("workspace");
    const rows = page.locator(`[data-testid="audit-row"][data-tool="${TOOL}"]`);
    await expect(rows).toHaveCount(2);
    const denied = page.locator(`[data-testid="audit-row"][data-tool="${TOOL}"][data-decision="deny"]`);
    await expect(denied.getByTestId("audit-by")).toHaveText("you");
    await expect(denied.getByTestId("audit-message")).toContainText("Not now, use the read-only tools");
    const allowed = page.locator(`[data-testid="audit-row"][data-tool="${TOOL}"][data-decision="allow"]`);
    await expect(allowed.getByTestId("audit-by")).toHaveText("you (always)");
    await page.getByTestId("audit-filter-decision").selectOption("deny");
    await expect(rows).toHaveCount(1);
    await page.getByTestId("audit-filter-decision").selectOption("");
    await page.screenshot({ path: test.info().outputPath("permissions-page.png"), fullPage: true });

    // The add-rule form checks the pattern live and shows the calls it would have matched.
    await page.getByTestId("rule-form-scope").selectOption("global");
    await page.getByTestId("rule-form-pattern").fill("bad pattern!");
    await expect(page.getByTestId("pattern-invalid")).toBeVisible();
    await page.getByTestId("rule-form-pattern").fill(TOOL);
    await expect(page.getByTestId("pattern-check")).toHaveAttribute("data-matches", "2");
    await page.getByTestId("rule-form-action").selectOption("ask");
    await page.getByTestId("rule-form-submit").click();
    const globalRule = page.locator(`[data-testid="rule-group"][data-scope="global"] [data-testid="rule-row"][data-pattern="${TOOL}"]`);
    await expect(globalRule).toHaveAttribute("data-action", "ask");
    // Edit it, then remove it.
    await globalRule.getByTestId("rule-edit").click();
    await page.getByTestId("rule-edit-action").selectOption("deny");
    await page.getByTestId("rule-edit-save").click();
    await expect(globalRule).toHaveAttribute("data-action", "deny");
    await globalRule.getByTestId("rule-remove").click();
    await page.getByTestId("rule-remove-confirm").click();
    await expect(globalRule).toHaveCount(0);

    // The default mode saves.
    await page.getByTestId("default-mode-select").selectOption("auto-edit");
    await page.getByTestId("default-mode-save").click();
    await expect(page.getByTestId("default-mode-saved")).toBeVisible();
    await page.getByTestId("default-mode-select").selectOption("ask");
    await page.getByTestId("default-mode-save").click();
    await expect(page.getByTestId("default-mode-saved")).toBeVisible();
  });

  test("a saved allow rule lets the next call run without asking", async ({ page }) => {
    await page.goto(host.url("/"));
    await page.locator('[data-testid="session-item"]', { hasText: "Perms" }).click();
    await send(page, CALL);
    await expect(toolCards(page).last()).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await expect(toolCards(page).last()).not.toHaveAttribute("data-waiting", "true");
  });

  test("the first answer wins across two tabs; the late one is told calmly", async ({ page, context }) => {
    await page.goto(host.url("/"));
    await page.locator('[data-testid="session-item"]', { hasText: "Perms" }).click();
    await expect(page.getByTestId("composer-input")).toBeVisible();
    const other = await context.newPage();
    await other.goto(page.url());
    await expect(other.getByTestId("composer-input")).toBeVisible();

    const before = await toolCards(page, OTHER).count();
    await send(page, `/call ${OTHER} {}`);
    await expect(toolCards(page, OTHER)).toHaveCount(before + 1);
    await expect(inlineApproval(page, OTHER)).toBeVisible({ timeout: 20_000 });
    await expect(inlineApproval(other, OTHER)).toBeVisible();
    // The other tab's answer leaves a moment later than this one's.
    await other.route("**/trpc/*permissions.answer*", async (route) => {
      await new Promise((r) => setTimeout(r, 1_000));
      await route.continue();
    });
    await Promise.all([inlineApproval(page, OTHER).getByTestId("tool-approval-once").click(), inlineApproval(other, OTHER).getByTestId("tool-approval-once").click()]);
    await expect(toolCards(page, OTHER).last()).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await expect(other.getByTestId("tool-approval-gone")).toContainText("Answered in another tab");
    await other.screenshot({ path: test.info().outputPath("answered-elsewhere.png"), fullPage: true });
    await expect(other.getByTestId("tool-approval-gone")).toHaveCount(0, { timeout: 10_000 });
    await expect(toolCards(other, OTHER).last()).toHaveAttribute("data-status", "ok");
    await other.close();
  });

  test("plan mode refuses with the reason, without asking", async ({ page }) => {
    await page.goto(host.url("/"));
    await page.locator('[data-testid="session-item"]', { hasText: "Perms" }).click();
    await page.getByTestId("mode-switch").click();
    await expect(page.getByTestId("mode-menu")).toContainText("Only reading and web tools run");
    await page.getByTestId("mode-option-plan").click();
    await expect(page.getByTestId("mode-switch-label")).toHaveText("Plan");

    const before = await toolCards(page).count();
    await send(page, CALL);
    await expect(toolCards(page)).toHaveCount(before + 1);
    const card = toolCards(page).last();
    await expect(card).toHaveAttribute("data-status", "error", { timeout: 20_000 });
    await expect(card.getByTestId("tool-card-status")).toContainText("permission_denied");
    await card.getByTestId("tool-card-toggle").click();
    await card.getByRole("tab", { name: "Result" }).click();
    await expect(card.getByTestId("tool-card-result")).toContainText("Plan mode");
    await expect(page.getByTestId("tool-approval-card")).toHaveCount(0);

    // Back to the default.
    await page.getByTestId("mode-switch").click();
    await page.getByTestId("mode-option-default").click();
    await expect(page.getByTestId("mode-switch-label")).toHaveText("default (Ask)");
  });
});
