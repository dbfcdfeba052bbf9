/**
 * The web process (#17 item 3): the ways to run the built Next.js UI, measured side by side in the same runs,
 * interleaved, against the bare Node HTTP server baseline of bench/startup (`node -e` + `http.createServer`):
 *
 * - **(a) next start** of apps/web (what `npm start` ran before);
 * - **(b) standalone**: `node .next/standalone/apps/web/server.js` (`output: "standalone"`; `.next/static` copied in
 *   by apps/web/scripts/standalone-assets.mjs, as Next documents);
 * - **(c)** (b) or (a) with V8 memory flags: a 1 MiB semi-space, `--optimize-for-size`, an old-space cap;
 * - **(d)** (b) with glibc's `MALLOC_ARENA_MAX=2` (fewer malloc arenas for the server's threads).
 *
 * Per run and option: spawn → `/` 200 (ready) and CPU seconds of the process tree until then; RSS/PSS of the
 * tree after `BENCH_IDLE_MS` (2 s) idle; the same after loading a chat page once (`/s/<id>` server-rendered plus
 * every script and stylesheet it names: Next loads route code lazily); then a burst (20 chat pages, 100 `/trpc`
 * GETs through the proxy, one 1,000-event SSE stream) with its wall time and CPU seconds — what smaller heaps
 * cost in GC — and the memory after it. The `/trpc` upstream is a stub in this process (the proxy's work is
 * the same whatever answers). Each Next option is also checked for the app's features: CSP header, the
 * `?token=` → cookie redirect (proxy.ts), `/trpc` proxied, SSE streamed unbuffered, the dynamic route.
 * Medians of `BENCH_RUNS` (default 5). Asserts nothing. Needs `npm run build` first.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../packages/testkit/src/index.js";
import { WEB_NODE_FLAGS, WEB_SERVER_PATH, webServerMissing } from "../scripts/web-server.mjs";
import { cpuSeconds, memory } from "./proc-tree.js";
import { percentile } from "./stats.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 2000);
const root = fileURLToPath(new URL("..", import.meta.url));
const nextBin = join(root, "node_modules/next/dist/bin/next");
const standalone = join(root, WEB_SERVER_PATH);
const quietEnv = { NEXT_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the options --------------------------------------------------------------------------------------------

interface Option { label: string; args: (port: number) => string[]; env?: Record<string, string>; chosen?: boolean }

const nextStart = (flags: string[]): Option["args"] => (port) => [...flags, nextBin, "start", join(root, "apps/web"), "-H", "127.0.0.1", "-p", String(port)];
const alone = (flags: string[]): Option["args"] => () => [...flags, standalone];
const options: Option[] = [
  { label: "(a) next start", args: nextStart([]) },
  { label: "(b) standalone server.js", args: alone([]) },
  { label: "(c) (b) --max-semi-space-size=1", args: alone(["--max-semi-space-size=1"]) },
  { label: "(c) (b) --optimize-for-size", args: alone(["--optimize-for-size"]) },
  { label: "(c) (b) semi-space 1, old space ≤ 96 MiB", args: alone(["--max-semi-space-size=1", "--max-old-space-size=96"]) },
  { label: "(c) (a) --max-semi-space-size=1", args: nextStart(["--max-semi-space-size=1"]) },
  { label: "(d) (b) MALLOC_ARENA_MAX=2", args: alone([]), env: { MALLOC_ARENA_MAX: "2" } },
];
// What npm start runs (scripts/web-server.mjs): the standalone server with WEB_NODE_FLAGS.
for (const o of options) o.chosen = !o.env && o.args(0).join(" ") === [...WEB_NODE_FLAGS, standalone].join(" ");

// ---- the stub host behind /trpc -----------------------------------------------------------------------------

let release: () => void = () => {};
function startStub(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/trpc/stream") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const n = Number(url.searchParams.get("n") ?? 0);
      if (url.searchParams.has("hold")) {
        // One event, then nothing until the client says it arrived: a buffering proxy would never deliver it.
        res.write("data: first\n\n");
        new Promise<void>((r) => (release = r)).then(() => res.end("data: last\n\n"), () => {});
        return;
      }
      const payload = "x".repeat(512);
      for (let i = 0; i < n; i++) res.write(`id: ${i}\ndata: ${payload}\n\n`);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ result: { data: { ok: true, stub: true } } }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` })));
}

// ---- one process: start, idle, a page, a burst --------------------------------------------------------------

const get = (url: string, init?: RequestInit) => fetch(url, init).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.text() }), () => null);

async function until(ready: () => Promise<boolean>, child: ChildProcess, what: string) {
  for (let i = 0; i < 6000; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) before it was ready`);
    if (await ready()) return;
    await sleep(5);
  }
  throw new Error(`${what} was not ready after 30 s`);
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  await new Promise<void>((r) => {
    child.once("exit", () => r());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5000).unref();
  });
}

/** A chat page as a browser first loads it: the server-rendered HTML, then every script and stylesheet it names. */
async function loadChatPage(base: string, id: string): Promise<boolean> {
  const page = await get(`${base}/s/${id}`);
  if (page?.status !== 200) return false;
  const assets = new Set([...page.body.matchAll(/(?:src|href)="(\/_next\/static\/[^"]+)"/g)].map((m) => m[1]!));
  const loaded = await Promise.all([...assets].map((a) => get(`${base}${a}`)));
  return loaded.every((r) => r?.status === 200);
}

async function readAll(url: string): Promise<number> {
  const res = await fetch(url);
  let bytes = 0;
  for await (const chunk of res.body!) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
}

async function burst(base: string, run: number) {
  for (let i = 0; i < 20; i++) await get(`${base}/s/burst-${run}-${i}`);
  for (let i = 0; i < 100; i++) await get(`${base}/trpc/health?i=${i}`);
  await readAll(`${base}/trpc/stream?n=1000`);
}

/** The app's features, through this way of serving it. */
async function features(base: string): Promise<string[]> {
  const missing: string[] = [];
  const home = await get(`${base}/`);
  if (!home?.headers.get("content-security-policy")?.includes("frame-src 'none'")) missing.push("CSP header");
  const token = await get(`${base}/?token=bench-token-0123456789`, { redirect: "manual" });
  if (token?.status !== 303 || !token.headers.get("set-cookie")?.includes("seam_token=bench-token-0123456789")) missing.push("?token= → cookie");
  const trpc = await get(`${base}/trpc/health`);
  if (!trpc?.body.includes('"stub":true')) missing.push("/trpc proxy");
  const chat = await get(`${base}/s/feature-check`);
  if (chat?.status !== 200) missing.push("dynamic route /s/[id]");
  // SSE: the first event must arrive while the upstream still holds the stream open.
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), 10_000);
  try {
    const res = await fetch(`${base}/trpc/stream?hold=1`, { signal: ac.signal });
    const reader = res.body!.getReader();
    const first = await reader.read();
    if (!new TextDecoder().decode(first.value).includes("first")) missing.push("SSE streaming");
    release();
    while (!(await reader.read()).done);
  } catch {
    missing.push("SSE streaming (buffered)");
    release();
  } finally {
    clearTimeout(timer);
  }
  return missing;
}

