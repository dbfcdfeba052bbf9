import { expect, test } from "@playwright/test";
import { onPostgres } from "../fixtures/database.js";
import { HostProcess, useHost } from "../fixtures/host.js";
import { openSession } from "../fixtures/session.js";

// SCALE-2, SCALE-3 (PostgreSQL run only): two hosts on one database. The page is connected to host A (the web
// server proxies to A); host B runs the session's turn. The page streams B's turn as it is written, shows the
// session running, and its Stop button stops the turn on B; then the page's own message runs on A.

const B_PORT = 4418;

/** A tRPC mutation straight to host B with its own token. */
async function onB<T>(b: HostProcess, path: string, input: unknown): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${B_PORT}/trpc/${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${b.token}`, "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  if (!res.ok) throw new Error(`${path} on host B: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

test.describe("a page on host A follows a turn run by host B (SCALE-3)", () => {
  test.skip(!onPostgres, "two hosts share a database only on PostgreSQL (playwright.postgres.config.ts)");
  const a = useHost();
  const b = new HostProcess({ env: { SEAM_HOST_PORT: String(B_PORT), SEAM_WEB_PORT: "3118", SEAM_DATABASE_URL: a.databaseUrl } });
  test.beforeAll(async () => b.start());
  test.afterAll(async () => b.stop());

  test("B's turn streams into A's page, which shows it running and stops it", async ({ page }) => {
    await openSession(page, a, "Followed across hosts");
    const sessionId = /\/s\/([^/?#]+)/.exec(page.url())![1]!;

    await onB(b, "session.send", { sessionId, text: "Tell me a long story" });
    await expect(page.getByTestId("message-user")).toContainText("Tell me a long story");
    const message = page.getByTestId("message-assistant").last();
    await expect(message).toContainText("Once upon a time, Once upon a time,");
    const early = ((await message.textContent()) ?? "").length;
    await expect.poll(async () => ((await message.textContent()) ?? "").length).toBeGreaterThan(early);
    await expect(page.getByTestId("stop-button")).toBeVisible();

    // The sidebar of A's page lists the session as running (on B).
    await expect(page.getByTestId("session-list").getByText("running")).toBeVisible();

    await page.getByTestId("stop-button").click();
    await expect(page.getByTestId("turn-status")).toHaveAttribute("data-status", "stopped");
    await expect(page.getByTestId("stop-button")).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath("cluster-followed.png"), fullPage: true });

    // The session is free again: this page's next message runs on host A.
    await page.getByTestId("composer-input").fill("Tell me a long story");
    await page.getByTestId("composer-input").press("Enter");
    await expect(page.getByTestId("stop-button")).toBeVisible();
    await page.getByTestId("stop-button").click();
    await expect(page.getByTestId("turn-status")).toHaveCount(2);
    await expect(page.getByTestId("turn-status").last()).toHaveAttribute("data-status", "stopped");
  });
});
