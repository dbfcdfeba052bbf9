import { expect, test, type Page } from "@playwright/test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { useHost } from "../fixtures/host.js";
import { openSession, send } from "../fixtures/session.js";
import { tmpDir } from "../fixtures/tmp.js";

/**
 * Session operations end to end (CTX-5): fork at a message, search across sessions and open a result,
 * and "Restore to here" — the files rewound and a fork opened with the message in its composer. A scripted
 * model (scripts/session-ops.json) writes real files in a temp workspace.
 */
const sessionIdOf = (page: Page) => new URL(page.url()).pathname.split("/").at(-1)!;
const userRow = (page: Page, text: string) => page.locator('[data-testid="user-message-row"]', { hasText: text });

async function turnEnded(page: Page) {
  await expect(page.getByTestId("stop-button")).toHaveCount(0, { timeout: 20_000 });
}

test.describe("session operations: fork, search, Restore to here (CTX-5)", () => {
  test.describe.configure({ mode: "serial" });
  const ws = tmpDir("session-ops-ws-");
  const host = useHost({}, () => rmSync(ws, { recursive: true, force: true }));
  let original = "";

  test("a session of three turns: a reply, then two file writes", async ({ page }) => {
    await openSession(page, host, "Ops", ws);
    original = sessionIdOf(page);
    // Edits run without asking, so the turns need no approval clicks.
    await page.getByTestId("mode-switch").click();
    await page.getByTestId("mode-option-auto-edit").click();
    for (const text of ["ops: remember the pelican", "ops: write the draft", "ops: write the final flamingo"]) {
      await send(page, text);
      await expect(userRow(page, text)).toBeVisible();
      await turnEnded(page);
    }
    await expect(page.getByText("The final file is written.")).toBeVisible();
    expect(readFileSync(join(ws, "draft.txt"), "utf8")).toBe("draft one\n");
    expect(readFileSync(join(ws, "final.txt"), "utf8")).toBe("final\n");
  });

  test("fork from a message: hover, Fork, a new session holding the conversation up to and including it", async ({ page }) => {
    await page.goto(host.url(`/s/${original}`));
    const row = userRow(page, "ops: write the draft");
    await row.hover();
    await row.getByTestId("message-fork").click();
    await expect(page).not.toHaveURL(new RegExp(`/s/${original}`));
    await expect(page.getByTestId("session-title")).toHaveText("Ops (fork)");
    await expect(userRow(page, "ops: remember the pelican")).toBeVisible();
    await expect(userRow(page, "ops: write the draft")).toBeVisible();
    await expect(page.getByText("Noted: the pelican.")).toBeVisible();
    // The fork ends with the chosen message: neither its turn's reply nor anything later.
    await expect(page.getByText("The draft is written.")).toHaveCount(0);
    await expect(userRow(page, "ops: write the final flamingo")).toHaveCount(0);
  });

  test("search: Ctrl+K, type a word, the result is marked and opens its session at the item", async ({ page }) => {
    await page.goto(host.url("/"));
    const dialog = page.getByTestId("search-dialog");
    // The shortcut works once the page is hydrated.
    await expect(async () => {
      await page.keyboard.press("Control+k");
      await expect(dialog.getByTestId("search-empty")).toBeVisible({ timeout: 1_000 });
    }).toPass();
    await dialog.getByTestId("search-input").fill("flaming");
    const results = dialog.getByTestId("search-result");
    // Only the original holds the third message (the fork stops before it).
    await expect(results).toHaveCount(1);
    await expect(results.first().getByTestId("search-result-title")).toHaveText("Ops");
    await expect(results.first().locator("mark")).toHaveText("flamingo");
    await page.screenshot({ path: test.info().outputPath("search.png") });
    const item = await results.first().getAttribute("data-item-id");
    expect(await results.first().getAttribute("data-session-id")).toBe(original);
    await results.first().click();
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/s/${original}\\?item=${item}$`));
    await expect(page.locator(`[data-testid="user-message-row"][data-message-id="${item}"]`)).toHaveCount(1);

    // Nothing matches: said so.
    await page.keyboard.press("Control+k");
    await page.getByTestId("search-input").fill("zzyzx");
    await expect(page.getByTestId("search-no-results")).toBeVisible();
  });

  test("Restore to here: the dialog says both things; files rewound, a fork opened with the message in its composer", async ({ page }) => {
    await page.goto(host.url(`/s/${original}`));
    const row = userRow(page, "ops: write the final flamingo");
    await row.hover();
    await row.getByTestId("message-restore").click();
    const dialog = page.getByTestId("restore-dialog");
    await expect(dialog).toContainText("Files created since are removed");
    await expect(dialog).toContainText("a fork of this session opens");
    await page.screenshot({ path: test.info().outputPath("restore-and-fork-dialog.png") });
    await dialog.getByTestId("restore-confirm").click();

    await expect(page).not.toHaveURL(new RegExp(`/s/${original}`));
    const fork = sessionIdOf(page);
    await expect(page.getByTestId("composer-input")).toHaveValue("ops: write the final flamingo");
    await expect(userRow(page, "ops: write the draft")).toBeVisible();
    await expect(userRow(page, "ops: write the final flamingo")).toHaveCount(0);
    expect(existsSync(join(ws, "final.txt"))).toBe(false);
    expect(readFileSync(join(ws, "draft.txt"), "utf8")).toBe("draft one\n");

    // The original keeps its whole conversation; its Files restored row links the fork and can undo the restore.
    await page.goto(host.url(`/s/${original}`));
    await expect(userRow(page, "ops: write the final flamingo")).toBeVisible();
    const restored = page.locator('[data-testid="fact-row"][data-fact-kind="files_restored"]');
    await restored.getByTestId("fact-row-toggle").click();
    await expect(restored.getByTestId("restore-fork-link")).toHaveAttribute("href", `/s/${fork}`);
    await restored.getByTestId("restore-undo").click();
    await expect(restored.getByTestId("restore-undone")).toContainText("Restore undone");
    expect(readFileSync(join(ws, "final.txt"), "utf8")).toBe("final\n");
  });
});
