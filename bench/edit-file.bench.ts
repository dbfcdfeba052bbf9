/**
 * edit_file on a 1 MB file (SPEC §10, CODE-1), two ways in the same run, rounds alternating —
 *   bare: Node reads the file, String-replaces one line and writes it atomically (temp file, fsync,
 *         rename) — the baseline;
 *   tool: the edit_file tool's own run (argument check, containment, size/binary checks, read-ledger
 *         check, exact match, line-ending handling, unified diff, atomic write with mode kept, ledger
 *         record, rendering), with the ledger primed by a read.
 * Prints the median time of each and the ratio (target ≤ 1.5×). Asserts nothing.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { open, readFile, rename } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createLedger } from "../apps/host/src/workspace/ledger.js";
import { editFileTool } from "../apps/host/src/workspace/edit-file.js";
import { ms, percentile } from "./stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const TARGET_BYTES = Number(process.env.BENCH_FILE_BYTES ?? 1_000_000);

const ws = mkdtempSync(join(tmpdir(), "seam-bench-edit-"));
const lines: string[] = [];
for (let i = 0, size = 0; size < TARGET_BYTES; i++) {
  const line = i === 12_000 ? "export const MARKER = 0;" : `export function f${i}(x: number): number { return x * ${i} + ${i % 17}; }`;
  lines.push(line);
  size += line.length + 1;
}
const toolFile = join(ws, "tool.ts");
const bareFile = join(ws, "bare.ts");
const text = `${lines.join("\n")}\n`;
writeFileSync(toolFile, text);
writeFileSync(bareFile, text);

const ledger = createLedger();
const tool = editFileTool({ ledger, log: { info() {}, warn() {}, error() {} } });
ledger.record("bench", toolFile, await readFile(toolFile));
const ctx = { signal: new AbortController().signal, sessionId: "bench", workspace: ws, callId: "c" };

let round = 0;
async function viaTool(): Promise<void> {
  const args = { path: "tool.ts", edits: [{ old_string: `export const MARKER = ${round};`, new_string: `export const MARKER = ${round + 1};` }] };
  const parsed = tool.parse(args);
  if (!parsed.ok) throw new Error(parsed.message);
  await tool.run(parsed.value, ctx);
}

async function bare(): Promise<void> {
  const before = (await readFile(bareFile)).toString("utf8");
  const after = before.replace(`export const MARKER = ${round};`, `export const MARKER = ${round + 1};`);
  const temp = join(dirname(bareFile), `.bare.ts.tmp-${randomBytes(6).toString("hex")}`);
  const file = await open(temp, "wx", 0o644);
  await file.writeFile(after);
  await file.sync();
  await file.close();
  await rename(temp, bareFile);
}

const times = { bare: [] as number[], tool: [] as number[] };
for (; round <= ROUNDS; round++) {
  // Alternate which goes first so neither always meets a warmer cache.
  const order = round % 2 === 0 ? (["bare", "tool"] as const) : (["tool", "bare"] as const);
  for (const name of order) {
    const started = performance.now();
    await (name === "bare" ? bare() : viaTool());
    if (round > 0) times[name].push(performance.now() - started); // round 0 warms the JIT
  }
}

const check = await readFile(toolFile, "utf8");
if (!check.includes(`export const MARKER = ${ROUNDS + 1};`)) throw new Error("the tool's edits did not land");
const bareP50 = percentile(times.bare, 50);
const toolP50 = percentile(times.tool, 50);
console.log(`edit_file on a ${(Buffer.byteLength(text) / 1e6).toFixed(2)} MB file (${lines.length.toLocaleString("en-US")} lines, ${ROUNDS} rounds)`);
console.log(`  bare read + replace + atomic write  p50 ${ms(bareP50)}  p90 ${ms(percentile(times.bare, 90))}`);
console.log(`  edit_file tool run                  p50 ${ms(toolP50)}  p90 ${ms(percentile(times.tool, 90))}  ×${(toolP50 / bareP50).toFixed(2)} (target ≤ 1.5×)`);
rmSync(ws, { recursive: true, force: true });
