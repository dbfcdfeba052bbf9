import { EventEmitter } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { whenQuiet } from "../../src/core/when-quiet.js";

describe("whenQuiet: the warm-up starts when the server is quiet (#17 item 2)", () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it("waits until no request arrived for quietMs", () => {
    const server = new EventEmitter();
    const fn = vi.fn();
    whenQuiet(server, fn, { quietMs: 100, maxMs: 2000 });
    vi.advanceTimersByTime(60);
    server.emit("request");
    vi.advanceTimersByTime(60);
    server.emit("request");
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    // It stops listening once it ran.
    expect(server.listenerCount("request")).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("runs after maxMs however busy the server is", () => {
    const server = new EventEmitter();
    const fn = vi.fn();
    whenQuiet(server, fn, { quietMs: 100, maxMs: 500 });
    for (let t = 0; t < 480; t += 40) {
      server.emit("request");
      vi.advanceTimersByTime(40);
    }
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(40);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it("the disposer cancels a run that has not started", () => {
    const server = new EventEmitter();
    const fn = vi.fn();
    const cancel = whenQuiet(server, fn, { quietMs: 100 });
    cancel();
    vi.advanceTimersByTime(5000);
    expect(fn).not.toHaveBeenCalled();
    expect(server.listenerCount("request")).toBe(0);
  });
});
