/**
 * Session operations on a long history (SPEC §12, CTX-5): a real host on SQLite holds a session of
 * BENCH_TURNS direct `/call` turns (each: user message, tool call with its result; plus a fact every 10
 * turns). Measured in the same run:
 *   detail (baseline): reading the whole history (one `sessions.items` page of up to 500 items, from the first);
 *   fork:              fork at the last item (read + one transaction writing every row again);
 *   exportJson / exportMarkdown: read + serialise;
 *   importJson:        parse, validate with zod, write in one transaction.
 * Prints the median per operation and its ratio to detail. Asserts nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScope } from "../apps/host/src/core/scope.js";
import { createHost } from "../apps/host/src/host.js";
import type { SessionService } from "../apps/host/src/agent/session.js";
import { ms, percentile } from "./stats.js";

const TURNS = Number(process.env.BENCH_TURNS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

const home = mkdtempSync(join(tmpdir(), "seam-bench-ops-"));
const workspace = mkdtempSync(join(tmpdir(), "seam-bench-ops-ws-"));
writeFileSync(join(workspace, "a.txt"), "line\n".repeat(40));
const scope = createScope("bench");
const host = await createHost(scope, { home, env: { SEAM_MODEL_PROVIDER: "none" }, version: "bench" });
const sessions = host.sessions as SessionService;

const s = await sessions.create({ workspace, title: "bench" });
for (let i = 0; i < TURNS; i++) {
  const { turnId } = await sessions.callTool({ sessionId: s.id, name: "read_file", args: { path: "a.txt" } });
  for (;;) {
    const t = (await sessions.detail(s.id)).turns.find((x) => x.id === turnId);
    if (t && t.status !== "running") break;
    await new Promise((r) => setTimeout(r, 2));
  }
  if (i % 10 === 0) await sessions.appendFact(s.id, { factKind: "note", text: `note ${i}`, payload: { i } });
}
// The whole history in one page (at most 500 items; `detail` itself returns only the latest page since CTX-4).
const whole = () => sessions.items({ sessionId: s.id, afterSeq: 0, limit: 500 });
const detail = await whole();
const last = detail.items.at(-1)!;
const exported = (await sessions.exportJson(s.id)).text;

const ops: Record<string, () => Promise<unknown>> = {
  detail: whole,
  fork: () => sessions.fork({ sessionId: s.id, itemId: last.id }),
  exportJson: () => sessions.exportJson(s.id),
  exportMarkdown: () => sessions.exportMarkdown(s.id),
  importJson: () => sessions.importJson({ text: exported }),
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(ops).map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, op] of Object.entries(ops)) {
    const t0 = performance.now();
    await op();
    times[name]!.push(performance.now() - t0);
  }
}
console.log(`session-ops: ${TURNS} turns, ${detail.items.length} items, export ${(exported.length / 1024).toFixed(0)} KiB, ${ROUNDS} rounds`);
const base = percentile(times.detail!, 50);
for (const [name, sample] of Object.entries(times)) {
  const p50 = percentile(sample, 50);
  console.log(`  ${name.padEnd(15)} p50 ${ms(p50).padStart(12)}  ×${(p50 / base).toFixed(2)} of detail`);
}
await scope.dispose();
rmSync(home, { recursive: true, force: true });
rmSync(workspace, { recursive: true, force: true });
