import { describe, expect, it } from "vitest";
import type { Outbound } from "../../src/extensions/runner.js";
import { rejection } from "../support/errors.js";
import { setup } from "./helpers.js";

/**
 * Deep and huge values crossing the bridge, and timer floods (hardening #12 item 4, EXT-3): refused at
 * once with a typed error the extension and the log see; the extension keeps running.
 */

/** Builds a `depth`-deep `{ a: { a: … } }` inside the extension. */
const DEEP = `const deep = (depth) => { let o = { leaf: true }; for (let i = 1; i < depth; i++) o = { a: o }; return o; };`;

const within = async <T>(ms: number, p: Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms); });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
};

describe("host-half bridge limits (EXT-3, hardening #12 item 4)", () => {
  it.each(["tool", "handler"] as const)("a 10,000-deep %s result is refused at once (result_too_deep); the half keeps answering", async (target) => {
    const t = setup();
    const half = await t.start(`${DEEP}
      api.tools.register({ name: "deep" }, () => deep(10000));
      api.handle("deep", async () => deep(10000));
      api.tools.register({ name: "ping" }, () => "pong");
    `);
    const started = Date.now();
    const error = await within(1_000, rejection(target === "tool" ? half.call("deep", {}) : half.request("deep", {})));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error.code).toBe("bad_input:extensions");
    expect(error.publicCode).toBe("result_too_deep");
    expect(error.message).toMatch(/nested deeper than 128 levels/);
    expect(half.state()).toBe("running");
    expect(half.logs().join("\n")).toMatch(/result_too_deep.*deeper than 128 levels/);
    expect(half.lastFailure()).toMatch(/deeper than 128 levels/);
    expect(await half.call("ping", {})).toBe("pong");
  });

  it("a result exactly at the depth limit passes, one level more is refused", async () => {
    const t = setup();
    const half = await t.start(`${DEEP}
      api.tools.register({ name: "at" }, () => deep(128));
      api.tools.register({ name: "over" }, () => deep(129));
      api.tools.register({ name: "arrays" }, () => { let a = []; for (let i = 0; i < 200; i++) a = [a]; return a; });
    `);
    const value = await half.call("at", {});
    let depth = 0;
    for (let o = value as { a?: unknown } | undefined; o && typeof o === "object"; o = o.a as { a?: unknown }) depth++;
    expect(depth).toBe(128);
    await expect(half.call("over", {})).rejects.toMatchObject({ publicCode: "result_too_deep" });
    await expect(half.call("arrays", {})).rejects.toMatchObject({ publicCode: "result_too_deep" });
    expect(half.state()).toBe("running");
  });

  it("a 50 MB string result is refused at once (result_too_large) without copying it to the host", async () => {
    const t = setup();
    const half = await t.start(`
      api.tools.register({ name: "huge" }, () => "x".repeat(50 * 1024 * 1024));
      api.tools.register({ name: "wide" }, () => new Array(2000000).fill(7));
      api.tools.register({ name: "fine" }, () => "y".repeat(1000));
    `);
    const before = process.memoryUsage().heapUsed;
    const started = Date.now();
    const error = await within(1_000, rejection(half.call("huge", {})));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error.code).toBe("bad_input:extensions");
    expect(error.publicCode).toBe("result_too_large");
    expect(error.message).toMatch(/larger than 262,144 characters of JSON/);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(20 * 1024 * 1024);
    await expect(within(2_000, half.call("wide", {}))).rejects.toMatchObject({ publicCode: "result_too_large" });
    expect(half.state()).toBe("running");
    expect(half.logs().join("\n")).toMatch(/result_too_large/);
    expect(await half.call("fine", {})).toBe("y".repeat(1000));
  });

  it("a deep or huge api.send / api.events.emit throws in the extension, is logged, and delivers nothing", async () => {
    const t = setup();
    const half = await t.start(`${DEEP}
      const attempt = (what, fn) => { try { fn(); api.log(what, "delivered"); } catch (e) { api.log(what, "refused:", e.message); } };
      api.tools.register({ name: "go" }, () => {
        attempt("deep send", () => api.send(deep(10000)));
        attempt("deep emit", () => api.events.emit("deep", deep(10000)));
        attempt("huge send", () => api.send("x".repeat(1024 * 1024)));
        attempt("huge emit", () => api.events.emit("huge", { s: "x".repeat(1024 * 1024) }));
        return "done";
      });
    `);
    const outbound: Outbound[] = [];
    half.onOutbound((m) => outbound.push(m));
    expect(await within(2_000, half.call("go", {}))).toBe("done");
    const logs = half.logs().join("\n");
    expect(logs).toMatch(/deep send refused: api\.send: the message is nested deeper than 128 levels/);
    expect(logs).toMatch(/deep emit refused: api\.events\.emit: the payload is nested deeper than 128 levels/);
    expect(logs).toMatch(/huge send refused: api\.send: the message is larger than 65,536 characters of JSON/);
    expect(logs).toMatch(/huge emit refused: api\.events\.emit: the payload is larger than 65,536 characters of JSON/);
    // The host's own line, besides what the extension chose to log.
    expect(half.logs().filter((l) => l.startsWith("[limit] api.send:"))).toHaveLength(2);
    expect(half.logs().filter((l) => l.startsWith("[limit] api.events.emit:"))).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outbound).toEqual([]);
    expect(half.takeSent()).toEqual([]);
    expect(half.state()).toBe("running");
  });

  it("tampering with its own realm does not get a deep or huge value past the bridge", async () => {
    const t = setup();
    const half = await t.start(`${DEEP}
      const real = JSON.stringify;
      JSON.stringify = (v) => real(v && typeof v === "object" ? {} : v);
      Array.isArray = () => false;
      Array.prototype.push = function () { return 0; };
      Array.prototype.pop = function () { return undefined; };
      for (let i = 0; i < 300; i++) Object.defineProperty(Object.prototype, String(i), { set() {}, get() { return undefined; }, configurable: true });
      api.tools.register({ name: "deep" }, () => deep(10000));
      api.tools.register({ name: "huge" }, () => ({ s: "x".repeat(1024 * 1024) }));
      api.tools.register({ name: "send" }, () => { try { api.send(deep(10000)); return "sent"; } catch (e) { return e.message; } });
    `);
    await expect(within(1_000, half.call("deep", {}))).rejects.toMatchObject({ publicCode: "result_too_deep" });
    await expect(within(1_000, half.call("huge", {}))).rejects.toMatchObject({ publicCode: "result_too_large" });
    expect(await half.call("send", {})).toMatch(/nested deeper than 128 levels/);
    expect(half.takeSent()).toEqual([]);
    expect(half.state()).toBe("running");
  });

  it("a self-re-arming 0 ms timer chain is throttled to the timer budget; the failure names it", async () => {
    const t = setup();
    const half = await t.start(`
      let fired = 0;
      api.setTimeout(function f() { fired++; api.setTimeout(f, 0); }, 0);
      api.tools.register({ name: "fired" }, () => fired);
    `, { maxTimerCallbacksPerSecond: 50 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const fired = await half.call("fired", {}) as number;
    // At most two budget windows passed (the first may have started when the worker did).
    expect(fired).toBeGreaterThan(40);
    expect(fired).toBeLessThanOrEqual(3 * 50);
    expect(half.state()).toBe("running");
    await expect.poll(() => half.lastFailure()).toMatch(/timer budget: .*more than 50 timer callbacks per second/);
    expect(half.logs().join("\n")).toMatch(/\[limit\] timer budget: deferred \d+ timer callback/);
  });

  it("timers within the budget run on time", async () => {
    const t = setup();
    const half = await t.start(`
      let fired = 0;
      for (let i = 0; i < 20; i++) api.setTimeout(() => { fired++; }, 0);
      api.tools.register({ name: "fired" }, () => fired);
    `, { maxTimerCallbacksPerSecond: 50 });
    await expect.poll(() => half.call("fired", {}), { timeout: 500 }).toBe(20);
    expect(half.lastFailure()).toBeNull();
  });
});
