/**
 * The try before a save (MCP-10), measured against a baseline in the same run, on
 * @modelcontextprotocol/server-everything over stdio. Rounds alternate:
 *
 * - **start (baseline)**: `hub.start` alone — what adding a server cost before (spawn, initialize, tools/list).
 * - **try + start**: the prober's throwaway connection (spawn, initialize, tools/list, close with the process group
 *   proven gone), then `hub.start` — what `mcp.add` costs now.
 * - **try alone**, and a **failed try** of a missing executable (how fast "not found" comes back).
 *
 * Prints p50/p99 and ratios to the baseline; asserts nothing. BENCH_ROUNDS changes the sample size.
 */
import { createRequire } from "node:module";
import { McpServerConfig } from "@seam/shared";
import { createScope } from "../apps/host/src/core/scope.js";
import { createLog } from "../apps/host/src/core/log.js";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { createMcpHub } from "../apps/host/src/mcp/hub.js";
import { createProber } from "../apps/host/src/mcp/probe.js";
import { createTransport } from "../apps/host/src/mcp/transport.js";
import { ms, percentile } from "./stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const everything = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");

const line = (name: string, sample: number[], base?: number[]) => {
  const p50 = percentile(sample, 50);
  const ratio = base ? `  ×${(p50 / percentile(base, 50)).toFixed(3)}` : "";
  console.log(`  ${name.padEnd(28)} p50 ${ms(p50)}  p99 ${ms(percentile(sample, 99))}${ratio}`);
};

async function main() {
  const scope = createScope("bench-mcp-probe");
  const log = createLog("bench", () => {});
  const hub = createMcpHub(scope, { registry: createToolRegistry(), log });
  const probe = createProber(scope.child("probes"), { makeTransport: createTransport, log });
  const config = McpServerConfig.parse({ name: "everything", transport: { type: "stdio", command: process.execPath, args: [everything, "stdio"] } });
  const missing = McpServerConfig.parse({ name: "missing", transport: { type: "stdio", command: "/nonexistent/seam-bench-server" } });
  const start: number[] = [];
  const tryStart: number[] = [];
  const tryAlone: number[] = [];
  const failed: number[] = [];
  // Warm-up: loads the SDK and server-everything once.
  await probe(config);
  for (let i = 0; i < ROUNDS; i++) {
    let t = performance.now();
    await hub.start(config);
    start.push(performance.now() - t);
    await hub.stop("everything");

    t = performance.now();
    const seen = await probe(config);
    const tried = performance.now() - t;
    await hub.start(config);
    tryStart.push(performance.now() - t);
    tryAlone.push(tried);
    await hub.stop("everything");
    if (seen.toolCount === 0) throw new Error("the try saw no tools");

    t = performance.now();
    await probe(missing).then(() => { throw new Error("the missing executable was found"); }, () => undefined);
    failed.push(performance.now() - t);
  }
  await scope.dispose();
  console.log(`mcp-probe: add a server, server-everything over stdio (${ROUNDS} rounds)`);
  line("start (baseline)", start);
  line("try + start (add now)", tryStart, start);
  line("try alone", tryAlone, start);
  line("failed try (ENOENT)", failed, start);
}

await main();