type Mem = { rss: number[]; pss: number[] };
interface Row { ready: number[]; cpu: number[]; fresh: Mem; page: Mem; burstMs: number[]; burstCpu: number[]; after: Mem; missing: Set<string>; failed: string[] }
const mem = (): Mem => ({ rss: [], pss: [] });
const newRow = (): Row => ({ ready: [], cpu: [], fresh: mem(), page: mem(), burstMs: [], burstCpu: [], after: mem(), missing: new Set(), failed: [] });
const push = (m: Mem, pid: number) => { const x = memory([pid]); m.rss.push(x.rss); m.pss.push(x.pss); };

async function measure(row: Row, args: string[], env: Record<string, string>, port: number, run: number, isNext: boolean) {
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...quietEnv, ...env }, stdio: "ignore" });
  try {
    await until(() => get(`${base}/`).then((r) => r?.status === 200), child, args.at(-1)!);
    row.ready.push(performance.now() - t0);
    row.cpu.push(cpuSeconds([child.pid!]));
    await sleep(IDLE_MS);
    push(row.fresh, child.pid!);
    if (isNext && !(await loadChatPage(base, `bench-${run}`))) row.failed.push("chat page");
    await sleep(IDLE_MS);
    push(row.page, child.pid!);
    const [b0, c0] = [performance.now(), cpuSeconds([child.pid!])];
    await burst(base, run);
    row.burstMs.push(performance.now() - b0);
    row.burstCpu.push(cpuSeconds([child.pid!]) - c0);
    await sleep(IDLE_MS);
    push(row.after, child.pid!);
    if (isNext) for (const m of await features(base)) row.missing.add(m);
  } catch (err) {
    row.failed.push((err as Error).message);
  } finally {
    await stop(child);
  }
}

