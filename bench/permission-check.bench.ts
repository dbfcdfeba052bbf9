/**
 * Cost of a permission check on a bash call (SPEC §9, PERM-2): `evaluate()` on a ~200-character compound
 * command (tree-sitter parse, split into simple commands, redirection checks, a 20-rule set), after a
 * warm-up, against two baselines measured in the same run, rounds alternating:
 *
 * - **bare parse**: web-tree-sitter parsing the same command and freeing the tree (no walk, no rules).
 * - **split**: `String.split` of the command on `&&`, `||`, `;` and `|` (what a naive checker would do).
 *
 * Prints per-call p50/p99 and the ratios; the target is p99 ≤ 1 ms. Asserts nothing.
 * BENCH_CHECKS changes the sample size.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { evaluate } from "../apps/host/src/permissions/evaluate.js";
import { loadShellParser } from "../apps/host/src/permissions/shell.js";
import type { PermissionRule } from "../apps/host/src/permissions/types.js";
import { ms, percentile } from "./stats.js";

const CHECKS = Number(process.env.BENCH_CHECKS ?? 20_000);
const ROUND = 500;
const WARMUP = 2_000;

const COMMAND =
  'git status --short && npm run build -- --mode=production 2>&1 | tee build.log; cat <<EOF > notes.txt\nbuilt $(date)\nEOF\nfor f in src/*.ts; do wc -l "$f"; done || echo "build failed" > /dev/null';
const workspace = mkdtempSync(join(tmpdir(), "seam-bench-perm-"));
const patterns = [
  "bash(git status:*)", "bash(git diff:*)", "bash(npm run:*)", "bash(npm test)", "bash(tee:*)", "bash(cat:*)", "bash(date)",
  "bash(wc:*)", "bash(echo:*)", "bash(ls:*)", "bash(grep:*)", "bash(cargo test:*)", "edit_file(src/**)", "web_fetch(domain:python.org)",
  "mcp__github__*",
];
const rules: PermissionRule[] = [
  ...patterns.map((pattern, i) => ({ id: `a${i}`, scope: "workspace" as const, owner: workspace, action: "allow" as const, pattern })),
  ...["bash(rm:*)", "bash(git push:*)", "bash(curl:*)", "bash(sudo:*)"].map((pattern, i) => ({ id: `d${i}`, scope: "global" as const, owner: null, action: "deny" as const, pattern })),
  { id: "k", scope: "session", owner: "s", action: "ask", pattern: "bash(npm publish:*)" },
];
const call = { tool: "bash", effect: "execute" as const, args: { command: COMMAND }, workspace };

const coldStart = performance.now();
const parser = await loadShellParser();
const first = evaluate(call, { mode: "ask", rules });
const cold = performance.now() - coldStart;

const pipelines: Record<string, () => unknown> = {
  "split (baseline)": () => COMMAND.split(/&&|\|\||;|\|/),
  "bare tree-sitter parse": () => parser.parse(COMMAND)!.delete(),
  "evaluate (parse + rules)": () => evaluate(call, { mode: "ask", rules }),
};
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(pipelines).map((k) => [k, []]));
for (const run of Object.values(pipelines)) for (let i = 0; i < WARMUP; i++) run();
for (let done = 0; done < CHECKS; done += ROUND) {
  for (const [name, run] of Object.entries(pipelines)) {
    for (let i = 0; i < ROUND; i++) {
      const t = performance.now();
      run();
      samples[name]!.push(performance.now() - t);
    }
  }
}
rmSync(workspace, { recursive: true, force: true });

console.log(`permission check, ${COMMAND.length}-char compound command, ${rules.length} rules, ${CHECKS} checks per line`);
console.log(`  verdict: ${first.verdict} — ${first.reason}`);
console.log(`  first check incl. loading the grammar: ${ms(cold)}`);
const base = samples["split (baseline)"]!;
const parse = samples["bare tree-sitter parse"]!;
for (const [name, s] of Object.entries(samples)) {
  console.log(`  ${name.padEnd(26)} p50 ${ms(percentile(s, 50))}  p99 ${ms(percentile(s, 99))}`);
}
const check = samples["evaluate (parse + rules)"]!;
console.log(`  evaluate / bare parse     p50 ${(percentile(check, 50) / percentile(parse, 50)).toFixed(1)}×  p99 ${(percentile(check, 99) / percentile(parse, 99)).toFixed(1)}×`);
console.log(`  evaluate / split          p50 ${(percentile(check, 50) / percentile(base, 50)).toFixed(0)}×`);
console.log(`  target p99 ≤ 1 ms: ${percentile(check, 99) <= 1 ? "met" : "NOT met"}`);
