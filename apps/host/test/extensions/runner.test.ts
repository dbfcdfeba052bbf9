import { describe, expect, it } from "vitest";
import { createToolRuntime } from "../../src/agent/runtime.js";
import { HostError } from "../../src/core/errors.js";
import { SESSION, setup, startFailure } from "./helpers.js";

const COUNTER = `
let count = 0;
api.tools.register({ name: "counter_increment", description: "Adds by to the counter.", inputSchema: { type: "object", properties: { by: { type: "number" } } } },
  async (args) => { count += args.by ?? 1; api.send({ count }); return { count }; });
api.tools.register({ name: "counter_text", description: "The counter as text." }, () => "count=" + count);
api.handle("get", () => ({ count }));
api.events.on("reset", (p) => { count = p.to; api.log("reset to", p.to); });
api.log("counter ready");
`;

describe("host-half runner (EXT-3)", () => {
  it("registers session-owned tools that the tool runtime can call", async () => {
    const t = setup();
    const half = await t.start(COUNTER);
    expect(half.state()).toBe("running");
    expect(t.names()).toEqual(["counter_increment", "counter_text"]);
    expect(t.registry.visible("other-session")).toEqual([]);
    expect(t.registry.get("counter_increment", SESSION)?.description).toBe("Adds by to the counter.");
    expect(t.registry.get("counter_increment", SESSION)?.inputSchema).toEqual({ type: "object", properties: { by: { type: "number" } } });

    const runtime = createToolRuntime({ registry: t.registry });
    const invoke = (name: string, args: unknown) =>
      runtime.invoke({ sessionId: SESSION, workspace: "/ws", callId: "c1", name, args, signal: new AbortController().signal });
    expect(await invoke("counter_increment", { by: 2 })).toMatchObject({ status: "ok", canonical: { count: 2 }, rendered: '{"count":2}' });
    expect(await invoke("counter_text", {})).toMatchObject({ status: "ok", rendered: "count=2" });

    expect(half.takeSent()).toEqual([{ count: 2 }]);
    expect(await half.request("get", null)).toEqual({ count: 2 });
    half.emit("reset", { to: 40 });
    await expect.poll(() => half.logs()).toContain("reset to 40");
    expect(await half.call("counter_increment", {})).toEqual({ count: 41 });
    expect(half.logs()[0]).toBe("counter ready");
    expect(half.tools()).toEqual(["counter_increment", "counter_text"]);
    expect(half.lastFailure()).toBeNull();
  });

  it("stop() disposes everything: tools vanish, calls answer not_running", async () => {
    const t = setup();
    const half = await t.start(COUNTER);
    expect(t.names()).toHaveLength(2);
    await half.stop();
    expect(half.state()).toBe("stopped");
    expect(await half.exited).toBe("stopped");
    expect(t.names()).toEqual([]);
    await expect(half.call("counter_text", {})).rejects.toMatchObject({ publicCode: "not_running" });
    await half.stop(); // idempotent
  });

  it("disposing the owning scope stops it too", async () => {
    const t = setup();
    const half = await t.start(COUNTER);
    await t.scope.dispose();
    expect(half.state()).toBe("stopped");
    expect(t.names()).toEqual([]);
  });

  it("a tool's disposer returned by register() unregisters it", async () => {
    const t = setup();
    const half = await t.start(`
      const off = api.tools.register({ name: "temp" }, () => 1);
      api.tools.register({ name: "drop_temp" }, () => { off(); return "dropped"; });
    `);
    expect(t.names()).toEqual(["drop_temp", "temp"]);
    expect(await half.call("drop_temp", {})).toBe("dropped");
    await expect.poll(() => t.names()).toEqual(["drop_temp"]);
  });

  it("refuses a tool name that collides with one already in the session (conflict), keeps running", async () => {
    const t = setup();
    await t.start(`api.tools.register({ name: "shared" }, () => "first");`, undefined, "a");
    const b = await t.start(`api.tools.register({ name: "shared" }, () => "second"); api.tools.register({ name: "b_only" }, () => 2);`, undefined, "b");
    await expect.poll(() => t.names()).toEqual(["b_only", "shared"]);
    expect(b.state()).toBe("running");
    expect(b.tools()).toEqual(["b_only"]);
    expect(b.logs().join("\n")).toMatch(/refused tool shared: \[duplicate_tool\]/);
    expect(b.lastFailure()).toMatch(/already registered/);
    const runtime = createToolRuntime({ registry: t.registry });
    const outcome = await runtime.invoke({ sessionId: SESSION, workspace: "/ws", callId: "c", name: "shared", args: {}, signal: new AbortController().signal });
    expect(outcome.rendered).toBe("first");
  });

  it("refuses invalid tool names without crashing", async () => {
    const t = setup();
    const half = await t.start(`
      globalThis.r1 = api.tools.register({ name: "bad name!" }, () => 1);
      api.tools.register({ name: "ok_name" }, () => globalThis.r1);
    `);
    expect(t.names()).toEqual(["ok_name"]);
    expect(await half.call("ok_name", {})).toBeNull();
    expect(half.logs().join("\n")).toMatch(/refused tool "bad name!"/);
  });

  it("a per-call timeout fails the call with extension_timeout and terminates the worker", async () => {
    const t = setup();
    const half = await t.start(`api.tools.register({ name: "never" }, () => new Promise(() => {}));`, { callTimeoutMs: 200 });
    const error = await half.call("never", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).publicCode).toBe("extension_timeout");
    expect(half.state()).toBe("limit_exceeded");
    expect(t.names()).toEqual([]);
  });

  it("a top-level throw fails the start with host_half_failed and the line, disposing early registrations", async () => {
    const t = setup();
    const error = await startFailure(t.start(`api.tools.register({ name: "early" }, () => 1);\nnull.boom;`));
    expect(error.publicCode).toBe("host_half_failed");
    expect(error.data?.state).toBe("crashed");
    expect(error.message).toMatch(/TypeError: Cannot read properties of null/);
    expect(error.message).toMatch(/host\.js:2/);
    expect(t.names()).toEqual([]);
  });

  it("unknown tools and handlers are reported as not found", async () => {
    const t = setup();
    const half = await t.start(`api.log("hi")`);
    await expect(half.call("nope", {})).rejects.toMatchObject({ publicCode: "not_found" });
    await expect(half.request("nope", {})).rejects.toMatchObject({ publicCode: "not_found" });
    expect(half.state()).toBe("running");
  });

  it("keeps a bounded log", async () => {
    const t = setup();
    const half = await t.start(`for (let i = 0; i < 50; i++) api.log("line", i);`, { maxLogLines: 10 });
    await expect.poll(() => half.logs().at(-1)).toBe("line 49");
    expect(half.logs()).toHaveLength(10);
    expect(half.logs()[0]).toBe("line 40");
  });

  it("timers run, can be cleared and are capped", async () => {
    const t = setup();
    const half = await t.start(`
      const a = api.setTimeout(() => api.log("cleared timer ran"), 0);
      api.clearTimeout(a);
      api.setTimeout(() => api.log("timer ran"), 0);
      let refused = "";
      try { for (let i = 0; i < 10; i++) api.setTimeout(() => {}, 60000); } catch (e) { refused = e.message; }
      api.log("refused:", refused);
    `, { maxTimers: 5 });
    await expect.poll(() => half.logs()).toContain("timer ran");
    expect(half.logs()).not.toContain("cleared timer ran");
    expect(half.logs()).toContain("refused: timer limit reached (5 pending)");
  });
});
