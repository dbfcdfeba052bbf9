import { expect, test, type Page } from "@playwright/test";
import { startFake, type Fake } from "../fixtures/web.js";
import { useHost } from "../fixtures/host.js";
import { openSession, send } from "../fixtures/session.js";

/**
 * EXT-4 (hardening #12 item 1): a browser half that navigates its own frame must not hand the bridge to
 * whatever document loads next. Each scripted turn (scripts/extensions-navigation.json) defines `nav-<vector>`:
 * a host half that logs "STOLEN" when its `steal` handler is called, and a browser half that tries one way
 * out of its document, pointing at the probe server below.
 */
const PROBE_PORT = 4464;

/** The foreign page: announces itself to the parent, grabs any bridge port it is handed and calls the host half. */
const grabberPage = (v: string) => `<!doctype html><title>probe</title><p id="grabber">grabber</p><script>(function () {
  var v = ${JSON.stringify(v)};
  function say(m) { m.seamNavProbe = v; try { parent.postMessage(m, "*"); } catch (e) {} }
  say({ loaded: true });
  fetch("/loaded?v=" + v, { mode: "no-cors" }).catch(function () {});
  addEventListener("message", function (e) {
    var port = e.ports && e.ports[0];
    say({ handshake: String(e.data), gotPort: !!port });
    if (!port) return;
    fetch("/got-port?v=" + v, { mode: "no-cors" }).catch(function () {});
    port.onmessage = function (m) { say({ reply: m.data }); };
    port.postMessage({ t: "hello", nonce: "guessed" });
    port.postMessage({ t: "call", id: 1, method: "steal", params: { v: v } });
    port.postMessage({ t: "ready" });
  });
})();</script>`;

interface Probe {
  seamNavProbe: string;
  loaded?: boolean;
  gotPort?: boolean;
  handshake?: string;
  reply?: unknown;
}

const toolCard = (page: Page, name: string) => page.locator(`[data-testid="tool-card"][data-tool-name="${name}"]`);

/** What foreign documents in the frame told the page (recorded by an init script on the top page only). */
const probes = (page: Page) => page.evaluate(() => (window as unknown as { __navProbes?: Probe[] }).__navProbes ?? []);

const vectors = [
  // How each attempt ends in Chromium: "navigates" = a second document loads in the frame (the page must tear
  // it down); "blocked" = the browser refuses, the approved document stays and keeps working.
  { v: "href", what: "location.href = url", outcome: "navigates" },
  { v: "meta", what: '<meta http-equiv="refresh"> injected', outcome: "navigates" },
  { v: "form", what: "form submit with target=_self", outcome: "blocked" },
  { v: "open", what: "window.open(url, the frame's own name)", outcome: "navigates" },
  { v: "history", what: "history.pushState(url) + location.reload()", outcome: "navigates" },
  { v: "back", what: "history.pushState + history.back() / go(-2)", outcome: "navigates" },
  { v: "js", what: "location.href = javascript: URL that writes a bridge-grabbing document", outcome: "blocked" },
] as const;

