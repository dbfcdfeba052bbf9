import { expect, test, type Locator, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useHost } from "../fixtures/host.js";
import { openSession, send } from "../fixtures/session.js";
import { tmpDir } from "../fixtures/tmp.js";

/**
 * The coding agent end to end (CODE-1..5, PERM-3/4): a scripted model (scripts/coding.json) edits a real
 * file and runs real commands in a temp workspace, through the approval cards, the Changed files card,
 * Undo and Restore, a background job's chip, the Permissions page and Settings → Shell.
 */
const NOTES = "# Notes\nstatus: draft\nowner: seam\n";

const cards = (page: Page, tool: string) => page.locator(`[data-testid="tool-card"][data-tool-name="${tool}"]`);
const lastCard = (page: Page, tool: string) => cards(page, tool).last();

/** The session every test works in, opened from the sessions list. */
async function openCoding(page: Page, host: ReturnType<typeof useHost>) {
  await page.goto(host.url("/"));
  await page.locator('[data-testid="session-item"]', { hasText: "Coding", hasNotText: "(fork)" }).click();
  await expect(page.getByTestId("composer-input")).toBeVisible();
}

/** Waits for the session's turn to end (no stop button, the composer free). */
async function turnEnded(page: Page) {
  await expect(page.getByTestId("stop-button")).toHaveCount(0, { timeout: 20_000 });
}

/** The timeline row of the last card of `tool` in the DOM. */
const lastCardRow = (page: Page, tool: string) =>
  page.locator('[data-testid="timeline-row"]', { has: page.locator(`[data-testid="tool-card"][data-tool-name="${tool}"]`) }).last();

/**
 * Sends a message and waits for a new card of `tool`. The timeline is virtualized (CTX-4): older cards leave
 * the DOM as the view follows the bottom, so the new card is told by its row key, not by counting cards.
 */
async function sendFor(page: Page, text: string, tool: string): Promise<Locator> {
  const before = (await lastCardRow(page, tool).count()) > 0 ? await lastCardRow(page, tool).getAttribute("data-row-key") : null;
  await send(page, text);
  await expect(async () => {
    const key = await lastCardRow(page, tool).getAttribute("data-row-key", { timeout: 1_000 });
    expect(key).not.toBeNull();
    expect(key).not.toBe(before);
  }).toPass({ timeout: 20_000 });
  return lastCard(page, tool);
}

/** The processes whose command line is exactly `args`. */
function processesRunning(args: string): number {
  const out = execFileSync("ps", ["-eo", "args="], { encoding: "utf8" });
  return out.split("\n").filter((l) => l.trim() === args).length;
}

