/**
 * Start-up, idle memory and the first turn of a fresh host (#17 items 1–3). Every run spawns fresh processes on a
 * fresh data directory, the way `npm start` does (built `apps/host/dist/bundle/main.js`, the web app's standalone server):
 *
 * - **bare (baseline)**: a bare Node HTTP server (`node -e` + `http.createServer`), ready at its first HTTP 200.
 * - **host**: spawn → first tRPC answer (`health` with the host token).
 * - **host (restart)**: the host again on the data directory the previous start created (database up to date).
 * - **host + web**: both spawned at once; ready when the host answers `health` and the web app answers `/` with 200.
 *
 * For each: wall time spawn → ready, CPU seconds of the process tree until ready (`/proc/<pid>/stat` utime+stime,
 * children included), and after 2 s of idle the RSS and PSS of the process tree (`/proc/<pid>/smaps_rollup`).
 * Then, on the host alone, send → first token of turn 1 and turn 2 of a session against a loopback scripted model
 * (`@seam/testkit`), next to a bare streaming `fetch` of the same model (baseline). Medians over BENCH_RUNS runs
 * (default 9), ratios to the baseline. Asserts nothing. Needs `npm run build` first (host dist and web `.next`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionTopic } from "@seam/shared";
import { freePort, startScriptedModel } from "../packages/testkit/src/index.js";
import { hostClient } from "./node-client.js";
import { cpuSeconds, memory } from "./proc-tree.js";
import { HOST_MAIN_PATH, hostServer } from "../scripts/host-server.mjs";
import { webServer, webServerMissing } from "../scripts/web-server.mjs";
import { percentile } from "./stats.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 2000);
const root = fileURLToPath(new URL("..", import.meta.url));
// BENCH_HOST_MAIN runs another build of the host; BENCH_COMPARE_MAIN measures a second build (e.g. the base
// commit's, for a "before" column) in the same runs, interleaved, so both see the same machine load.
const hostMain = process.env.BENCH_HOST_MAIN ?? join(root, HOST_MAIN_PATH);
const compareMain = process.env.BENCH_COMPARE_MAIN;
// The compared build's node flags (space-separated; "" for none) when they differ from this checkout's (HOST_NODE_FLAGS).
const compareFlags = process.env.BENCH_COMPARE_NODE_FLAGS?.split(" ").filter(Boolean);
const webBuilt = webServerMissing(root) === null;
const quietEnv = { NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1", DO_NOT_TRACK: "1" };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- starting things -------------------------------------------------------------------------------------

async function until(ready: () => Promise<boolean>, children: ChildProcess[], what: string): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    for (const c of children) if (c.exitCode !== null) throw new Error(`${what} exited (${c.exitCode}) before it was ready`);
    if (await ready()) return;
    await sleep(5);
  }
  throw new Error(`${what} was not ready after 30 s`);
}

const ok = (url: string, headers?: Record<string, string>) => fetch(url, { headers }).then(async (r) => { await r.arrayBuffer(); return r.ok; }, () => false);

async function stop(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((c) => c.exitCode !== null ? undefined : new Promise<void>((r) => {
    c.once("exit", () => r());
    c.kill("SIGTERM");
    setTimeout(() => c.kill("SIGKILL"), 5000).unref();
  })));
}

interface Started { children: ChildProcess[]; readyMs: number; cpu: number; home?: string; hostUrl?: string; token?: string }

async function startBare(): Promise<Started> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, ["-e", `require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1")`], { stdio: "ignore", env: { ...process.env, ...quietEnv } });
  await until(() => ok(`http://127.0.0.1:${port}/`), [child], "bare server");
  return { children: [child], readyMs: performance.now() - t0, cpu: cpuSeconds([child.pid!]) };
}

async function startSeam(withWeb: boolean, modelURL: string, again?: string, main = hostMain): Promise<Started> {
  const hostArgs = (extra: string[]) => main !== hostMain && compareFlags ? [...compareFlags, main, ...extra] : hostServer(root, extra, main).args;
  const home = again ?? mkdtempSync(join(tmpdir(), "seam-bench-startup-"));
  const token = `bench-${"x".repeat(40)}`;
  if (!again) writeFileSync(join(home, "host-token"), `${token}\n`, { mode: 0o600 });
  const [port, webPort] = [await freePort(), await freePort()];
  const hostUrl = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env, ...quietEnv, HOME: home, SEAM_HOME: home, SEAM_HOST_URL: hostUrl,
    SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL_BASE_URL: modelURL, SEAM_MODEL: "bench",
  };
  const t0 = performance.now();
  const children = [spawn(process.execPath, hostArgs(["--home", home, "--port", String(port), "--web-port", String(webPort)]), { env, stdio: "ignore" })];
  if (withWeb) {
    const web = webServer(root, webPort);
    children.push(spawn(process.execPath, web.args, { env: { ...env, ...web.env }, stdio: "ignore" }));
  }
  const auth = { authorization: `Bearer ${token}` };
  await Promise.all([
    until(() => ok(`${hostUrl}/trpc/health`, auth), children, "host"),
    withWeb ? until(() => ok(`http://127.0.0.1:${webPort}/`), children, "web") : undefined,
  ]);
  return { children, readyMs: performance.now() - t0, cpu: cpuSeconds(children.map((c) => c.pid!)), home, hostUrl, token };
}

// ---- first token ------------------------------------------------------------------------------------------

const client = hostClient;

/** send → first delta of two consecutive turns of one new session, as the page sees them (one live stream). */
async function firstTokens(s: Started, workspace: string): Promise<[number, number]> {
  const c = client(s.hostUrl!, s.token!);
  const session = await c.session.create.mutate({ workspace, title: "bench" });
  const topic: SessionTopic = `session:${session.id}`;
  const out: number[] = [];
  await new Promise<void>((resolve, reject) => {
    let sentAt = 0;
    let gotFirst = false;
    const send = () => {
      gotFirst = false;
      sentAt = performance.now();
      void c.session.send.mutate({ sessionId: session.id, text: "bench" }).catch(reject);
    };
    const sub = c.live.stream.subscribe({ topics: [topic] }, {
      onData: (event) => {
        if (event.kind === "started") send();
        if (event.kind !== "data" || event.topic !== topic) return;
        const data = event.data;
        if (data.type === "delta" && !gotFirst) { gotFirst = true; out.push(performance.now() - sentAt); }
        if (data.type === "turn" && data.turn.status !== "running") {
          if (out.length >= 2) { sub.unsubscribe(); resolve(); } else send();
        }
      },
      onError: reject,
    });
  });
  return [out[0]!, out[1]!];
}

