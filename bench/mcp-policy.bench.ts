/**
 * The MCP policy plane (MCP-8), two costs measured against a baseline in the same run:
 *
 * 1. Applying a tool's enable/disable: `hub.setPolicy` (the registrations redone, the connection kept) versus
 *    `hub.restart` with the new config (stop + spawn + initialize + tools/list: what any config change cost before),
 *    on @modelcontextprotocol/server-everything over stdio. Rounds alternate.
 * 2. The system prompt per model step: `systemPrompt(ws)` alone (baseline) versus with the MCP instructions block
 *    (`instructionsBlock` over 8 ready servers with 2,000-character instructions, rebuilt every step as the loop does).
 *
 * Prints p50/p99 and ratios; asserts nothing. BENCH_ROUNDS changes the sample size of part 1.
 */
import { createRequire } from "node:module";
import { McpServerConfig, type McpServerView } from "@seam/shared";
import { createScope } from "../apps/host/src/core/scope.js";
import { createLog } from "../apps/host/src/core/log.js";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { systemPrompt } from "../apps/host/src/agent/prompt.js";
import { createMcpHub } from "../apps/host/src/mcp/hub.js";
import { instructionsBlock } from "../apps/host/src/mcp/instructions.js";
import { ms, percentile } from "./stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const everything = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");

const line = (name: string, sample: number[], base?: number[]) => {
  const p50 = percentile(sample, 50);
  const ratio = base ? `  ×${(p50 / percentile(base, 50)).toFixed(3)}` : "";
  console.log(`  ${name.padEnd(28)} p50 ${ms(p50)}  p99 ${ms(percentile(sample, 99))}${ratio}`);
};

async function applyPolicy() {
  const scope = createScope("bench-mcp-policy");
  const registry = createToolRegistry();
  const hub = createMcpHub(scope, { registry, log: createLog("bench", () => {}) });
  const base = McpServerConfig.parse({ name: "everything", transport: { type: "stdio", command: process.execPath, args: [everything, "stdio"] } });
  await hub.start(base);
  const visible = () => registry.visible().some((t) => t.name === "mcp__everything__echo");
  const restart: number[] = [];
  const policy: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    for (const disabled of [true, false]) {
      const next = { ...base, disabledTools: disabled ? ["echo"] : [] };
      let t = performance.now();
      await hub.stop("everything");
      await hub.start(next);
      restart.push(performance.now() - t);
      if (visible() === disabled) throw new Error("restart did not apply the policy");
      t = performance.now();
      await hub.setPolicy({ ...next, disabledTools: disabled ? [] : ["echo"] });
      policy.push(performance.now() - t);
      if (visible() !== disabled) throw new Error("setPolicy did not apply the policy");
    }
  }
  await scope.dispose();
  console.log(`mcp-policy: apply a tool's enable/disable, server-everything over stdio (${restart.length} changes each)`);
  line("restart (baseline)", restart);
  line("setPolicy (no reconnect)", policy, restart);
}

function promptCost() {
  const text = "Use the tools <carefully> & in order. ".repeat(60);
  const views = Array.from({ length: 8 }, (_, i): McpServerView => ({
    config: McpServerConfig.parse({ name: `server${i}`, transport: { type: "stdio", command: "x" } }),
    status: { state: "ready", since: "2026-01-01T00:00:00Z" }, generation: 1, toolsRegistered: true, instructions: text, stderrTail: "", serverInfo: null,
    tools: Array.from({ length: 20 }, (_, k) => ({
      publicName: `mcp__server${i}__t${k}`, rawName: `t${k}`, description: "", inputSchema: { type: "object" }, outputSchema: null, enabled: true, approval: "auto" as const, readOnly: false,
    })),
  }));
  const N = 2_000;
  const run = (f: () => string) => {
    const out: number[] = [];
    for (let r = 0; r < 20; r++) {
      const t = performance.now();
      for (let i = 0; i < N / 20; i++) if (f().length === 0) throw new Error("empty");
      out.push((performance.now() - t) / (N / 20));
    }
    return out;
  };
  run(() => systemPrompt("/w", instructionsBlock(views))); // warm-up
  const base = run(() => systemPrompt("/w"));
  const withBlock = run(() => systemPrompt("/w", instructionsBlock(views)));
  console.log(`mcp-policy: system prompt per step (8 servers × 2,000-char instructions; ${N} steps, per-step time)`);
  line("base prompt (baseline)", base);
  line("with instructions block", withBlock, base);
}

await applyPolicy();
promptCost();
