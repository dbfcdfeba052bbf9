/**
 * The floor under the host's idle memory (#17 item 3): what a process holds before any of Seam's capabilities.
 * Each row is a fresh process, measured after `BENCH_IDLE_MS` (2 s) of idle, RSS and PSS from
 * `/proc/<pid>/smaps_rollup`, medians of `BENCH_RUNS` (default 5):
 *
 * - **bare node http**: `http.createServer` and nothing else (startup.bench's baseline);
 * - **+ Prisma client**: the host's generated Prisma client alone (its query compiler, the better-sqlite3 adapter) on
 *   a copy of the build's seed database, used for the rows of one turn (a session, a turn, two messages, reads);
 * - **+ the host's database code**: `openDatabase` from the built host (the client above with the store, its row
 *   mapping and `@seam/shared`'s schemas) on a new SQLite file, used for the queries of one turn (a session, a turn
 *   with its message, an answer, the timeline, the sessions list, the warm-up's writes);
 * - **host**: the built host itself, as startup.bench starts it.
 *
 * The issue's goal for the host alone is 77 MiB (0.5 × the upstream harness's 154 MiB). Asserts nothing.
 * Needs `npm run build` first.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { freePort } from "../packages/testkit/src/index.js";
import { hostServer } from "../scripts/host-server.mjs";
import { memory } from "./proc-tree.js";
import { percentile } from "./stats.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 2000);
const GOAL_MIB = 77;
const root = fileURLToPath(new URL("..", import.meta.url));
const hostDist = (path: string) => pathToFileURL(join(root, "apps/host/dist", path)).href;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Spawns `args`, waits until `ready` resolves, idles, measures, stops. */
async function measure(args: string[], ready: (child: ChildProcess) => Promise<void>, env: NodeJS.ProcessEnv = {}, cwd?: string) {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  try {
    await ready(child);
    await sleep(IDLE_MS);
    return memory([child.pid!]);
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  }
}

/** Resolves at the child's first line on stdout ("ready"); rejects if it exits first or stays silent for 30 s. */
const saysReady = (child: ChildProcess) => new Promise<void>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error("no ready line after 30 s")), 30_000);
  child.stdout!.once("data", () => { clearTimeout(timer); resolve(); });
  child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`exited (${code}) before it was ready`)); });
});

const answers = (url: string, headers?: Record<string, string>) => async (child: ChildProcess) => {
  for (let i = 0; i < 6000; i++) {
    if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before it was ready`);
    if (await fetch(url, { headers }).then((r) => r.arrayBuffer().then(() => r.ok), () => false)) return;
    await sleep(5);
  }
  throw new Error("not ready after 30 s");
};

const bare = async () => {
  const port = await freePort();
  return measure(["-e", `require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1")`], answers(`http://127.0.0.1:${port}/`));
};

const client = async () => {
  const home = mkdtempSync(join(tmpdir(), "seam-bench-floor-"));
  const file = join(home, "seam.db");
  copyFileSync(join(root, "apps/host/dist/seed/sqlite.db"), file);
  const script = `
    const { PrismaClient } = await import(${JSON.stringify(hostDist("generated/prisma/client.js"))});
    const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
    const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: ${JSON.stringify(`file:${file}`)} }) });
    const s = await prisma.session.create({ data: { title: "t", workspace: "/w" } });
    const turn = await prisma.turn.create({ data: { sessionId: s.id, mode: "model", status: "running", startedAt: new Date() } });
    await prisma.message.create({ data: { sessionId: s.id, turnId: turn.id, seq: 1, role: "user", text: "hi", state: "complete" } });
    await prisma.message.create({ data: { sessionId: s.id, turnId: turn.id, seq: 2, role: "assistant", text: "hello", state: "complete" } });
    await prisma.message.findMany({ where: { sessionId: s.id }, orderBy: { seq: "asc" } });
    await prisma.session.findMany({ orderBy: { updatedAt: "desc" } });
    console.log("ready");
    setInterval(() => {}, 1 << 30);`;
  try {
    return await measure(["--input-type=module", "-e", script], saysReady, {}, join(root, "apps/host"));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
};

const prisma = async () => {
  const home = mkdtempSync(join(tmpdir(), "seam-bench-floor-"));
  const script = `
    const { openDatabase } = await import(${JSON.stringify(hostDist("persistence/db.js"))});
    const { createScope } = await import(${JSON.stringify(hostDist("core/scope.js"))});
    const db = await openDatabase(createScope("floor"), { home: ${JSON.stringify(home)}, url: ${JSON.stringify(`file:${join(home, "seam.db")}`)} });
    const s = await db.store.sessions.create({ title: "t", workspace: "/w" });
    const { turn } = await db.store.turns.start(s.id, "model", "hi");
    await db.store.items.appendMessage(s.id, { turnId: turn.id, role: "assistant", text: "hello", state: "complete" });
    await db.store.turns.finish(turn.id, { status: "completed", steps: 1 });
    await db.store.items.list(s.id);
    await db.store.sessions.list();
    await db.store.warmWrites();
    console.log("ready");
    setInterval(() => {}, 1 << 30);`;
  try {
    return await measure(["--input-type=module", "-e", script], saysReady);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
};

const host = async () => {
  const home = mkdtempSync(join(tmpdir(), "seam-bench-floor-"));
  const token = `bench-${"x".repeat(40)}`;
  writeFileSync(join(home, "host-token"), `${token}\n`, { mode: 0o600 });
  const [port, webPort] = [await freePort(), await freePort()];
  try {
    return await measure(
      hostServer(root, ["--home", home, "--port", String(port), "--web-port", String(webPort)]).args,
      answers(`http://127.0.0.1:${port}/trpc/health`, { authorization: `Bearer ${token}` }),
      { HOME: home, SEAM_HOME: home, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1", DO_NOT_TRACK: "1" },
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
};

type Mem = { rss: number; pss: number };
const rows = { bare: [] as Mem[], client: [] as Mem[], prisma: [] as Mem[], host: [] as Mem[] };
for (let run = 0; run < RUNS; run++) {
  rows.bare.push(await bare());
  rows.client.push(await client());
  rows.prisma.push(await prisma());
  rows.host.push(await host());
}

const med = (xs: number[]) => percentile(xs, 50);
console.log(`memory floor: idle RSS / PSS after ${IDLE_MS} ms, medians of ${RUNS} runs (goal for the host alone: RSS ≤ ${GOAL_MIB} MiB)`);
const labelled = [
  ["bare node http", rows.bare], ["+ Prisma client (one turn's rows)", rows.client],
  ["+ the host's database code (one turn)", rows.prisma], ["host (idle after start)", rows.host],
] as const;
for (const [label, r] of labelled) {
  const rss = med(r.map((m) => m.rss));
  const pss = med(r.map((m) => m.pss));
  console.log(`  ${label.padEnd(44)}${`${rss.toFixed(0)} MiB`.padStart(9)}${`${pss.toFixed(0)} MiB`.padStart(9)}${rss > GOAL_MIB ? `   ${(rss - GOAL_MIB).toFixed(0)} MiB over the goal` : ""}`);
}
