import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime } from "../../src/agent/runtime.js";
import type { ToolContext, ToolDef } from "../../src/agent/tool.js";

/** A tool's progress reaches the caller and restarts its deadline up to `maxTimeoutMs`; waiting for a person pauses it (MCP-12). */

function setup(maxTimeoutMs: number | undefined, body: (ctx: ToolContext) => Promise<void>) {
  const registry = createToolRegistry();
  const tool: ToolDef = {
    name: "long", description: "t", capability: "test", inputSchema: { type: "object" }, effect: "read", timeoutMs: 1_000,
    ...(maxTimeoutMs !== undefined ? { maxTimeoutMs } : {}),
    parse: (args) => ({ ok: true, value: args ?? {} }),
    run: async (_args, ctx) => {
      await body(ctx);
      return { canonical: null, rendered: "done" };
    },
  };
  registry.register(tool);
  const runtime = createToolRuntime({ registry });
  const reports: unknown[] = [];
  const outcome = runtime.invoke({ sessionId: "s", workspace: "/ws", callId: "c", name: "long", args: {}, signal: new AbortController().signal, progress: (u) => reports.push(u) });
  return { outcome, reports };
}

const tick = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe("tool progress and the deadline", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("progress reaches the caller in order and restarts the deadline", async () => {
    let release!: () => void;
    const t = setup(10_000, async (ctx) => {
      for (let i = 1; i <= 3; i++) {
        await new Promise((r) => setTimeout(r, 800));
        ctx.progress?.({ progress: i, total: 3, message: null });
      }
      await new Promise<void>((r) => (release = r));
    });
    await tick(2_400);
    release();
    const outcome = await t.outcome;
    // 2.4 s in all, over the 1 s timeout: each report restarted it.
    expect(outcome.status).toBe("ok");
    expect(t.reports).toEqual([1, 2, 3].map((progress) => ({ progress, total: 3, message: null })));
  });

  it("without maxTimeoutMs progress does not extend the call", async () => {
    const t = setup(undefined, async (ctx) => {
      await new Promise((r) => setTimeout(r, 800));
      ctx.progress?.({ progress: 1, total: null, message: "working" });
      await new Promise((r) => setTimeout(r, 800));
    });
    await tick(1_000);
    const outcome = await t.outcome;
    expect(outcome.error?.code).toBe("timeout");
    expect(t.reports).toEqual([{ progress: 1, total: null, message: "working" }]);
  });

  it("progress never extends past maxTimeoutMs", async () => {
    const t = setup(2_500, async (ctx) => {
      for (let i = 1; i <= 10; i++) {
        await new Promise((r) => setTimeout(r, 500));
        ctx.progress?.({ progress: i, total: 10, message: null });
      }
    });
    await tick(2_500);
    const outcome = await t.outcome;
    expect(outcome.error?.code).toBe("timeout");
    expect(t.reports.length).toBeLessThan(10);
  });

  it("a paused deadline does not run while a person is asked", async () => {
    const t = setup(undefined, async (ctx) => {
      const resume = ctx.pauseDeadline!();
      await new Promise((r) => setTimeout(r, 5_000));
      resume();
      await new Promise((r) => setTimeout(r, 500));
    });
    await tick(5_600);
    expect((await t.outcome).status).toBe("ok");
  });
});
