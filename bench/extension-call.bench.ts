/**
 * Cost of a tool an extension's host half registered (SPEC EXT-3, §9): a counter tool called through the
 * tool runtime three ways in the same run, rounds alternating so drift hits all of them:
 *
 * - **in-process (baseline)**: the same counter as a plain ToolDef in the host.
 * - **worker echo**: the floor of crossing a thread — a bare worker_threads worker that answers each
 *   postMessage, wrapped in a ToolDef (no vm, no JSON checks).
 * - **extension**: the tool registered by a real host half (worker + node:vm + string-only bridge + JSON
 *   copies + per-call timeout).
 *
 * Prints per-call p50/p99 and ratios; asserts nothing. BENCH_CALLS changes the sample size.
 */
import { Worker } from "node:worker_threads";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { createToolRuntime } from "../apps/host/src/agent/runtime.js";
import type { ToolDef } from "../apps/host/src/agent/tool.js";
import { createScope } from "../apps/host/src/core/scope.js";
import { startHostHalf } from "../apps/host/src/extensions/runner.js";
import { ms, percentile } from "./stats.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 3_000);
const ROUND = 200;
const WARMUP = 300;
const SESSION = "bench";

const scope = createScope("bench");
const registry = createToolRegistry();
const runtime = createToolRuntime({ registry });

const plainTool = (name: string, run: () => Promise<unknown>): ToolDef => ({
  name, description: name, capability: "bench", inputSchema: { type: "object" }, effect: "extension",
  parse: (args) => ({ ok: true, value: args }),
  run: async () => {
    const value = await run();
    return { canonical: value, rendered: JSON.stringify(value) };
  },
});

let n = 0;
scope.add(registry.register(plainTool("inproc_increment", async () => ({ n: ++n }))), "inproc");

const echo = new Worker(`const { parentPort } = require("node:worker_threads"); let n = 0; parentPort.on("message", (id) => parentPort.postMessage({ id, n: ++n }));`, { eval: true });
const waiting = new Map<number, (v: unknown) => void>();
echo.on("message", (m: { id: number; n: number }) => waiting.get(m.id)?.({ n: m.n }));
let nextId = 0;
scope.add(() => echo.terminate().then(() => undefined), "echo");
scope.add(registry.register(plainTool("echo_increment", () => new Promise((resolve) => {
  const id = nextId++;
  waiting.set(id, (v) => { waiting.delete(id); resolve(v); });
  echo.postMessage(id);
}))), "echo-tool");

await startHostHalf(scope, {
  sessionId: SESSION, packageName: "bench", version: "1", registry,
  code: `let n = 0; api.tools.register({ name: "ext_increment" }, () => ({ n: ++n }));`,
});

const pipelines = ["inproc_increment", "echo_increment", "ext_increment"];
const labels = ["in-process (baseline)", "worker echo", "extension"];
const samples: number[][] = pipelines.map(() => []);
const call = async (name: string) => {
  const outcome = await runtime.invoke({ sessionId: SESSION, workspace: "/", callId: "c", name, args: {}, signal: new AbortController().signal });
  if (outcome.status !== "ok") throw new Error(`${name}: ${outcome.error?.message}`);
};

for (let i = 0; i < WARMUP; i++) for (const name of pipelines) await call(name);
for (let done = 0, round = 0; done < CALLS; done += ROUND, round++) {
  for (let j = 0; j < pipelines.length; j++) {
    const k = (j + round) % pipelines.length;
    for (let i = 0; i < Math.min(ROUND, CALLS - done); i++) {
      const start = performance.now();
      await call(pipelines[k]!);
      samples[k]!.push(performance.now() - start);
    }
  }
}

const p50 = samples.map((s) => percentile(s, 50));
const p99 = samples.map((s) => percentile(s, 99));
console.log(`\nextension tool call (${CALLS} calls each, rounds of ${ROUND}, ${WARMUP} warm-up)`);
labels.forEach((label, k) => console.log(`  ${label.padEnd(24)} p50 ${ms(p50[k]!)}  p99 ${ms(p99[k]!)}`));
for (let k = 1; k < labels.length; k++) {
  console.log(`  ratio ${labels[k]} / baseline`.padEnd(40) + `p50 ${(p50[k]! / p50[0]!).toFixed(2)}×  p99 ${(p99[k]! / p99[0]!).toFixed(2)}×`);
}
console.log(`  ratio extension / worker echo`.padEnd(40) + `p50 ${(p50[2]! / p50[1]!).toFixed(2)}×  p99 ${(p99[2]! / p99[1]!).toFixed(2)}×`);
await scope.dispose();