test.describe("coding: edits, shell, checkpoints, jobs and the sandbox (CODE-1..5, PERM-3/4)", () => {
  test.describe.configure({ mode: "serial" });
  const ws = tmpDir("coding-ws-");
  writeFileSync(join(ws, "notes.txt"), NOTES);
  const host = useHost({}, () => rmSync(ws, { recursive: true, force: true }));

  test("edit: approve the diff, see it in the edit card, then Undo this turn restores the file", async ({ page }) => {
    await openSession(page, host, "Coding", ws);
    await expect(page.getByTestId("mode-switch-label")).toHaveText("default (Ask)");

    const edit = await sendFor(page, "coding: edit the notes", "edit_file");
    // read_file ran without asking; the edit waits with the diff it would make.
    await expect(lastCard(page, "read_file")).toHaveAttribute("data-status", "ok");
    await expect(edit).toHaveAttribute("data-waiting", "true", { timeout: 20_000 });
    const approval = edit.getByTestId("tool-approval-card");
    await expect(approval.getByTestId("tool-approval-summary")).toContainText("notes.txt");
    const wouldBe = approval.getByTestId("tool-approval-diff");
    await expect(wouldBe).toHaveAttribute("data-added", "1");
    await expect(wouldBe).toHaveAttribute("data-removed", "1");
    await expect(wouldBe.getByTestId("diff-added")).toContainText("status: final");
    await expect(wouldBe.getByTestId("diff-removed")).toContainText("status: draft");
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe(NOTES);
    await page.screenshot({ path: test.info().outputPath("edit-approval.png"), fullPage: true });

    await approval.getByTestId("tool-approval-once").click();
    await expect(edit).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toContain("status: final");
    await edit.getByTestId("tool-card-toggle").click();
    const diff = edit.getByTestId("edit-diff");
    await expect(diff.getByTestId("diff-added")).toContainText("status: final");
    await expect(diff.getByTestId("diff-removed")).toContainText("status: draft");

    // The turn ends with the Changed files card.
    await turnEnded(page);
    const card = page.getByTestId("changed-files-card").last();
    await expect(card.getByTestId("changed-files-counts")).toContainText("1 file");
    const file = card.locator('[data-testid="changed-file"][data-path="notes.txt"]');
    await expect(file.getByTestId("changed-file-status")).toHaveText("M");
    await expect(file.getByTestId("diff-counts")).toHaveText("+1 −1");
    await file.getByTestId("changed-file-toggle").click();
    await expect(file.getByTestId("changed-file-diff").getByTestId("diff-added")).toContainText("status: final");
    await page.screenshot({ path: test.info().outputPath("changed-files.png"), fullPage: true });

    await card.getByTestId("changed-files-undo").click();
    await expect(card.getByTestId("changed-files-undone")).toHaveText("Undone");
    await expect(card.getByTestId("changed-files-undo")).toHaveCount(0);
    await expect(card.getByTestId("rewind-restored")).toContainText("notes.txt");
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe(NOTES);
    // The undo is recorded as a compact row that expands to what it restored.
    const row = page.locator('[data-testid="fact-row"][data-fact-kind="changes_undone"]');
    await expect(row.getByTestId("fact-row-title")).toHaveText("Turn undone");
    await row.getByTestId("fact-row-toggle").click();
    await expect(row.getByTestId("rewind-restored")).toContainText("notes.txt");
    await page.screenshot({ path: test.info().outputPath("undone.png"), fullPage: true });

    // After a reload the card still knows it was undone.
    await page.reload();
    await expect(page.getByTestId("changed-files-card").last().getByTestId("changed-files-undone")).toBeVisible();
  });

  test("shell: always allow echo, the next echo runs without asking, touch still asks; Restore to here removes its file", async ({ page }) => {
    await openCoding(page, host);
    const hello = await sendFor(page, "coding: say hello", "bash");
    await expect(hello).toHaveAttribute("data-waiting", "true", { timeout: 20_000 });
    const approval = hello.getByTestId("tool-approval-card");
    await expect(approval.getByTestId("tool-approval-command").getByTestId("bash-command")).toContainText("echo hello");
    await expect(approval.getByTestId("tool-approval-command").getByTestId("bash-cwd")).toContainText(ws);
    await approval.getByTestId("tool-approval-always").click();
    await expect(approval.getByTestId("tool-approval-rule-input")).toHaveValue("bash(echo:*)");
    await approval.getByTestId("tool-approval-always-save").click();
    await expect(hello).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await hello.getByTestId("tool-card-toggle").click();
    await expect(hello.getByTestId("bash-output")).toContainText("hello");
    await expect(hello.getByTestId("bash-exit")).toHaveText("exit 0");
    await turnEnded(page);

    // The rule covers the next echo: it runs at once.
    const again = await sendFor(page, "coding: say hello again", "bash");
    await expect(again).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await expect(again).not.toHaveAttribute("data-waiting", "true");
    await again.getByTestId("tool-card-toggle").click();
    await expect(again.getByTestId("bash-output")).toContainText("again");
    await turnEnded(page);

    // A command the rule does not cover still asks.
    const touch = await sendFor(page, "coding: touch a file", "bash");
    await expect(touch).toHaveAttribute("data-waiting", "true", { timeout: 20_000 });
    await expect(touch.getByTestId("tool-approval-card").getByTestId("bash-command")).toContainText("touch x");
    await touch.getByTestId("tool-approval-once").click();
    await expect(touch).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await turnEnded(page);
    expect(existsSync(join(ws, "x"))).toBe(true);
    // A file a command created shows in the Changed files card too.
    const card = page.getByTestId("changed-files-card").last();
    await expect(card.locator('[data-testid="changed-file"][data-path="x"]').getByTestId("changed-file-status")).toHaveText("A");

    // Restore to before the message: hovering shows the action, the dialog explains, x is gone.
    const message = page.locator('[data-testid="user-message-row"]', { hasText: "coding: touch a file" });
    await message.hover();
    await expect(message.getByTestId("message-restore")).toBeVisible();
    await message.getByTestId("message-restore").click();
    const dialog = page.getByTestId("restore-dialog");
    await expect(dialog).toContainText("your own later edits");
    await page.screenshot({ path: test.info().outputPath("restore-dialog.png") });
    await dialog.getByTestId("restore-confirm").click();
    await expect(dialog).toHaveCount(0);
    // Restore to here also forks (CTX-5): the fork opens with the message in its composer; the original is unchanged.
    await expect(page.getByTestId("composer-input")).toHaveValue("coding: touch a file");
    await openCoding(page, host);
    const restored = page.locator('[data-testid="fact-row"][data-fact-kind="files_restored"]');
    await expect(restored.getByTestId("fact-row-title")).toHaveText("Files restored");
    expect(existsSync(join(ws, "x"))).toBe(false);
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe(NOTES);
    await restored.getByTestId("fact-row-toggle").click();
    await expect(restored.locator('[data-testid="changed-file"][data-path="x"]').getByTestId("changed-file-status")).toHaveText("D");

    // The restore itself can be undone: x is back.
    await restored.getByTestId("restore-undo").click();
    await expect(restored.getByTestId("restore-undone")).toContainText("Restore undone");
    expect(existsSync(join(ws, "x"))).toBe(true);
    await expect(page.locator('[data-testid="fact-row"][data-fact-kind="changes_undone"]').last().getByTestId("fact-row-title")).toHaveText("Restore undone");
  });

  test("plan mode: an edit is refused with the reason, the file unchanged", async ({ page }) => {
    await openCoding(page, host);
    await page.getByTestId("mode-switch").click();
    await page.getByTestId("mode-option-plan").click();
    await expect(page.getByTestId("mode-switch-label")).toHaveText("Plan");

    const edit = await sendFor(page, "coding: edit the notes in plan mode", "edit_file");
    await expect(edit).toHaveAttribute("data-status", "error", { timeout: 20_000 });
    await expect(edit.getByTestId("tool-card-status")).toContainText("permission_denied");
    await edit.getByTestId("tool-card-toggle").click();
    await edit.getByRole("tab", { name: "Result" }).click();
    await expect(edit.getByTestId("tool-card-result")).toContainText("Plan mode");
    await expect(edit.getByTestId("tool-approval-card")).toHaveCount(0);
    await turnEnded(page);
    expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe(NOTES);

    await page.getByTestId("mode-switch").click();
    await page.getByTestId("mode-option-default").click();
    await expect(page.getByTestId("mode-switch-label")).toHaveText("default (Ask)");
  });

  test("a background job shows as a chip; killing it from the chip stops the process", async ({ page }) => {
    await openCoding(page, host);
    const start = await sendFor(page, "coding: start a background job", "bash");
    await expect(start).toHaveAttribute("data-waiting", "true", { timeout: 20_000 });
    await start.getByTestId("tool-approval-once").click();
    await expect(start).toHaveAttribute("data-status", "ok", { timeout: 20_000 });

    const chip = page.locator('[data-testid="job-chip"]', { hasText: "sleep 317" });
    await expect(chip).toHaveAttribute("data-state", "running");
    await expect(chip.getByTestId("job-chip-state")).toContainText("running");
    await expect.poll(() => processesRunning("sleep 317")).toBeGreaterThan(0);
    await page.screenshot({ path: test.info().outputPath("job-chip.png") });

    // Its output opens in a dialog (empty: sleep prints nothing).
    await chip.getByTestId("job-chip-output").click();
    const dialog = page.getByTestId("job-output-dialog");
    await expect(dialog.getByTestId("job-output-command")).toContainText("sleep 317");
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);

    await chip.getByTestId("job-chip-kill").click();
    await expect(chip).toHaveAttribute("data-state", "killed", { timeout: 10_000 });
    await expect(chip.getByTestId("job-chip-state")).toContainText("killed");
    await expect(chip.getByTestId("job-chip-kill")).toHaveCount(0);
    await expect.poll(() => processesRunning("sleep 317"), { timeout: 10_000 }).toBe(0);
    // A finished chip can be dismissed.
    await chip.getByTestId("job-chip-dismiss").click();
    await expect(chip).toHaveCount(0);
  });

  test("the Permissions page lists the echo rule and the audit of these calls", async ({ page }) => {
    await page.goto(host.url("/permissions"));
    const rule = page.locator('[data-testid="rule-row"][data-pattern="bash(echo:*)"]');
    await expect(rule).toHaveAttribute("data-action", "allow");
    const bash = page.locator('[data-testid="audit-row"][data-tool="bash"]');
    // echo hello (you, always), echo again (the rule), touch x and sleep (you, once).
    await expect(bash).toHaveCount(4);
    await expect(bash.filter({ hasText: "echo again" }).getByTestId("audit-by")).toContainText("rule bash(echo:*)");
    await expect(bash.filter({ hasText: "echo hello" }).getByTestId("audit-by")).toHaveText("you (always)");
    await expect(page.locator('[data-testid="audit-row"][data-tool="edit_file"]')).toHaveCount(2);
    await page.screenshot({ path: test.info().outputPath("permissions.png"), fullPage: true });
  });

  test("Settings → Shell shows that the sandbox works here", async ({ page }) => {
    await page.goto(host.url("/settings"));
    const section = page.getByTestId("shell-section");
    await expect(section.getByTestId("shell-availability")).toHaveAttribute("data-available", "true");
    await expect(section.getByTestId("shell-availability-text")).toContainText(/bubblewrap [\d.]+ works/);
    await expect(section.getByTestId("shell-sandbox-workspace-write")).toBeChecked();
    await expect(section.getByTestId("shell-sandbox-read-only")).toBeEnabled();
    await section.getByTestId("shell-probe").click();
    await expect(section.getByTestId("shell-probe")).toHaveText("Check again");
    await expect(section.getByTestId("shell-availability")).toHaveAttribute("data-available", "true");
    // Network off, saved and confirmed; then back on.
    await section.getByTestId("shell-network").click();
    await section.getByTestId("shell-save").click();
    await expect(section.getByTestId("shell-saved")).toBeVisible();
    await section.getByTestId("shell-network").click();
    await section.getByTestId("shell-save").click();
    await expect(section.getByTestId("shell-saved")).toBeVisible();
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("settings-shell.png"), fullPage: true });
  });
});
