/**
 * Chat page load against session length (SPEC §12, CTX-4). A real host (SQLite) holds two imported
 * sessions, one of SHORT items (the baseline) and one of LONG items (turns of 10: user message, tool call,
 * eight replies); the built web app serves the UI. In Chromium, each round opens each session in a new tab
 * and measures navigation start → the first animation frame in which the latest message ("Reply #N") is
 * in the DOM and inside the chat's visible area (the frame that paints it). Rounds alternate the two
 * sessions after one unmeasured warm-up load each. Prints the medians and the long/short ratio (target
 * ≤ 1.5×: the page loads the latest page of items and renders only the rows on screen). Asserts nothing.
 */
import { startScriptedModel } from "../packages/testkit/src/index.js";
import { longSessionExport } from "../packages/testkit/src/long-session.js";
import { browserAvailable, launch, startWeb, WEB_PORT } from "./browser.js";
import { startSeam } from "./pipelines.js";
import { ms, percentile } from "./stats.js";

const SHORT = Number(process.env.BENCH_SHORT_ITEMS ?? 10);
const LONG = Number(process.env.BENCH_LONG_ITEMS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

/** The page globals the in-page probe sets (this package type-checks without the DOM lib). */
interface ProbeGlobals { painted?: number }

/**
 * In the page, from navigation start: on every animation frame, whether an assistant message reading
 * `latest` lies inside the chat's scroll area; the first frame where it does sets `painted` (ms since
 * navigation start), and that frame paints it.
 */
const probe = (latest: string) => `(() => {
  const target = ${JSON.stringify(latest)};
  const tick = () => {
    const scroller = document.querySelector('[data-testid="chat-scroll"]');
    if (scroller) {
      const view = scroller.getBoundingClientRect();
      for (const el of document.querySelectorAll('[data-testid="message-assistant"]')) {
        if (el.textContent.trim() !== target) continue;
        const r = el.getBoundingClientRect();
        if (r.bottom > view.top && r.top < view.bottom) {
          globalThis.painted = performance.now();
          return;
        }
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

const skip = browserAvailable();
if (skip) {
  console.log(`page-load: skipped (${skip})`);
  process.exit(0);
}

// The host wants a model to talk to; no turn runs here.
const model = await startScriptedModel({ scripts: [{ name: "bench", turns: [{ match: ".", steps: [{ text: ["ok"] }] }] }] });
const seam = await startSeam(model, [WEB_PORT]);
const web = await startWeb(seam.url);
const browser = await launch();
try {
  const seed = async (items: number) => {
    const s = await seam.host.sessions.importJson({ text: longSessionExport({ items, workspace: seam.workspace }), workspace: seam.workspace });
    return { id: s.id, items, latest: `Reply #${items}` };
  };
  const sessions = [await seed(SHORT), await seed(LONG)];
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: "seam_token", value: seam.token, url: `http://127.0.0.1:${WEB_PORT}` }]);

  /** One load: ms from navigation start to the first frame showing the latest message. */
  const load = async (s: (typeof sessions)[number]) => {
    const page = await context.newPage();
    try {
      // A string, not a function: the bench runs through tsx, whose helpers (`__name`) do not exist in the page.
      await page.addInitScript(probe(s.latest));
      await page.goto(`http://127.0.0.1:${WEB_PORT}/s/${s.id}`);
      await page.waitForFunction("globalThis.painted !== undefined", undefined, { timeout: 60_000 });
      return page.evaluate(() => (globalThis as unknown as ProbeGlobals).painted!);
    } finally {
      await page.close();
    }
  };

  for (const s of sessions) await load(s); // warm-up: compiled chunks cached, host and web warmed
  const times = sessions.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, s] of sessions.entries()) times[i]!.push(await load(s));
  }
  console.log(`page-load: navigation → latest message painted, Chromium, ${ROUNDS} rounds`);
  const base = percentile(times[0]!, 50);
  for (const [i, s] of sessions.entries()) {
    const p50 = percentile(times[i]!, 50);
    console.log(`  ${`${s.items} items`.padEnd(12)} p50 ${ms(p50).padStart(12)}  ×${(p50 / base).toFixed(2)} of ${SHORT} items`);
  }
  await context.close();
} finally {
  await browser.close();
  web.kill();
  await seam.close();
  await model.close();
}
