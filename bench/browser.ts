/**
 * Measures both pipelines as a user sees them: Chromium receives the stream. Seam is reached the way the
 * UI reaches it — through the Next.js app's same-origin /trpc proxy — so the number includes the web hop.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import type { ScriptedModel } from "../packages/testkit/src/index.js";
import { webServer, webServerMissing } from "../scripts/web-server.mjs";
import { latencies, startRelay, startSeam } from "./pipelines.js";

const root = fileURLToPath(new URL("..", import.meta.url));
/** The port the benches start the web app on (`startWeb`). */
export const WEB_PORT = 3291;

export function browserAvailable(): string | null {
  const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromiumPath)) return `no Chromium at ${chromiumPath}`;
  const missing = webServerMissing(root);
  if (missing) return missing;
  return null;
}

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** The page globals the in-browser collector uses (this package type-checks without the DOM lib). */
interface PageGlobals {
  received: [string, number][];
  finished: boolean;
  EventSource: new (url: string) => { onopen: (() => void) | null; onmessage: ((e: { data: string }) => void) | null; close(): void };
}

/** In the page: open an EventSource, record each text chunk's arrival, resolve when `done` says so. */
async function collect(page: Page, url: string, kind: "relay" | "trpc", deltas: number): Promise<() => Promise<Map<string, number>>> {
  await page.evaluate(({ url, kind }) => new Promise<void>((resolve) => {
    const w = globalThis as unknown as PageGlobals;
    w.received = [];
    w.finished = false;
    const es = new w.EventSource(url);
    es.onopen = () => resolve();
    es.onmessage = (e) => {
      const at = performance.timeOrigin + performance.now();
      const data = JSON.parse(e.data);
      if (kind === "relay") w.received.push([data, at]);
      // The UI's one live stream per page: `{ kind: "data", topic, data: SessionEvent }`.
      else if (data.kind === "data" && data.data?.type === "delta") w.received.push([data.data.text, at]);
      else if (data.type === "turn" && data.turn.status !== "running") {
        w.finished = true;
        es.close();
      }
    };
  }), { url, kind });
  return async () => {
    await page.waitForFunction((n) => {
      const w = globalThis as unknown as PageGlobals;
      return w.finished || w.received.length >= n;
    }, deltas, { timeout: 120_000 });
    return new Map(await page.evaluate(() => (globalThis as unknown as PageGlobals).received));
  };
}

export async function relayToBrowser(browser: Browser, model: ScriptedModel, sentAt: Map<string, number>, deltas: number): Promise<number[]> {
  const relay = await startRelay(model);
  const page = await browser.newPage();
  try {
    await page.goto(`${relay.url}/`);
    const done = await collect(page, "/events", "relay", deltas);
    return latencies(sentAt, await done());
  } finally {
    await page.close();
    await relay.close();
  }
}

/** The built web app as `npm start` runs it, on WEB_PORT, proxying to the host at `hostUrl`; kill the process to stop it. */
export async function startWeb(hostUrl: string): Promise<ChildProcess> {
  const server = webServer(root, WEB_PORT);
  const web = spawn(process.execPath, server.args, {
    env: { ...process.env, ...server.env, SEAM_HOST_URL: hostUrl },
    stdio: "ignore",
  });
  for (let i = 0; i < 200; i++) {
    if (await fetch(`http://127.0.0.1:${WEB_PORT}/`).then((r) => r.ok, () => false)) return web;
    await new Promise((r) => setTimeout(r, 100));
  }
  web.kill();
  throw new Error("the web app did not start");
}

export async function seamToBrowser(browser: Browser, model: ScriptedModel, sentAt: Map<string, number>, deltas: number): Promise<number[]> {
  const seam = await startSeam(model, [WEB_PORT]);
  const web = await startWeb(seam.url);
  const context = await browser.newContext();
  await context.addCookies([{ name: "seam_token", value: seam.token, url: `http://127.0.0.1:${WEB_PORT}` }]);
  const page = await context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${WEB_PORT}/trpc/health`);
    const session = await seam.host.sessions.create({ workspace: seam.workspace, title: "bench" });
    const input = encodeURIComponent(JSON.stringify({ topics: [`session:${session.id}`] }));
    const done = await collect(page, `/trpc/live.stream?input=${input}`, "trpc", deltas);
    await seam.host.sessions.send({ sessionId: session.id, text: "bench" });
    return latencies(sentAt, await done());
  } finally {
    await context.close();
    web.kill();
    await seam.close();
  }
}
