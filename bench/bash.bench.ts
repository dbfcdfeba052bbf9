/**
 * Overhead of the bash tool (SPEC §10, CODE-3/CODE-4): `true` through the tool runtime (registry → bash:
 * plan, sh wrapper + setpriv, spawnChild's process group and records, live decoding, group teardown,
 * rendering) against a bare `child_process.spawn("true")` awaited to its exit, in the same run, rounds
 * alternating; then the same with the bubblewrap sandbox on (`workspace-write`, network on), where bwrap works.
 * Prints medians, the ratio and the absolute overhead in ms. Asserts nothing.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { createToolRuntime } from "../apps/host/src/agent/runtime.js";
import { createScope } from "../apps/host/src/core/scope.js";
import { create } from "../apps/host/src/shell/shell.js";
import { percentile } from "./stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);

const dir = realpathSync(mkdtempSync(join(tmpdir(), "seam-bash-bench-")));
const home = join(dir, "home");
const workspace = join(dir, "ws");
for (const d of [home, workspace]) mkdirSync(d);
const values = new Map<string, unknown>([["shell", { sandbox: "off", network: true }]]);
const scope = createScope("bench");
const registry = createToolRegistry();
const shell = await create(scope.child("shell"), { registry, home, settings: { get: async (k) => values.get(k), set: async (k, v) => void values.set(k, v) } });
const runtime = createToolRuntime({ registry });
const signal = new AbortController().signal;

const spawned = (command: string, args: string[]) => () => new Promise<void>((resolve, reject) => {
  const child = spawn(command, args, { stdio: "ignore" });
  child.once("error", reject);
  child.once("exit", () => resolve());
});
const bare = spawned("true", []);
/** What any bash tool pays: bash itself starting up. */
const bareBash = spawned("bash", ["-c", "true"]);
let call = 0;
const tool = async () => {
  const outcome = await runtime.invoke({ sessionId: "bench", workspace, callId: `c${++call}`, name: "bash", args: { command: "true" }, signal });
  if (outcome.status !== "ok") throw new Error(outcome.rendered);
};

async function measure(label: string): Promise<void> {
  const samples: Record<"bare" | "bash" | "tool", number[]> = { bare: [], bash: [], tool: [] };
  const runs = [["bare", bare], ["bash", bareBash], ["tool", tool]] as const;
  for (let i = 0; i < 5; i++) for (const [, run] of runs) await run(); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of runs) {
      const started = performance.now();
      await run();
      samples[name].push(performance.now() - started);
    }
  }
  const b = percentile(samples.bare, 50);
  const t = percentile(samples.tool, 50);
  console.log(`${label} (${ROUNDS} rounds)`);
  console.log(`  bare spawn("true")   p50 ${b.toFixed(2).padStart(7)} ms  p99 ${percentile(samples.bare, 99).toFixed(2).padStart(7)} ms`);
  const h = percentile(samples.bash, 50);
  console.log(`  bare bash -c true    p50 ${h.toFixed(2).padStart(7)} ms  p99 ${percentile(samples.bash, 99).toFixed(2).padStart(7)} ms  ×${(h / b).toFixed(2)}  +${(h - b).toFixed(2)} ms`);
  console.log(`  bash tool "true"     p50 ${t.toFixed(2).padStart(7)} ms  p99 ${percentile(samples.tool, 99).toFixed(2).padStart(7)} ms  ×${(t / b).toFixed(2)}  +${(t - b).toFixed(2)} ms`);
}

try {
  await measure("bash tool, no sandbox, vs bare spawn");
  const availability = await shell.api.probe();
  if (availability.available) {
    await shell.api.settings.set({ sandbox: "workspace-write", network: true });
    await measure(`bash tool in the workspace-write sandbox (${availability.version}), vs bare spawn`);
  } else {
    console.log(`sandboxed run skipped: ${availability.reason}`);
  }
} finally {
  await scope.dispose();
  rmSync(dir, { recursive: true, force: true });
}