/** The baseline for a first token: a bare streaming fetch of the same model, time to its first body chunk. */
async function bareFirstToken(modelURL: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${modelURL}/chat/completions`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "bench" }] }),
  });
  const reader = res.body!.getReader();
  await reader.read();
  const elapsed = performance.now() - t0;
  await reader.cancel();
  return elapsed;
}

// ---- the runs -----------------------------------------------------------------------------------------------

const model = await startScriptedModel({ scripts: [{ name: "bench", turns: [{ match: "bench", steps: [{ text: ["one ", "two ", "three"] }] }] }] });
const workspace = mkdtempSync(join(tmpdir(), "seam-bench-startup-ws-"));
writeFileSync(join(workspace, "a.txt"), "a\n");

type Row = { ready: number[]; cpu: number[]; rss: number[]; pss: number[] };
const row = (): Row => ({ ready: [], cpu: [], rss: [], pss: [] });
const rows = { bare: row(), host: row(), restart: row(), web: row(), cmpHost: row(), cmpRestart: row(), cmpWeb: row() };
const turns = { main: { t1: [] as number[], t2: [] as number[] }, cmp: { t1: [] as number[], t2: [] as number[] } };
const bareToken: number[] = [];

async function measure(kind: keyof typeof rows, start: () => Promise<Started>, after?: (s: Started) => Promise<void>, keepHome = false) {
  const s = await start();
  try {
    rows[kind].ready.push(s.readyMs);
    rows[kind].cpu.push(s.cpu);
    await sleep(IDLE_MS);
    const m = memory(s.children.map((c) => c.pid!));
    rows[kind].rss.push(m.rss);
    rows[kind].pss.push(m.pss);
    await after?.(s);
  } finally {
    await stop(s.children);
    if (s.home && !keepHome) rmSync(s.home, { recursive: true, force: true });
  }
}

async function seamRuns(main: string, k: "main" | "cmp") {
  const [host, restart, web] = k === "main" ? (["host", "restart", "web"] as const) : (["cmpHost", "cmpRestart", "cmpWeb"] as const);
  let home = "";
  await measure(host, () => startSeam(false, model.baseURL, undefined, main), async (s) => {
    home = s.home!;
    const [a, b] = await firstTokens(s, workspace);
    turns[k].t1.push(a);
    turns[k].t2.push(b);
  }, true);
  // The usual start: the same data directory again, its database already migrated.
  await measure(restart, () => startSeam(false, model.baseURL, home, main));
  if (webBuilt) await measure(web, () => startSeam(true, model.baseURL, undefined, main));
}

for (let run = 0; run < RUNS; run++) {
  await measure("bare", startBare);
  bareToken.push(await bareFirstToken(model.baseURL));
  // Alternate which build goes first, so drift on a shared machine hits both alike.
  const order: ["main" | "cmp", string][] = compareMain ? (run % 2 ? [["cmp", compareMain], ["main", hostMain]] : [["main", hostMain], ["cmp", compareMain]]) : [["main", hostMain]];
  for (const [k, main] of order) await seamRuns(main, k);
}

const med = (xs: number[]) => percentile(xs, 50);
const f = (n: number, unit: string, digits = 0) => `${n.toFixed(digits)} ${unit}`.padStart(12);
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`.padStart(8);
const b = rows.bare;
console.log(`startup: spawn → ready, idle memory after ${IDLE_MS} ms, first token; medians of ${RUNS} runs (fresh data dir each run)`);
console.log(`  ${"".padEnd(32)}${"ready".padStart(12)}${"".padStart(8)}${"CPU s".padStart(12)}${"".padStart(8)}${"idle RSS".padStart(12)}${"".padStart(8)}${"idle PSS".padStart(12)}${"".padStart(8)}`);
const line = (label: string, r: Row) => console.log(`  ${label.padEnd(26)}${f(med(r.ready), "ms")}${ratio(med(r.ready), med(b.ready))}${f(med(r.cpu), "s", 2)}${ratio(med(r.cpu), med(b.cpu))}${f(med(r.rss), "MiB")}${ratio(med(r.rss), med(b.rss))}${f(med(r.pss), "MiB")}${ratio(med(r.pss), med(b.pss))}`);
line("bare node http (baseline)", b);
const builds: ["main" | "cmp", string, Row, Row, Row][] = [["main", compareMain ? "this build: " : "", rows.host, rows.restart, rows.web]];
if (compareMain) builds.unshift(["cmp", "compared: ", rows.cmpHost, rows.cmpRestart, rows.cmpWeb]);
for (const [, label, host, restart, web] of builds) {
  line(`${label}host (fresh dir)`, host);
  line(`${label}host (restart)`, restart);
  if (webBuilt) line(`${label}host + web`, web);
}
if (!webBuilt) console.log("  host + web: skipped (the web app is not built: npm run build)");
console.log(`  send → first token (host alone, scripted model on loopback):`);
console.log(`    bare streaming fetch (baseline)  ${f(med(bareToken), "ms", 1)}`);
for (const [k, label] of builds) {
  const { t1, t2 } = turns[k];
  console.log(`    ${label}turn 1 of a fresh host`.padEnd(37) + `${f(med(t1), "ms", 1)}${ratio(med(t1), med(bareToken))}  (p99 ${percentile(t1, 99).toFixed(1)} ms)`);
  console.log(`    ${label}turn 2`.padEnd(37) + `${f(med(t2), "ms", 1)}${ratio(med(t2), med(bareToken))}  turn 1 / turn 2 = ${(med(t1) / med(t2)).toFixed(2)}×`);
}

await model.close();
rmSync(workspace, { recursive: true, force: true });
