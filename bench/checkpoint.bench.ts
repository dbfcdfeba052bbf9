/**
 * Checkpoint snapshots (SPEC CODE-5): a 20,000-file workspace (200 folders × 100 small files, generated
 * once in a temp dir). Warm snapshots two ways in the same run, rounds alternating —
 *   raw:  `git add -A && git write-tree` (two execFile calls) on its own git dir / index over the same work
 *         tree, with the same environment and the untracked cache on, like the shadow repository;
 *   seam: `snapshot()` (git lists untracked and stat-dirty files, Node checks their size, `update-index`
 *         hashes only those, `write-tree`, a ref kept).
 * Then the cost per turn: the before snapshot, 3 files edited, the after snapshot and `changes`.
 * Prints p50/p99 and ratios; asserts nothing.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { create } from "../apps/host/src/checkpoints/checkpoints.js";
import { gitEnv } from "../apps/host/src/checkpoints/git.js";
import { createScope } from "../apps/host/src/core/scope.js";
import { ms, percentile } from "./stats.js";

const FOLDERS = Number(process.env.BENCH_FOLDERS ?? 200);
const FILES = Number(process.env.BENCH_FILES ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const TURNS = Number(process.env.BENCH_TURNS ?? 20);
const run = promisify(execFile);

const base = mkdtempSync(join(tmpdir(), "seam-bench-ckpt-"));
const ws = join(base, "ws");
const home = join(base, "home");
const rawDir = join(base, "raw.git");
for (let d = 0; d < FOLDERS; d++) {
  mkdirSync(join(ws, `dir${d}`), { recursive: true });
  for (let f = 0; f < FILES; f++) writeFileSync(join(ws, `dir${d}`, `file${f}.ts`), `export const v${d}_${f} = ${d * FILES + f};\n// folder ${d}, file ${f}\n`);
}
writeFileSync(join(ws, ".gitignore"), "node_modules/\n*.log\n");

const env = gitEnv(process.env, base);
const raw = (...args: string[]) => run("git", [`--git-dir=${rawDir}`, `--work-tree=${ws}`, ...args], { env: { ...env, GIT_INDEX_FILE: join(rawDir, "index") }, cwd: ws, maxBuffer: 64 * 1024 * 1024 });
await run("git", [`--git-dir=${rawDir}`, "init", "--quiet", "--template="], { env });
await run("git", [`--git-dir=${rawDir}`, "config", "core.untrackedCache", "true"], { env });
const rawSnapshot = async () => {
  await raw("add", "-A");
  return (await raw("write-tree")).stdout.trim();
};

const scope = createScope("bench");
const cp = await create(scope, { home, pruneEvery: 1_000_000 });

let t = performance.now();
const rawCold = await rawSnapshot();
const rawColdMs = performance.now() - t;
t = performance.now();
const seamCold = await cp.snapshot(ws, "cold");
const seamColdMs = performance.now() - t;
if (rawCold !== seamCold.tree) console.log(`warning: trees differ (raw ${rawCold}, seam ${seamCold.tree})`);

const rawWarm: number[] = [];
const seamWarm: number[] = [];
for (let i = 0; i <= ROUNDS; i++) {
  // Round 0 warms both (JIT, page cache); each round touches one file so both have a little to do.
  writeFileSync(join(ws, "dir0", "file0.ts"), `export const round = ${i};\n`);
  const order = i % 2 === 0 ? ["raw", "seam"] : ["seam", "raw"];
  for (const which of order) {
    const s = performance.now();
    const tree = which === "raw" ? await rawSnapshot() : (await cp.snapshot(ws, `warm${i}`)).tree;
    const took = performance.now() - s;
    if (i > 0) (which === "raw" ? rawWarm : seamWarm).push(took);
    void tree;
  }
}

const before: number[] = [];
const after: number[] = [];
const changes: number[] = [];
const perTurn: number[] = [];
let changed = 0;
for (let turn = 0; turn < TURNS; turn++) {
  const s0 = performance.now();
  const start = await cp.snapshot(ws, `turn${turn}-start`);
  const s1 = performance.now();
  for (let k = 0; k < 3; k++) writeFileSync(join(ws, `dir${(turn * 3 + k) % FOLDERS}`, `file${turn % FILES}.ts`), `// edited in turn ${turn}\nexport const edited = ${turn * 3 + k};\n`);
  const s2 = performance.now();
  const end = await cp.snapshot(ws, `turn${turn}-end`);
  const s3 = performance.now();
  changed = (await cp.changes(ws, start.tree, end.tree)).length;
  const s4 = performance.now();
  before.push(s1 - s0);
  after.push(s3 - s2);
  changes.push(s4 - s3);
  perTurn.push(s1 - s0 + (s4 - s2));
}
await scope.dispose();
rmSync(base, { recursive: true, force: true });

const p50 = (x: number[]) => percentile(x, 50);
console.log(`checkpoint snapshots, ${FOLDERS * FILES} files (${FOLDERS} folders × ${FILES}), ${ROUNDS} warm rounds alternating, ${TURNS} turns`);
console.log(`  cold   raw ${ms(rawColdMs)}   seam ${ms(seamColdMs)}   (first snapshot: hashes every file)`);
console.log(`  warm   raw add -A + write-tree   p50 ${ms(p50(rawWarm))}  p99 ${ms(percentile(rawWarm, 99))}`);
console.log(`  warm   seam snapshot()           p50 ${ms(p50(seamWarm))}  p99 ${ms(percentile(seamWarm, 99))}`);
console.log(`  ratio  seam/raw                  p50 ${(p50(seamWarm) / p50(rawWarm)).toFixed(2)}×  (target ≤ 1.2×)`);
console.log(`  per turn (3 files edited, ${changed} changed): before ${ms(p50(before))} + after ${ms(p50(after))} + changes ${ms(p50(changes))} = p50 ${ms(p50(perTurn))}, p99 ${ms(percentile(perTurn, 99))}`);
