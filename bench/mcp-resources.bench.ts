/**
 * Resource-read overhead through Seam (MCP-9): `resources/read` of server-everything's architecture.md over stdio,
 * through the hub's live connection (capability check, request, mapping into Seam's shapes: `mcp.readResource`),
 * and through the model tool `read_mcp_resource` in the tool runtime (argument check, rendering), versus the bare SDK
 * Client (`readResource`) on its own server process in the same run. Rounds alternate between pipelines so drift hits
 * all of them. Prints per-read p50/p99 and ratios; asserts nothing. BENCH_CALLS changes the sample size.
 */
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { createToolRuntime } from "../apps/host/src/agent/runtime.js";
import { createLog } from "../apps/host/src/core/log.js";
import { createScope } from "../apps/host/src/core/scope.js";
import { createMcpFeatures } from "../apps/host/src/mcp/features.js";
import { createMcpHub } from "../apps/host/src/mcp/hub.js";
import { registerResourceTools } from "../apps/host/src/mcp/resource-tools.js";
import { ms, percentile } from "./stats.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 1_000);
const ROUND = 100;
const WARMUP = 100;
const URI = "demo://resource/static/document/architecture.md";
const everything = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");

interface Pipeline { name: string; read(i: number): Promise<void> }
const check = (who: string, text: unknown) => {
  if (typeof text !== "string" || !text.includes("Architecture")) throw new Error(`${who}: unexpected contents`);
};

const client = new Client({ name: "bench", version: "0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" }));
const bare: Pipeline = {
  name: "bare SDK client",
  read: async () => check("bare", ((await client.readResource({ uri: URI })).contents[0] as { text?: string }).text),
};

const scope = createScope("bench");
const registry = createToolRegistry();
const hub = createMcpHub(scope, { registry, log: createLog("bench-mcp", () => {}) });
await hub.start({ name: "everything", transport: { type: "stdio", command: process.execPath, args: [everything, "stdio"] } });
const features = createMcpFeatures(hub);
scope.add(registerResourceTools(registry, features, hub), "tools");
const runtime = createToolRuntime({ registry });
const signal = new AbortController().signal;
const seam: Pipeline = { name: "seam: mcp.readResource", read: async () => check("seam", (await features.readResource("everything", URI)).contents[0]!.text) };
const tool: Pipeline = {
  name: "seam: read_mcp_resource tool",
  read: async (i) => {
    const outcome = await runtime.invoke({ sessionId: "bench", workspace: process.cwd(), callId: `c${i}`, name: "read_mcp_resource", args: { server: "everything", uri: URI }, signal });
    check("tool", outcome.rendered);
  },
};

const pipelines = [bare, seam, tool];
for (const p of pipelines) for (let i = 0; i < WARMUP; i++) await p.read(i);
const samples = pipelines.map(() => [] as number[]);
for (let done = 0; done < CALLS; done += ROUND) {
  for (const [k, p] of pipelines.entries()) {
    for (let i = 0; i < ROUND; i++) {
      const t = performance.now();
      await p.read(done + i);
      samples[k]!.push(performance.now() - t);
    }
  }
}
const p50 = samples.map((s) => percentile(s, 50));
const p99 = samples.map((s) => percentile(s, 99));
console.log(`\nmcp-resources: resources/read over stdio (${CALLS} reads each, rounds of ${ROUND}, ${WARMUP} warm-up)`);
pipelines.forEach((p, k) => console.log(`  ${p.name.padEnd(32)} p50 ${ms(p50[k]!)}  p99 ${ms(p99[k]!)}`));
for (let k = 1; k < pipelines.length; k++) {
  console.log(`  ratio ${pipelines[k]!.name} / baseline`.padEnd(52) + `p50 ${(p50[k]! / p50[0]!).toFixed(2)}×  p99 ${(p99[k]! / p99[0]!).toFixed(2)}×`);
}
await client.close();
await scope.dispose();
