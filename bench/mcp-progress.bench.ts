/**
 * Progress reporting through the MCP client surface (MCP-12): `trigger-long-running-operation` of
 * @modelcontextprotocol/server-everything with 0 s duration and 50 steps, so each call carries 50
 * `notifications/progress`, in-process (InMemoryTransport, the same server code) so only CPU cost counts.
 *
 * - baseline: the bare SDK Client, `callTool` with `onprogress` counting reports;
 * - seam: the hub with the client surface (Seam's own progress token and routing), through the tool runtime with a
 *   `progress` callback (deadline restart on every report), as a chat's tool call runs.
 *
 * Rounds alternate between the pipelines. Prints per-call p50/p99 and the ratio; asserts nothing. BENCH_CALLS
 * changes the sample size.
 */
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/client";
import { createScope } from "../apps/host/src/core/scope.js";
import { createLog } from "../apps/host/src/core/log.js";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { createToolRuntime } from "../apps/host/src/agent/runtime.js";
import { createMcpHub } from "../apps/host/src/mcp/hub.js";
import { createClientHub } from "../apps/host/src/mcp/client-hub.js";
import { createApprovalBroker } from "../apps/host/src/permissions/broker.js";
import type { TransportFactory } from "../apps/host/src/mcp/transport.js";
import { ms, percentile } from "./stats.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 400);
const ROUND = 50;
const WARMUP = 50;
const STEPS = 50;
const require = createRequire(import.meta.url);
const { createServer } = (await import(require.resolve("@modelcontextprotocol/server-everything/dist/server/index.js"))) as {
  createServer: () => { server: { connect(t: InMemoryTransport): Promise<void> }; cleanup(): void };
};

async function inMemoryServer() {
  const { server, cleanup } = createServer();
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return { client, cleanup };
}

type Call = () => Promise<void>;
const check = (who: string, reports: number) => {
  if (reports !== STEPS) throw new Error(`${who}: ${reports} progress reports, expected ${STEPS}`);
};

const base = await inMemoryServer();
const bareClient = new Client({ name: "bench", version: "0" });
await bareClient.connect(base.client);
/** Baseline calls whose last report the SDK dropped (it arrived with the result). */
let bareLost = 0;
let bareCalls = 0;
const bare: Call = async () => {
  let reports = 0;
  await bareClient.callTool({ name: "trigger-long-running-operation", arguments: { duration: 0, steps: STEPS } }, { onprogress: () => void reports++ });
  bareCalls++;
  if (reports === STEPS - 1) bareLost++;
  else check("bare", reports);
};

const bridged = await inMemoryServer();
const memory: TransportFactory = () => ({
  kind: "stdio", transport: bridged.client, stderrTail: () => "", pid: () => undefined,
  terminate: async () => {
    await bridged.client.close();
    return true;
  },
});
const scope = createScope("bench");
const registry = createToolRegistry();
const log = createLog("bench-mcp", () => {});
const clientHub = createClientHub({ broker: createApprovalBroker(), roots: async () => [], log });
const hub = createMcpHub(scope, { registry, log, transport: memory, clientHub });
await hub.start({ name: "everything", transport: { type: "stdio", command: "in-memory" } });
const runtime = createToolRuntime({ registry });
const signal = new AbortController().signal;
let n = 0;
const seam: Call = async () => {
  let reports = 0;
  const outcome = await runtime.invoke({
    sessionId: "bench", workspace: process.cwd(), callId: `c${n++}`, name: "mcp__everything__trigger-long-running-operation",
    args: { duration: 0, steps: STEPS }, signal, progress: () => void reports++,
  });
  if (outcome.status !== "ok") throw new Error(`seam: ${outcome.rendered}`);
  check("seam", reports);
};

const pipelines: [string, Call][] = [["bare SDK Client + onprogress (baseline)", bare], ["seam: runtime + bridge + progress", seam]];
const samples = pipelines.map(() => [] as number[]);
for (let i = 0; i < WARMUP; i++) for (const [, call] of pipelines) await call();
for (let done = 0, round = 0; done < CALLS; done += ROUND, round++) {
  for (let j = 0; j < pipelines.length; j++) {
    const k = (j + round) % pipelines.length;
    for (let i = 0; i < ROUND; i++) {
      const t = performance.now();
      await pipelines[k]![1]();
      samples[k]!.push(performance.now() - t);
    }
  }
}
const p50 = samples.map((s) => percentile(s, 50));
const p99 = samples.map((s) => percentile(s, 99));
console.log(`\nMCP tool call with ${STEPS} progress reports, in-process (${CALLS} calls each, rounds of ${ROUND}, ${WARMUP} warm-up)`);
pipelines.forEach(([name], k) => console.log(`  ${name.padEnd(42)} p50 ${ms(p50[k]!)}  p99 ${ms(p99[k]!)}`));
console.log(`  baseline calls that lost their last report: ${bareLost} of ${bareCalls}; seam: 0 (checked on every call)`);
console.log(`  ratio seam / baseline`.padEnd(45) + `p50 ${(p50[1]! / p50[0]!).toFixed(2)}×  p99 ${(p99[1]! / p99[0]!).toFixed(2)}×`);
await bareClient.close();
base.cleanup();
await scope.dispose();
bridged.cleanup();
