import { describe, expect, it } from "vitest";
import { z } from "zod";
import { HostError } from "../../src/core/errors.js";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime, type ToolCallEvent, type ToolRuntimeOptions } from "../../src/agent/runtime.js";
import { defineTool, type ToolContext, type ToolResult } from "../../src/agent/tool.js";

function setup(run: (args: { path: string }, ctx: ToolContext) => Promise<ToolResult>, extra: Partial<ToolRuntimeOptions> & { timeoutMs?: number } = {}) {
  const registry = createToolRegistry();
  let runs = 0;
  registry.register(defineTool({
    name: "echo",
    description: "test tool",
    capability: "test",
    timeoutMs: extra.timeoutMs,
    input: z.object({ path: z.string() }),
    run: (args, ctx) => {
      runs++;
      return run(args, ctx);
    },
  }));
  const runtime = createToolRuntime({ registry, ...extra });
  const invoke = (args: unknown, signal = new AbortController().signal, name = "echo") =>
    runtime.invoke({ sessionId: "s1", workspace: "/ws", callId: "c1", name, args, signal });
  return { invoke, runs: () => runs, registry };
}

const ok = (rendered: string): ToolResult => ({ canonical: { rendered }, rendered });

describe("tool runtime (CORE-12)", () => {
  it("runs a tool with parsed arguments and reports timings", async () => {
    const t = setup(async ({ path }, ctx) => ok(`${path}@${ctx.workspace}#${ctx.callId}`));
    const outcome = await t.invoke({ path: "a.txt" });
    expect(outcome).toMatchObject({ status: "ok", canonical: { rendered: "a.txt@/ws#c1" }, rendered: "a.txt@/ws#c1", error: null });
    expect(outcome.endedAt.getTime()).toBeGreaterThanOrEqual(outcome.startedAt.getTime());
    expect(outcome.durationMs).toBe(outcome.endedAt.getTime() - outcome.startedAt.getTime());
  });

  it("returns invalid_arguments without running the tool", async () => {
    const t = setup(async () => ok("ran"));
    const outcome = await t.invoke({ nope: 1 });
    expect(t.runs()).toBe(0);
    expect(outcome.status).toBe("error");
    expect(outcome.error?.code).toBe("invalid_arguments");
    expect(outcome.error?.message).toMatch(/^path: /);
    expect(outcome.rendered).toMatch(/^Error \[invalid_arguments\]: path: .+\nFix the arguments and call echo again\.$/);
  });

  it("tells the model that an unknown tool does not exist", async () => {
    const t = setup(async () => ok("ran"));
    const outcome = await t.invoke({}, undefined, "rm_rf");
    expect(outcome.status).toBe("error");
    expect(outcome.error?.code).toBe("unknown_tool");
    expect(outcome.rendered).toBe(`Error [unknown_tool]: There is no tool named "rm_rf" in this session. Call only the tools listed in your tool definitions.`);
  });

  it("times out at the deadline even when the tool ignores its signal, and aborts the tool's signal", async () => {
    let toolSignal: AbortSignal | undefined;
    const t = setup((_args, ctx) => {
      toolSignal = ctx.signal;
      return new Promise<ToolResult>(() => {});
    }, { timeoutMs: 50 });
    // The tool never settles: an outcome at all means the runtime stopped waiting at the deadline.
    const outcome = await t.invoke({ path: "x" });
    expect(outcome.status).toBe("error");
    expect(outcome.error?.code).toBe("timeout");
    expect(outcome.rendered).toMatch(/^Error \[timeout\]: echo did not finish within 50 ms/);
    expect(toolSignal?.aborted).toBe(true);
  });

  it("uses the runtime default timeout when the tool has none", async () => {
    const t = setup(() => new Promise<ToolResult>(() => {}), { defaults: { timeoutMs: 30 } });
    expect((await t.invoke({ path: "x" })).error?.code).toBe("timeout");
  });

  it("propagates the caller's cancellation into the tool's signal", async () => {
    const caller = new AbortController();
    let abortedInside = false;
    const t = setup((_args, ctx) => new Promise<ToolResult>((resolve) => {
      ctx.signal.addEventListener("abort", () => {
        abortedInside = true;
        resolve(ok("finished anyway"));
      });
      setTimeout(() => caller.abort(), 10);
    }));
    const outcome = await t.invoke({ path: "x" }, caller.signal);
    expect(abortedInside).toBe(true);
    expect(outcome.status).toBe("cancelled");
    expect(outcome.error?.code).toBe("cancelled");
    expect(outcome.rendered).toMatch(/^Error \[cancelled\]/);
  });

  it("does not run the tool when the caller already cancelled", async () => {
    const t = setup(async () => ok("ran"));
    const outcome = await t.invoke({ path: "x" }, AbortSignal.abort());
    expect(outcome.status).toBe("cancelled");
    expect(t.runs()).toBe(0);
  });

  it("normalises a thrown HostError to its public code", async () => {
    const t = setup(async () => {
      throw new HostError("denied:workspace", "Path is outside the workspace.", { reason: "outside_workspace" });
    });
    const outcome = await t.invoke({ path: "x" });
    expect(outcome).toMatchObject({ status: "error", canonical: null, error: { code: "outside_workspace", message: "Path is outside the workspace." } });
    expect(outcome.rendered).toBe("Error [outside_workspace]: Path is outside the workspace.");
  });

  it("normalises other thrown values, including synchronous throws, to tool_failed", async () => {
    const t = setup(() => {
      throw new TypeError("cannot read x");
    });
    const outcome = await t.invoke({ path: "x" });
    expect(outcome.error).toEqual({ code: "tool_failed", message: "cannot read x" });
    expect(outcome.rendered).toBe("Error [tool_failed]: cannot read x");
  });

  it("keeps canonical and rendered when the tool reports an error itself", async () => {
    const t = setup(async () => ({ canonical: { isError: true }, rendered: "server said no", error: { code: "mcp_error", message: "no" } }));
    const outcome = await t.invoke({ path: "x" });
    expect(outcome).toMatchObject({ status: "error", canonical: { isError: true }, rendered: "server said no", error: { code: "mcp_error", message: "no" } });
  });

  it("caps rendered text and says how many characters were cut", async () => {
    const t = setup(async () => ok("a".repeat(1_000)), { defaults: { maxRenderedChars: 100 } });
    const outcome = await t.invoke({ path: "x" });
    expect(outcome.rendered.startsWith(`${"a".repeat(100)}\n\n[output truncated: 900 of 1000 characters were cut.`)).toBe(true);
    expect(outcome.rendered.length).toBeLessThan(300);
    expect((outcome.canonical as { rendered: string }).rendered).toHaveLength(1_000);
  });

  it("lets a tool set its own cap in place of the runtime's default", async () => {
    const registry = createToolRegistry();
    registry.register(defineTool({
      name: "big", description: "t", capability: "test", input: z.object({}), maxRenderedChars: 500,
      run: async () => ({ canonical: null, rendered: "b".repeat(1_000) }),
    }));
    const runtime = createToolRuntime({ registry, defaults: { maxRenderedChars: 100 } });
    const outcome = await runtime.invoke({ sessionId: "s", workspace: "/", callId: "c", name: "big", args: {}, signal: new AbortController().signal });
    expect(outcome.rendered.startsWith(`${"b".repeat(500)}\n\n[output truncated: 500 of 1000`)).toBe(true);
  });

  it("records start and end of every call, and survives a failing recorder", async () => {
    const events: ToolCallEvent[] = [];
    const recordErrors: unknown[] = [];
    const t = setup(async () => ok("done"), {
      record: async (event) => {
        events.push(event);
        throw new Error("db down");
      },
      onRecordError: (error) => recordErrors.push(error),
    });
    const outcome = await t.invoke({ path: "x" });
    await t.invoke({ bad: true });
    expect(outcome.status).toBe("ok");
    expect(events.map((e) => `${e.phase}`)).toEqual(["start", "end", "start", "end"]);
    expect(events[0]).toMatchObject({ phase: "start", sessionId: "s1", callId: "c1", name: "echo", args: { path: "x" } });
    expect(events[1]).toMatchObject({ phase: "end", args: { path: "x" }, outcome: { status: "ok", rendered: "done" } });
    expect(events[3]).toMatchObject({ phase: "end", outcome: { error: { code: "invalid_arguments" } } });
    expect(recordErrors).toHaveLength(4);
  });

  it("records a synchronously throwing recorder without failing the call", async () => {
    const t = setup(async () => ok("done"), { record: () => { throw new Error("sync"); } });
    expect((await t.invoke({ path: "x" })).status).toBe("ok");
  });

  it("sees session-owned tools only from their session", async () => {
    const t = setup(async () => ok("global"));
    t.registry.register(defineTool({ name: "mine", description: "", capability: "test", input: z.object({}), run: async () => ok("mine") }), { sessionId: "s1" });
    expect((await t.invoke({}, undefined, "mine")).rendered).toBe("mine");
  });
});