// ---- the runs -------------------------------------------------------------------------------------------------

const missing = webServerMissing(root);
if (missing) {
  console.log(`web-server: skipped — ${missing}`);
  process.exit(0);
}
const stub = await startStub();
const bare = newRow();
const rows = options.map(newRow);

for (let run = 0; run < RUNS; run++) {
  const port = await freePort();
  await measure(bare, ["-e", `require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1")`], {}, port, run, false);
  // Rotate the order, so drift on a shared machine hits every option alike.
  for (let k = 0; k < options.length; k++) {
    const i = (k + run) % options.length;
    const o = options[i]!;
    const p = await freePort();
    await measure(rows[i]!, o.args(p), { SEAM_HOST_URL: stub.url, PORT: String(p), HOSTNAME: "127.0.0.1", ...o.env }, p, run, true);
  }
}
stub.server.close();

const med = (xs: number[]) => percentile(xs, 50);
const cell = (n: number, base: number, unit: string, digits = 0) => `${n.toFixed(digits)} ${unit} (${(n / base).toFixed(1)}×)`;
const memCell = (m: Mem) => `${med(m.rss).toFixed(0)} / ${med(m.pss).toFixed(0)} MiB (${(med(m.rss) / med(bare.fresh.rss)).toFixed(1)}× / ${(med(m.pss) / med(bare.fresh.pss)).toFixed(1)}×)`;
const cols = ["ready", "CPU s to ready", "idle RSS / PSS, fresh", "after a chat page", "burst", "burst CPU s", "after the burst"];
console.log(`web-server: the web process, medians of ${RUNS} runs; idle = after ${IDLE_MS} ms; (n×) = × the bare server; ← = what npm start runs`);
console.log(`| option | ${cols.join(" | ")} |`);
console.log(`|---|${cols.map(() => "---").join("|")}|`);
const line = (label: string, r: Row) => {
  if (r.ready.length === 0) return console.log(`| ${label} | failed: ${r.failed.join("; ")} |`);
  console.log(`| ${label} | ${cell(med(r.ready), med(bare.ready), "ms")} | ${cell(med(r.cpu), med(bare.cpu), "s", 2)} | ${memCell(r.fresh)} | ${memCell(r.page)} | ${cell(med(r.burstMs), med(bare.burstMs), "ms")} | ${cell(med(r.burstCpu), med(bare.burstCpu), "s", 2)} | ${memCell(r.after)} |`);
};
line("bare node http (baseline)", bare);
options.forEach((o, i) => line(`${o.label}${o.chosen ? " ←" : ""}`, rows[i]!));
for (const [i, o] of options.entries()) {
  const r = rows[i]!;
  const notes = [...(r.missing.size ? [`missing: ${[...r.missing].join(", ")}`] : []), ...(r.failed.length ? [`failed: ${r.failed.join("; ")}`] : [])];
  console.log(`  ${o.label}: ${notes.length ? notes.join("; ") : "features ✓ (CSP, ?token= → cookie, /trpc proxy, SSE streamed, /s/[id])"}`);
}
