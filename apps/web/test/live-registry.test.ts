import type { LiveTopic, McpServerView, SessionEvent } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { createLiveRegistry } from "@/trpc/live-registry";

/** A registry whose recomputations run when the test flushes them (one burst = one flush). */
function setup() {
  const published: LiveTopic[][] = [];
  const queue: (() => void)[] = [];
  const registry = createLiveRegistry((topics) => published.push(topics), (fn) => queue.push(fn));
  const flush = () => queue.splice(0).forEach((fn) => fn());
  return { registry, published, flush };
}

describe("the page's live stream registry", () => {
  it("publishes the sorted topic set once per burst of mounts, and not again while it is unchanged", () => {
    const { registry, published, flush } = setup();
    registry.register("mcp", { current: { onData: () => {} } });
    registry.register("sessions", { current: { onData: () => {} } });
    const off = registry.register("mcp", { current: { onData: () => {} } });
    flush();
    expect(published).toEqual([["mcp", "sessions"]]);
    off(); // another watcher of mcp remains
    flush();
    expect(published).toHaveLength(1);
  });

  it("drops a topic when its last watcher leaves, so the stream resubscribes without it", () => {
    const { registry, published, flush } = setup();
    const a = registry.register("lsp", { current: { onData: () => {} } });
    const b = registry.register("session:abc", { current: { onData: () => {} } });
    flush();
    a();
    flush();
    b();
    flush();
    expect(published).toEqual([["lsp", "session:abc"], ["session:abc"], []]);
    expect(registry.topics()).toEqual([]);
  });

  it("hands each data event to its own topic's watchers, typed by topic", () => {
    const { registry } = setup();
    const mcp: McpServerView[][] = [];
    const session: SessionEvent[] = [];
    const other: SessionEvent[] = [];
    registry.register("mcp", { current: { onData: (list) => mcp.push(list) } });
    registry.register("session:one", { current: { onData: (event) => session.push(event) } });
    registry.register("session:two", { current: { onData: (event) => other.push(event) } });
    registry.dispatch({ kind: "data", topic: "mcp", data: [] });
    const event: SessionEvent = { type: "delta", itemId: "i1", text: "hi" };
    registry.dispatch({ kind: "data", topic: "session:one", data: event });
    expect(mcp).toEqual([[]]);
    expect(session).toEqual([event]);
    expect(other).toEqual([]);
  });

  it("tells every watcher when the stream (re)starts, and only the topic's watchers about its error", () => {
    const { registry } = setup();
    const calls: string[] = [];
    registry.register("mcp", { current: { onData: () => {}, onStarted: () => calls.push("mcp started"), onError: (m) => calls.push(`mcp: ${m}`) } });
    registry.register("lsp", { current: { onData: () => {}, onStarted: () => calls.push("lsp started"), onError: (m) => calls.push(`lsp: ${m}`) } });
    registry.dispatch({ kind: "started" });
    registry.dispatch({ kind: "error", topic: "lsp", message: "boom" });
    expect(calls).toEqual(["mcp started", "lsp started", "lsp: boom"]);
  });

  it("calls the handler a component holds now, and none after it unregistered, even mid-dispatch", () => {
    const { registry } = setup();
    const seen: string[] = [];
    const ref = { current: { onData: () => seen.push("old") } };
    registry.register("sessions", ref);
    ref.current = { onData: () => seen.push("new") };
    let offB = () => {};
    registry.register("sessions", { current: { onData: () => { seen.push("a"); offB(); } } });
    offB = registry.register("sessions", { current: { onData: () => seen.push("b") } });
    registry.dispatch({ kind: "data", topic: "sessions", data: [] });
    registry.dispatch({ kind: "data", topic: "sessions", data: [] });
    // The first dispatch works on a copy of the watchers, so "b" still gets that one event; not the next.
    expect(seen).toEqual(["new", "a", "b", "new", "a"]);
  });
});
