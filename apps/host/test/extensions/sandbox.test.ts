import { describe, expect, it } from "vitest";
import { setup, startFailure } from "./helpers.js";

/** Fast limits for the attack tests; healthy-path tests use the defaults. */
const FAST = { watchdogMs: 500, heartbeatMs: 50, evalTimeoutMs: 300, evalBudgetMs: 3_000 };

/** The host is alive: its event loop turns and its process object is intact. */
async function hostIsFine() {
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(typeof process.exit).toBe("function");
  expect(process.env.PATH).toBeDefined();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

describe("host-half sandbox (EXT-3 attacks)", () => {
  it("while(true) at top level: the evaluation times out, limit_exceeded, tools gone", async () => {
    const t = setup();
    const error = await startFailure(t.start(`api.tools.register({ name: "t1" }, () => 1); while (true) {}`, FAST));
    expect(error.publicCode).toBe("host_half_failed");
    expect(error.data?.state).toBe("limit_exceeded");
    expect(error.message).toMatch(/did not finish within 300 ms/);
    expect(t.names()).toEqual([]);
    await hostIsFine();
  });

  it("while(true) in a promise callback during evaluation: the evaluation budget terminates it", async () => {
    const t = setup();
    const error = await startFailure(t.start(`api.tools.register({ name: "t1" }, () => 1); Promise.resolve().then(() => { while (true) {} });`, { ...FAST, evalBudgetMs: 500 }));
    expect(error.data?.state).toBe("limit_exceeded");
    expect(error.message).toMatch(/did not settle/);
    expect(t.names()).toEqual([]);
    await hostIsFine();
  });

  it("while(true) in a setTimeout callback: the watchdog terminates it, tools gone", async () => {
    const t = setup();
    const half = await t.start(`api.tools.register({ name: "t1" }, () => 1); api.setTimeout(() => { while (true) {} }, 0);`, FAST);
    expect(await half.exited).toBe("limit_exceeded");
    expect(half.lastFailure()).toMatch(/unresponsive/);
    expect(t.names()).toEqual([]);
    await expect(half.call("t1", {})).rejects.toMatchObject({ publicCode: "not_running" });
    await hostIsFine();
  });

  it("while(true) in a Promise.then after start (from a tool call): terminated, the call fails", async () => {
    const t = setup();
    const half = await t.start(`api.tools.register({ name: "spin" }, () => Promise.resolve().then(() => { while (true) {} }));`, FAST);
    const error = await half.call("spin", {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ publicCode: "host_half_failed" });
    expect(half.state()).toBe("limit_exceeded");
    expect(t.names()).toEqual([]);
    await hostIsFine();
  });

  it("growing memory until the heap limit: the worker dies, the host is fine", async () => {
    const t = setup();
    const half = await t.start(`
      api.tools.register({ name: "hog" }, () => 1);
      const hoard = [];
      const grow = () => { for (let i = 0; i < 50; i++) hoard.push(new Array(100000).fill(i)); api.setTimeout(grow, 0); };
      api.setTimeout(grow, 0);
    `, { maxOldGenerationSizeMb: 32, watchdogMs: 10_000 });
    expect(await half.exited).toBe("limit_exceeded");
    expect(half.lastFailure()).toMatch(/out of memory/);
    expect(t.names()).toEqual([]);
    await hostIsFine();
  });

  it("this.constructor.constructor('return process')() reaches no process", async () => {
    const t = setup();
    const half = await t.start(`
      const attempt = (f) => { try { const v = f(); return v === undefined ? "undefined" : typeof v; } catch (e) { return "threw " + e.name; } };
      const results = {
        viaThis: attempt(() => this.constructor.constructor("return process")()),
        viaApi: attempt(() => api.log.constructor("return process")()),
        viaToolsFn: attempt(() => api.tools.register.constructor.constructor("return process")()),
        viaError: attempt(() => { try { null.x } catch (e) { return e.constructor.constructor("return process")(); } }),
        viaEval: attempt(() => eval("process")),
        viaProto: attempt(() => Object.getPrototypeOf(globalThis).constructor.constructor("return process")()),
      };
      api.tools.register({ name: "report" }, () => results);
    `);
    const results = (await half.call("report", {})) as Record<string, string>;
    for (const [how, outcome] of Object.entries(results)) {
      expect(outcome, how).toMatch(/^(threw \w+|undefined)$/);
    }
    await hostIsFine();
  });

  it("require, import(), globalThis.process, Buffer, fetch and console are unreachable", async () => {
    const t = setup();
    const half = await t.start(`
      const seen = {
        require: typeof require, process: typeof globalThis.process, Buffer: typeof Buffer, fetch: typeof fetch,
        setInterval: typeof setInterval, setTimeout: typeof setTimeout, queueMicrotask: typeof queueMicrotask,
        module: typeof module, console: typeof console, WebAssemblyCompile: "pending", importResult: "pending",
        globals: Object.getOwnPropertyNames(globalThis).filter((n) => !/^[A-Z]/.test(n)).sort(),
      };
      try { new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])); seen.WebAssemblyCompile = "compiled"; } catch (e) { seen.WebAssemblyCompile = "threw " + e.name; }
      import("node:fs").then(() => { seen.importResult = "loaded"; }, (e) => { seen.importResult = "rejected"; });
      api.tools.register({ name: "report" }, () => seen);
    `);
    await expect.poll(async () => ((await half.call("report", {})) as { importResult: string }).importResult).not.toBe("pending");
    const seen = (await half.call("report", {})) as Record<string, unknown>;
    expect(seen).toMatchObject({
      require: "undefined", process: "undefined", Buffer: "undefined", fetch: "undefined", setInterval: "undefined",
      setTimeout: "undefined", module: "undefined", console: "undefined", importResult: "rejected",
    });
    expect(seen.WebAssemblyCompile).toMatch(/^threw /);
    // Only JavaScript's own lower-case globals, no Node or host ones (`api` is non-enumerable but own).
    expect(seen.globals).not.toContain("process");
    expect(seen.globals).not.toContain("require");
    await hostIsFine();
  });

  it("prototype pollution inside stays inside", async () => {
    const t = setup();
    const half = await t.start(`
      Object.prototype.polluted = 1;
      Array.prototype.map = () => "hijacked";
      JSON.parse = () => ({ hijacked: true });
      api.tools.register({ name: "echo" }, (args) => ({ got: args, inside: ({}).polluted }));
    `);
    const result = (await half.call("echo", { a: [1, 2] })) as Record<string, unknown>;
    expect(result).toEqual({ got: { a: [1, 2] }, inside: 1 });
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect([1].map((x) => x + 1)).toEqual([2]);
    expect(JSON.parse('{"a":1}')).toEqual({ a: 1 });
    // The api object itself is frozen and cannot be replaced.
    const half2 = await t.start(`
      let tamper = "none";
      try { api.log = () => {}; } catch (e) { tamper = "threw " + e.name; }
      try { "use strict"; globalThis.api = null; } catch (e) {}
      api.tools.register({ name: "tamper" }, () => ({ tamper, apiStillThere: typeof api.log }));
    `, undefined, "other");
    expect(await half2.call("tamper", {})).toEqual({ tamper: "none", apiStillThere: "function" });
    await hostIsFine();
  });

  it("flooding send and log does not stall the host; the excess is dropped and reported", async () => {
    const t = setup();
    const order: string[] = [];
    const off = t.registry.onChange((c) => { if (c.name === "flood_done") order.push("flood done"); });
    const half = await t.start(`
      let round = 0;
      const flood = () => {
        for (let i = 0; i < 2000; i++) { api.send({ i }); api.log("spam", i); }
        if (++round < 300) api.setTimeout(flood, 0);
        else api.tools.register({ name: "flood_done" }, () => round);
      };
      api.setTimeout(flood, 0);
    `, { maxMessagesPerSecond: 100 });
    setTimeout(() => order.push("host timer"), 10);
    await expect.poll(() => order, { timeout: 20_000 }).toContain("flood done");
    off();
    expect(order.indexOf("host timer")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("host timer")).toBeLessThan(order.indexOf("flood done"));
    expect(half.state()).toBe("running");
    expect(half.takeSent().length).toBeLessThanOrEqual(200);
    await expect.poll(() => half.logs().some((l) => /dropped \d+ message/.test(l))).toBe(true);
    expect(half.lastFailure()).toMatch(/message flood/);
    await hostIsFine();
  });

  it("registering 10,000 tools is capped; the extension keeps running", async () => {
    const t = setup();
    const half = await t.start(`
      let accepted = 0;
      for (let i = 0; i < 10000; i++) if (api.tools.register({ name: "t" + i }, () => i)) accepted++;
      api.log("accepted", accepted);
    `, { maxTools: 50 });
    await expect.poll(() => half.logs()).toContain("accepted 50");
    expect(t.names()).toHaveLength(50);
    expect(half.state()).toBe("running");
    expect(half.lastFailure()).toMatch(/limit of 50 tools/);
    expect(half.logs().filter((l) => l.includes("limit of 50 tools"))).toHaveLength(1);
    expect(await half.call("t49", {})).toBe(49);
    await half.stop();
    expect(t.names()).toEqual([]);
    await hostIsFine();
  });

  it("providing 10,000 services is capped at 20; the extension keeps running", async () => {
    const t = setup();
    const half = await t.start(`
      let accepted = 0;
      for (let i = 0; i < 10000; i++) if (api.services.provide("s" + i, { f: () => i })) accepted++;
      api.log("accepted", accepted);
    `);
    await expect.poll(() => half.logs()).toContain("accepted 20");
    expect(half.services()).toHaveLength(20);
    expect(half.state()).toBe("running");
    expect(await half.callService("s19", "f", null)).toBe(19);
    expect(half.logs().filter((l) => l.includes("at most 20 services"))).toHaveLength(1);
    await hostIsFine();
  });

  it("throwing from every callback: the call errs, the failure is recorded, the extension and host carry on", async () => {
    const t = setup();
    const half = await t.start(`
      api.tools.register({ name: "throws" }, () => { throw new Error("handler boom"); });
      api.tools.register({ name: "rejects" }, async () => { throw new RangeError("async boom"); });
      api.tools.register({ name: "bad_result" }, () => { const o = {}; o.self = o; return o; });
      api.tools.register({ name: "throws_value" }, () => { throw { toString() { return "weird"; } }; });
      api.handle("h", () => { throw new Error("handle boom"); });
      api.events.on("ping", () => { throw new Error("listener boom"); });
      api.events.on("ping", async () => { throw new Error("async listener boom"); });
      api.events.on("ping", () => api.log("second listener still ran"));
      api.setTimeout(() => { throw new Error("timer boom"); }, 0);
      api.tools.register({ name: "fine" }, () => "still fine");
    `);
    await expect(half.call("throws", {})).rejects.toMatchObject({ publicCode: "extension_tool_failed", message: expect.stringMatching(/handler boom/) });
    expect(half.lastFailure()).toMatch(/handler boom/);
    await expect(half.call("rejects", {})).rejects.toMatchObject({ message: expect.stringMatching(/RangeError: async boom/) });
    await expect(half.call("bad_result", {})).rejects.toMatchObject({ message: expect.stringMatching(/not JSON/) });
    await expect(half.call("throws_value", {})).rejects.toMatchObject({ message: expect.stringMatching(/weird/) });
    await expect(half.request("h", {})).rejects.toMatchObject({ message: expect.stringMatching(/handle boom/) });
    await expect.poll(() => half.logs().join("\n")).toMatch(/timer: Error: timer boom/);
    half.emit("ping", {});
    await expect.poll(() => half.logs().join("\n")).toMatch(/async listener boom/);
    expect(half.logs().join("\n")).toMatch(/event ping: Error: listener boom/);
    expect(half.logs()).toContain("second listener still ran");
    expect(await half.call("fine", {})).toBe("still fine");
    expect(half.state()).toBe("running");

    // Through the tool runtime the model gets an error result, not a thrown exception.
    const { createToolRuntime } = await import("../../src/agent/runtime.js");
    const outcome = await createToolRuntime({ registry: t.registry })
      .invoke({ sessionId: "s1", workspace: "/ws", callId: "c", name: "throws", args: {}, signal: new AbortController().signal });
    expect(outcome.status).toBe("error");
    expect(outcome.rendered).toMatch(/^Error \[extension_tool_failed\]: tool throws failed: Error: handler boom/);
    await hostIsFine();
  });
});
