import { expect, test, type Page } from "@playwright/test";
import { longSessionExport } from "../../packages/testkit/src/long-session.js";
import { useHost, type HostProcess } from "../fixtures/host.js";
import { workspace } from "../fixtures/session.js";
import { PORTS } from "../ports.js";

// CTX-4: a long session opens at its latest message, keeps only a few rows in the DOM, pages older items
// in as the user scrolls up, and opens at an old message from a `?item=` link.

const ITEMS = 3_000;
/** Rows in the DOM at any time: the viewport's rows and the overscan, never the session's length. */
const MAX_ROWS = 80;

/** A tRPC call straight to the host with the host token (queries by GET, mutations by POST). */
async function call<T>(host: HostProcess, path: string, input: unknown, method: "GET" | "POST" = "GET"): Promise<T> {
  const base = `http://127.0.0.1:${PORTS.host}/trpc/${path}`;
  const headers = { authorization: `Bearer ${host.token}`, "content-type": "application/json" };
  const res = method === "GET"
    ? await fetch(`${base}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
    : await fetch(base, { method: "POST", headers, body: JSON.stringify(input) });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { result: { data: T } }).result.data;
}

const rows = (page: Page) => page.getByTestId("timeline-row").count();
const text = (page: Page, t: string) => page.getByText(t, { exact: true });

/** Scrolls the chat with the mouse wheel until `target` is visible (each scroll to the top loads an older page). */
async function wheelUntilVisible(page: Page, target: string, dy: number) {
  await page.getByTestId("chat-scroll").hover();
  for (let i = 0; i < 200 && !(await text(page, target).isVisible()); i++) {
    await page.mouse.wheel(0, dy);
    await page.waitForTimeout(50);
  }
  await expect(text(page, target)).toBeVisible();
}

test.describe("a long session (CTX-4)", () => {
  const host = useHost({ model: false });
  let sessionId = "";
  let oldItemId = "";

  test.beforeAll(async () => {
    const session = await call<{ id: string }>(host, "session.importJson", { text: longSessionExport({ items: ITEMS, workspace, title: "Long one" }), workspace }, "POST");
    sessionId = session.id;
    const first = await call<{ items: { id: string; seq: number }[] }>(host, "session.items", { sessionId, afterSeq: 0, limit: 200 });
    oldItemId = first.items.find((i) => i.seq === 101)!.id; // "User message #101"
  });

  test("opens at the latest message with a bounded DOM, and scrolling up reaches the first message", async ({ page }) => {
    const gets: string[] = [];
    page.on("request", (r) => r.url().includes("session.get") && gets.push(r.url()));
    await page.goto(host.url(`/s/${sessionId}`));
    await expect(text(page, `Reply #${ITEMS}`)).toBeVisible();
    await expect(page.getByTestId("composer-input")).toBeVisible();
    // The session is fetched once: after the live stream has started, and the parts that mount later
    // (job chips, extensions) do not restart the stream.
    await page.waitForTimeout(1_500); // time for a restart to show, were there one
    expect(gets).toHaveLength(1);
    expect(await rows(page)).toBeLessThan(MAX_ROWS);
    expect(await rows(page)).toBeGreaterThan(3);

    await wheelUntilVisible(page, "User message #1", -4_000);
    expect(await rows(page)).toBeLessThan(MAX_ROWS);
    // Every page joined the list: the second message sits right below the first.
    await expect(page.getByTestId("timeline")).toHaveAttribute("data-rows", String(ITEMS));
    await expect(text(page, "Reply #3")).toBeVisible();

    // Back to the latest with the button.
    await page.getByRole("button", { name: "Scroll to latest" }).click();
    await expect(text(page, `Reply #${ITEMS}`)).toBeVisible();
    expect(await rows(page)).toBeLessThan(MAX_ROWS);
  });

  test("?item= opens at an old message, highlights it, and scrolls both ways from there", async ({ page }) => {
    await page.goto(host.url(`/s/${sessionId}`).replace("?token=", `?item=${oldItemId}&token=`));
    const marked = page.locator('[data-testid="timeline-row"][data-highlighted="true"]');
    await expect(marked).toContainText("User message #101");
    await expect(marked).toBeInViewport();
    expect(await rows(page)).toBeLessThan(MAX_ROWS);
    await expect(text(page, `Reply #${ITEMS}`)).toHaveCount(0);

    await wheelUntilVisible(page, "User message #1", -4_000);
    await wheelUntilVisible(page, `Reply #${ITEMS}`, 4_000); // newer pages, up to the latest
    expect(await rows(page)).toBeLessThan(MAX_ROWS);
  });

  test("an unknown ?item= says so and shows the latest messages", async ({ page }) => {
    await page.goto(host.url(`/s/${sessionId}`).replace("?token=", "?item=no-such-item&token="));
    await expect(page.getByTestId("jump-notice")).toContainText("has no item no-such-item");
    await expect(text(page, `Reply #${ITEMS}`)).toBeVisible();
  });
});
