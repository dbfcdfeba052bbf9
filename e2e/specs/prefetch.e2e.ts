import { expect, test, type Request } from "@playwright/test";
import { useHost, type HostProcess } from "../fixtures/host.js";
import { workspace } from "../fixtures/session.js";
import { PORTS } from "../ports.js";

// #17: opening a page does not prefetch every session and page in the sidebar; a route is prefetched when the
// user shows intent (pointer over its link, keyboard focus).

async function createSession(host: HostProcess, title: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${PORTS.host}/trpc/session.create`, {
    method: "POST",
    headers: { authorization: `Bearer ${host.token}`, "content-type": "application/json" },
    body: JSON.stringify({ workspace, title }),
  });
  if (!res.ok) throw new Error(`session.create: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { result: { data: { id: string } } }).result.data.id;
}

/** A Next.js router prefetch (an RSC request flagged as a prefetch) and the route it is for. */
const prefetchOf = (r: Request): string | null => {
  const headers = r.headers();
  if (headers["next-router-prefetch"] !== "1" && headers["next-router-segment-prefetch"] === undefined) return null;
  return new URL(r.url()).pathname;
};

test.describe("route prefetching (#17)", () => {
  const host = useHost({ model: false });

  test("opening a chat prefetches no sidebar route; hovering a session prefetches that one only", async ({ page }) => {
    const ids: string[] = [];
    for (let i = 1; i <= 6; i++) ids.push(await createSession(host, `Prefetch ${i}`));
    const prefetched: string[] = [];
    page.on("request", (r) => {
      const path = prefetchOf(r);
      if (path) prefetched.push(path);
    });

    await page.goto(host.url(`/s/${ids[0]}`));
    await expect(page.getByTestId("session-item")).toHaveCount(6);
    await expect(page.getByTestId("composer-input")).toBeVisible();
    // Give viewport prefetching (which would run on idle) time to happen if it were on.
    await page.waitForTimeout(1_500);
    // (Links in the chat's own content, like the empty state's "configure a model" → /settings, keep Next's default.)
    expect(prefetched.filter((p) => p.startsWith("/s/") || ["/mcp", "/skills", "/permissions", "/extensions"].includes(p))).toEqual([]);

    const target = ids[2]!;
    await page.locator(`[data-session-id="${target}"] a`).first().hover();
    await expect.poll(() => prefetched.some((p) => p === `/s/${target}`), { timeout: 10_000 }).toBe(true);
    expect(prefetched.filter((p) => p.startsWith("/s/") && p !== `/s/${target}`)).toEqual([]);

    // The prefetched route opens as usual.
    await page.locator(`[data-session-id="${target}"] a`).first().click();
    await expect(page).toHaveURL(new RegExp(`/s/${target}`));
    await expect(page.getByTestId("composer-input")).toBeVisible();
  });
});
