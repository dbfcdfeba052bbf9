import { afterEach, describe, expect, it, vi } from "vitest";
import { listChildren } from "../../src/core/process.js";
import { createScope } from "../../src/core/scope.js";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createMcpHub } from "../../src/mcp/hub.js";
import { backoffDelay } from "../../src/mcp/supervisor.js";
import { createTransport, type TransportFactory, type TransportHandle } from "../../src/mcp/transport.js";
import { fixture, invoker, isRunning, ManualClock, memoryLog, waitForState } from "./helpers.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const SCHEDULE = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000];
const running = (prefix = "mcp:") => listChildren().filter((c) => c.label.startsWith(prefix) && c.state === "running");

async function setup(options: { transport?: TransportFactory } = {}) {
  const scope = createScope("test");
  const clock = new ManualClock();
  const registry = createToolRegistry();
  const log = memoryLog();
  const hub = createMcpHub(scope, { registry, log, clock, transport: options.transport });
  const f = fixture("fx");
  cleanups.push(f.cleanup);
  await hub.start(f.config);
  const call = invoker(registry);
  const crash = async () => expect((await call("mcp__fx__fixture", { crash: true })).rendered).toBe("ok");
  /** Waits until the supervisor scheduled its next reconnection and returns that timer's delay. */
  const nextRetry = async () => {
    await vi.waitFor(() => expect(clock.pending("retry")).toHaveLength(1), { timeout: 20_000, interval: 5 });
    return clock.pending("retry")[0]!.ms;
  };
  const names = () => registry.visible().map((t) => t.name);
  return { scope, clock, registry, log, hub, f, call, crash, nextRetry, names };
}