test.describe("A browser half cannot leave its sandbox by navigating its frame (EXT-4)", () => {
  const host = useHost();
  let probe: Fake;

  test.beforeAll(async () => {
    probe = await startFake(PROBE_PORT, (req, res) => {
      const v = new URL(req.path, "http://probe").searchParams.get("v") ?? "?";
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(grabberPage(v));
    });
  });
  test.afterAll(async () => probe?.close());

  test.beforeEach(async ({ page }) => {
    probe.requests.length = 0;
    await page.addInitScript(() => {
      if (window !== window.top) return;
      const got: unknown[] = [];
      (window as unknown as { __navProbes: unknown[] }).__navProbes = got;
      window.addEventListener("message", (e) => {
        if (e.data && typeof e.data === "object" && "seamNavProbe" in e.data) got.push(e.data);
      });
    });
  });

  for (const { v, what, outcome } of vectors) {
    test(`${what}: no foreign document gets the bridge, the host half is never called${outcome === "navigates" ? ", the frame is torn down" : ""}`, async ({ page }) => {
      test.setTimeout(60_000);
      // What the browser loaded into the extension's frame (for the report: error page, srcdoc, or the URL).
      const frameUrls: string[] = [];
      page.on("framenavigated", (f) => {
        if (f !== page.mainFrame()) frameUrls.push(f.url());
      });
      await openSession(page, host, `Navigation ${v}`);
      const sessionUrl = page.url();
      await send(page, `navprobe ${v}`);
      const approval = page.locator(`[data-testid="approval-card"][data-package="nav-${v}"]`).first();
      await expect(approval).toBeVisible({ timeout: 20_000 });
      await approval.getByRole("button", { name: "Allow" }).click();
      const frame = page.locator(`[data-testid="extension-frame"][data-package="nav-${v}"]`).first();
      await expect(frame).toBeVisible({ timeout: 20_000 });

      if (outcome === "navigates") {
        // The later load is a render failure: the frame is removed and the failure is shown, either on the frame
        // or, when the navigation started while the code ran, as extension_run's browser_half_failed (the run
        // ends and its frame goes with it). (Soft, so a regression also shows what leaked below.)
        const shown = async () =>
          [...(await frame.getByTestId("extension-frame-error").allTextContents()), ...(await page.getByTestId("message-assistant").allTextContents())].join("\n");
        await expect.soft.poll(shown, { timeout: 15_000 }).toContain("navigated away");
        await expect.soft(page.locator(`[data-testid="extension-frame"][data-package="nav-${v}"] iframe`)).toHaveCount(0);
      } else {
        // Chromium refuses this one: the approved document stays, unharmed.
        await expect(frame.frameLocator("iframe").locator("#seam-root")).toHaveText("still here", { timeout: 15_000 });
      }
      await expect(page.getByTestId("message-assistant").last()).toContainText("Result:", { timeout: 20_000 });
      const result = toolCard(page, "extension_run").last();
      test.info().annotations.push(
        { type: "extension_run", description: `${await result.getAttribute("data-status")}: ${(await page.getByTestId("message-assistant").last().textContent())?.slice(0, 160)}` },
        { type: "frame loads", description: frameUrls.join(" → ") || "none" },
      );
      console.log(`[${v}] ${test.info().annotations.map((x) => `${x.type}: ${x.description}`).join(" | ")}`);
      await page.waitForTimeout(1_000);
      await page.screenshot({ path: test.info().outputPath(`${v}.png`), fullPage: true });

      if (outcome === "blocked") {
        await expect(frame.locator("iframe")).toHaveCount(1);
        await expect(frame.frameLocator("iframe").locator("#seam-root")).toHaveText("still here");
        await expect(frame).toHaveAttribute("data-failed", "false");
      }
      // Nothing the frame did reached the network (the page's CSP `frame-src 'none'` refuses the load), and no
      // foreign document was handed a port.
      expect.soft(probe.requests.map((r) => r.path), "requests from the frame to the probe server").toEqual([]);
      const seen = await probes(page);
      expect.soft(seen.filter((p) => p.gotPort || p.handshake !== undefined || p.reply !== undefined), "foreign documents that got a handshake").toEqual([]);
      // The Seam page itself was never navigated by the frame.
      expect(page.url()).toBe(sessionUrl);

      // The host half ran, was never called by a foreign document, and the host recorded the navigation.
      await page.goto(host.url("/extensions"));
      const run = page.locator(`[data-testid="extension-run"][data-package="nav-${v}"]`).first();
      await expect(run.getByTestId("extension-run-logs")).toContainText("host half up");
      await expect(run.getByTestId("extension-run-logs")).not.toContainText("STOLEN");
      if (outcome === "navigates") await expect(run.getByTestId("extension-run-browser-failure")).toContainText("navigated away");
      else await expect(run.getByTestId("extension-run-browser-failure")).toHaveCount(0);
    });
  }
});
