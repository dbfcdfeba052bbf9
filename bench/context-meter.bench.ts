/**
 * Cost of the context meter (CTX-1), which measures the next request after every model step: system
 * prompt + visible tool specs + history, estimated with gpt-tokenizer. Synthetic sessions of N items
 * (user messages, assistant text, tool calls with 2–8 KB results) and 25 tools, in memory. Lines per size:
 *
 * - **history build (baseline)**: `toChatMessages` over the session, which every step already does.
 * - **cold measure**: a fresh meter, every item and tool encoded (after a restart, or the first step).
 * - **warm measure**: one new item since the last reading, the case after every step.
 *
 * Prints p50/p99 and the ratios to the baseline. Asserts nothing. BENCH_ROUNDS changes the sample size.
 */
import type { TimelineItem, TurnInfo } from "@seam/shared";
import { z } from "zod";
import { createContextMeter } from "../apps/host/src/agent/context.js";
import { toChatMessages } from "../apps/host/src/agent/history.js";
import { createToolRegistry } from "../apps/host/src/agent/registry.js";
import { defineTool } from "../apps/host/src/agent/tool.js";
import { createToolSet, DEFAULT_BUDGET } from "../apps/host/src/agent/tool-set.js";
import { viewOfTimeline } from "../apps/host/src/agent/model-view.js";
import { ms, percentile } from "./stats.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const at = "2026-01-01T00:00:00.000Z";
const words = "the quick brown fox jumps over the lazy dog while the compiler reports 42 warnings in src/index.ts ";

function session(n: number): { items: TimelineItem[]; turns: TurnInfo[] } {
  const turns: TurnInfo[] = [];
  const items: TimelineItem[] = [];
  for (let i = 0; i < n; i++) {
    const turnId = `t${Math.floor(i / 4)}`;
    if (i % 4 === 0) {
      turns.push({ id: turnId, sessionId: "s", status: "completed", steps: 2, reason: null, mode: "model", inputTokens: null, outputTokens: null, startedAt: at, endedAt: at });
      items.push({ kind: "message", id: `i${i}`, seq: i, turnId, createdAt: at, role: "user", text: `${words.repeat(2)} #${i}`, state: "complete" });
    } else if (i % 4 === 3) {
      items.push({ kind: "message", id: `i${i}`, seq: i, turnId, createdAt: at, role: "assistant", text: `${words.repeat(4)} #${i}`, state: "complete" });
    } else {
      items.push({
        kind: "tool_call", id: `i${i}`, seq: i, turnId, createdAt: at, callId: `c${i}`, name: "read_file", args: { path: `src/file-${i}.ts` },
        status: "ok", canonical: null, rendered: `${words.repeat(20 + (i % 7) * 10)} #${i}`, error: null, startedAt: at, endedAt: at,
      });
    }
  }
  return { items, turns };
}

const registry = createToolRegistry();
for (let t = 0; t < 25; t++) {
  registry.register(defineTool({
    name: `tool_${t}`, description: `${words.repeat(3)} (tool ${t})`, guidance: t % 3 === 0 ? words.repeat(2) : undefined, capability: "bench",
    input: z.object({ path: z.string().describe("a path in the workspace"), limit: z.number().int().optional(), pattern: z.string().optional() }),
    run: async () => ({ canonical: null, rendered: "" }),
  }));
}

for (const n of [200, 2_000]) {
  const { items, turns } = session(n + ROUNDS);
  const live = items.slice(0, n);
  // The meter reads the model view (CTX-4); here a view of the whole list, built afresh for every reading.
  const store = { view: async () => viewOfTimeline(live, turns), lastModelTurn: async () => null };
  const window = async () => ({ value: 128_000, source: "model" as const });
  const toolSet = createToolSet({
    registry, loaded: { get: async () => new Set<string>(), add: async () => {}, forget: () => {} }, budget: async () => ({ ...DEFAULT_BUDGET, window: 128_000 }),
  });
  const samples: Record<string, number[]> = { base: [], cold: [], warm: [] };
  const warmMeter = createContextMeter({ ...store, toolSet, window });
  let reading = await warmMeter.measure("s", "/ws");
  for (let r = 0; r < ROUNDS; r++) {
    let t = performance.now();
    toChatMessages(live, turns);
    samples.base!.push(performance.now() - t);
    if (r < Math.min(ROUNDS, 8)) {
      t = performance.now();
      await createContextMeter({ ...store, toolSet, window }).measure("s", "/ws");
      samples.cold!.push(performance.now() - t);
    }
    live.push(items[n + r]!);
    t = performance.now();
    reading = await warmMeter.measure("s", "/ws");
    samples.warm!.push(performance.now() - t);
  }
  const base = percentile(samples.base!, 50);
  console.log(`context meter, ${n} items, ${reading.toolCount} tools → ${reading.total.toLocaleString("en-US")} tokens (system ${reading.system}, tools ${reading.tools}, history ${reading.history})`);
  for (const [name, label] of [["base", "history build (baseline)"], ["cold", "cold measure"], ["warm", "warm measure (+1 item)"]] as const) {
    const s = samples[name]!;
    console.log(`  ${label.padEnd(26)} p50 ${ms(percentile(s, 50))}  p99 ${ms(percentile(s, 99))}  ${(percentile(s, 50) / base).toFixed(1)}× baseline`);
  }
}