describe("supervisor (MCP-5)", () => {
  it("computes the backoff: 500 ms doubling, capped at 30 s", () => {
    expect(Array.from({ length: 10 }, (_, i) => backoffDelay(i + 1))).toEqual(SCHEDULE);
  });

  it("keeps the last good generation visible during an outage but fails calls with generation_unavailable", async () => {
    const { scope, clock, hub, call, crash, nextRetry, names } = await setup();
    await using _ = scope;
    await crash();
    expect(await nextRetry()).toBe(500);
    const view = hub.get("fx")!;
    expect(view.status).toEqual({ state: "retrying", attempt: 1, maxAttempts: 10, nextRetryAt: new Date(clock.now() + 500).toISOString(), lastError: expect.any(String) });
    expect(view.toolsRegistered).toBe(true);
    expect(names()).toEqual(["mcp__fx__echo", "mcp__fx__fixture"]);

    const during = await call("mcp__fx__echo", { message: "hi" });
    expect(during.status).toBe("error");
    expect(during.error?.code).toBe("generation_unavailable");
    expect(during.rendered).toContain("attempt 1/10");

    clock.fire("retry");
    await waitForState(hub, "fx", "ready");
    expect(hub.get("fx")?.generation).toBe(2);
    expect((await call("mcp__fx__echo", { message: "back" })).rendered).toBe("back");
    expect(running("mcp:fx")).toHaveLength(1);
  });

  // Eleven real server processes start one after another; on a loaded 2-core machine that alone can take 30 s.
  it("follows the exact schedule for 10 attempts, then unregisters everything and stays failed until restarted", async () => {
    const { scope, clock, registry, hub, f, crash, nextRetry } = await setup();
    await using _ = scope;
    f.write({ startup: "exit" });
    await crash();
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      delays.push(await nextRetry());
      expect(hub.get("fx")?.status).toMatchObject({ state: "retrying", attempt, maxAttempts: 10 });
      clock.fire("retry");
    }
    expect(delays).toEqual(SCHEDULE);
    const failed = await waitForState(hub, "fx", "failed");
    expect(failed.status.state === "failed" && failed.status.error).toMatch(/Gave up after 10 reconnection attempts/);
    expect(failed.toolsRegistered).toBe(false);
    expect(registry.visible()).toEqual([]);
    expect(clock.pending("retry")).toHaveLength(0);
    expect(f.read().starts).toBe(11);
    expect(running("mcp:fx")).toHaveLength(0);

    // A manual restart starts over with a fresh budget.
    f.write({ startup: "ok" });
    await hub.restart("fx");
    expect(hub.get("fx")?.status.state).toBe("ready");
    expect(registry.visible().map((t) => t.name)).toEqual(["mcp__fx__echo", "mcp__fx__fixture"]);
  }, 90_000);

  it("resets the attempt budget once a connection stayed up for 30 s", async () => {
    const { scope, clock, hub, crash, nextRetry } = await setup();
    await using _ = scope;
    await crash();
    expect(await nextRetry()).toBe(500);
    clock.fire("retry");
    await waitForState(hub, "fx", "ready");

    // Up for less than 30 s: the next outage continues the budget.
    await crash();
    expect(await nextRetry()).toBe(1_000);
    expect(hub.get("fx")?.status).toMatchObject({ attempt: 2 });
    clock.fire("retry");
    await waitForState(hub, "fx", "ready");

    expect(clock.pending("stable").map((t) => t.ms)).toEqual([30_000]);
    clock.fire("stable");
    await crash();
    expect(await nextRetry()).toBe(500);
    expect(hub.get("fx")?.status).toMatchObject({ attempt: 1 });
  });

  it("stops reconnecting when the previous connection cannot prove it closed", async () => {
    let hang = false;
    const transport: TransportFactory = (scope, config) => {
      const handle = createTransport(scope, config);
      const wrapped: TransportHandle = { ...handle, kind: handle.kind, transport: handle.transport, terminate: () => (hang ? new Promise(() => {}) : handle.terminate()) };
      return wrapped;
    };
    const { scope, clock, registry, hub, crash } = await setup({ transport });
    await using _ = scope;
    hang = true;
    await crash();
    await vi.waitFor(() => expect(clock.pending("barrier")).toHaveLength(1), { timeout: 10_000, interval: 5 });
    expect(clock.pending("barrier")[0]!.ms).toBe(10_000);
    clock.fire("barrier");
    const view = await waitForState(hub, "fx", "failed");
    expect(view.status.state === "failed" && view.status.error).toMatch(/did not close within 10000 ms; not reconnecting/);
    expect(clock.pending("retry")).toHaveLength(0);
    expect(registry.visible()).toEqual([]);
    hang = false;
  });

  it("dispose cancels timers, drains attempts and leaves nothing running or registered", async () => {
    const scope = createScope("test");
    const clock = new ManualClock();
    const registry = createToolRegistry();
    const hub = createMcpHub(scope, { registry, log: memoryLog(), clock });
    const ready = fixture("ready");
    const retrying = fixture("retrying", { startup: "exit" });
    const hanging = fixture("hanging", { startup: "hang" });
    cleanups.push(ready.cleanup, retrying.cleanup, hanging.cleanup);
    await hub.start(ready.config);
    await hub.start(retrying.config);
    const pendingStart = hub.start(hanging.config).then(() => "resolved", () => "rejected");
    await vi.waitFor(() => expect(running("mcp:hanging")).toHaveLength(1), { timeout: 10_000, interval: 5 });
    const pids = running().map((c) => c.pid);
    expect(pids).toHaveLength(2);
    expect(clock.pending().map((t) => t.label).sort()).toEqual(["retry", "stable", "startup"]);

    await scope.dispose();
    expect(await pendingStart).toBe("rejected");
    expect(running()).toHaveLength(0);
    for (const pid of pids) expect(isRunning(pid)).toBe(false);
    expect(registry.visible()).toEqual([]);
    expect(clock.pending()).toEqual([]);
    expect(hub.list()).toEqual([]);
    await scope.dispose(); // idempotent
  });

  it("leaks no child process over 100 crash and restart cycles", { timeout: 300_000 }, async () => {
    const handles: TransportHandle[] = [];
    const transport: TransportFactory = (scope, config) => {
      const handle = createTransport(scope, config);
      handles.push(handle);
      return handle;
    };
    const { scope, clock, hub, crash, nextRetry, call } = await setup({ transport });
    for (let cycle = 0; cycle < 100; cycle++) {
      if (cycle % 2 === 0) {
        await crash();
        await nextRetry();
        clock.fire("retry");
        await waitForState(hub, "fx", "ready");
      } else {
        await hub.restart("fx");
      }
      expect(running("mcp:fx")).toHaveLength(1);
    }
    expect((await call("mcp__fx__echo", { message: "alive" })).rendered).toBe("alive");
    const pids = handles.map((h) => h.pid()).filter((pid): pid is number => pid !== undefined);
    expect(pids).toHaveLength(101);
    expect(new Set(pids).size).toBe(101);
    for (const pid of pids.slice(0, -1)) expect(isRunning(pid)).toBe(false);
    await scope.dispose();
    expect(running()).toHaveLength(0);
    expect(isRunning(pids.at(-1)!)).toBe(false);
  });
});
