import { describe, expect, it } from "vitest";
import { createBus } from "../../src/core/events.js";

type Events = { "tool.called": { name: string }; "session.item.added": number };

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("event bus", () => {
  it("delivers typed payloads to listeners until their disposer runs", async () => {
    const bus = createBus<Events>();
    const seen: string[] = [];
    const off = bus.on("tool.called", ({ name }) => void seen.push(name));
    bus.emit("tool.called", { name: "a" });
    bus.emit("session.item.added", 1);
    await off();
    await off();
    bus.emit("tool.called", { name: "b" });
    expect(seen).toEqual(["a"]);
    expect(bus.listenerCount("tool.called")).toBe(0);
  });

  it("treats the same function registered twice as two registrations", async () => {
    const bus = createBus<Events>();
    let calls = 0;
    const fn = () => void calls++;
    const off = bus.on("session.item.added", fn);
    bus.on("session.item.added", fn);
    bus.emit("session.item.added", 1);
    await off();
    bus.emit("session.item.added", 2);
    expect(calls).toBe(3);
  });

  it("isolates throwing and rejecting listeners and reports them", async () => {
    const errors: [string, string][] = [];
    const bus = createBus<Events>({ onError: (e, type) => errors.push([type, (e as Error).message]) });
    const seen: number[] = [];
    bus.on("session.item.added", () => { throw new Error("sync"); });
    bus.on("session.item.added", async () => { throw new Error("async"); });
    bus.on("session.item.added", (n) => void seen.push(n));
    expect(() => bus.emit("session.item.added", 7)).not.toThrow();
    await tick();
    expect(seen).toEqual([7]);
    expect(errors).toEqual([["session.item.added", "sync"], ["session.item.added", "async"]]);
  });

  it("does not break emit when there is no error reporter or it throws itself", () => {
    const bus = createBus<Events>({ onError: () => { throw new Error("reporter"); } });
    const seen: number[] = [];
    bus.on("session.item.added", () => { throw new Error("listener"); });
    bus.on("session.item.added", (n) => void seen.push(n));
    bus.emit("session.item.added", 1);
    expect(seen).toEqual([1]);
  });

  it("iterates events, buffering while the consumer is busy, and ends on abort", async () => {
    const bus = createBus<Events>();
    const controller = new AbortController();
    const iterable = bus.iterate("session.item.added", controller.signal);
    bus.emit("session.item.added", 1);
    bus.emit("session.item.added", 2);
    const seen: number[] = [];
    const consumer = (async () => {
      for await (const n of iterable) {
        seen.push(n);
        await tick();
        if (n === 3) controller.abort();
      }
    })();
    await tick();
    bus.emit("session.item.added", 3);
    await consumer;
    bus.emit("session.item.added", 4);
    expect(seen).toEqual([1, 2, 3]);
    expect(bus.listenerCount("session.item.added")).toBe(0);
  });

  it("removes the listener when the consumer stops early", async () => {
    const bus = createBus<Events>();
    const signal = new AbortController().signal;
    const consumer = (async () => {
      for await (const n of bus.iterate("session.item.added", signal)) return n;
      return -1;
    })();
    await tick();
    expect(bus.listenerCount("session.item.added")).toBe(1);
    bus.emit("session.item.added", 5);
    expect(await consumer).toBe(5);
    expect(bus.listenerCount("session.item.added")).toBe(0);
  });

  it("ends a pending next() when the signal aborts and yields nothing for an aborted signal", async () => {
    const bus = createBus<Events>();
    const controller = new AbortController();
    const iterator = bus.iterate("session.item.added", controller.signal);
    const pending = iterator.next();
    controller.abort();
    expect(await pending).toEqual({ value: undefined, done: true });
    const never = bus.iterate("session.item.added", AbortSignal.abort());
    bus.emit("session.item.added", 1);
    expect(await never.next()).toEqual({ value: undefined, done: true });
    expect(bus.listenerCount("session.item.added")).toBe(0);
  });
});
