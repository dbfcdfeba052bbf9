import type { McpLogEvent } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { createApprovalBroker } from "../../src/permissions/broker.js";
import { createClientHub, NO_SESSION_REASON } from "../../src/mcp/client-hub.js";
import { LogRing, logText, MCP_LOG_TEXT_MAX } from "../../src/mcp/log-ring.js";
import { createRootsWatch, rootsOf } from "../../src/mcp/roots.js";
import type { Log } from "../../src/core/log.js";

const log = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Log;
const form = { mode: "form" as const, message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } };

describe("client hub (MCP-12, MCP-13)", () => {
  it("an elicitation outside any tool call is declined with the reason", async () => {
    const hub = createClientHub({ broker: createApprovalBroker(), roots: async () => [], log });
    const reply = await hub.forServer("s").surface.elicit(form, new AbortController().signal);
    expect(reply).toEqual({ action: "decline", reason: NO_SESSION_REASON });
  });

  it("during a call it waits in that call's session; the server giving up cancels it", async () => {
    const broker = createApprovalBroker();
    const hub = createClientHub({ broker, roots: async () => [], log });
    const server = hub.forServer("s");
    const untrack = server.track({ sessionId: "sess", callId: "call", tool: "mcp__s__t", signal: new AbortController().signal });
    const serverGaveUp = new AbortController();
    const reply = server.surface.elicit(form, serverGaveUp.signal);
    expect(hub.elicitations()).toMatchObject([{ sessionId: "sess", callId: "call", server: "s", tool: "mcp__s__t", mode: "form", message: "Who?" }]);
    serverGaveUp.abort();
    expect(await reply).toMatchObject({ action: "cancel" });
    expect(hub.elicitations()).toEqual([]);
    untrack();
    expect(await server.surface.elicit(form, new AbortController().signal)).toMatchObject({ action: "decline" });
  });

  it("answers: a URL request is accepted without content; a tool approval's id is not an elicitation's", async () => {
    const broker = createApprovalBroker();
    const hub = createClientHub({ broker, roots: async () => [], log });
    const server = hub.forServer("s");
    server.track({ sessionId: "sess", callId: "call", tool: "t", signal: new AbortController().signal });
    const reply = server.surface.elicit({ mode: "url", message: "Sign in", url: "https://example.com/auth", elicitationId: "e1" }, new AbortController().signal);
    const [view] = hub.elicitations();
    expect(view).toMatchObject({ mode: "url", url: "https://example.com/auth", elicitationId: "e1", requestedSchema: null });
    const approval = broker.ask({ kind: "tool_call", sessionId: "sess", about: { capability: "permissions", noun: "approval request" }, view: () => ({}) }, new AbortController().signal);
    const approvalId = broker.pending("tool_call")[0]!.id;
    expect(() => hub.answer({ id: approvalId, action: "decline" })).toThrow(/another kind of request/);
    hub.answer({ id: view!.id, action: "accept", content: {} });
    expect(await reply).toEqual({ action: "accept" });
    broker.answer(approvalId, "x", { capability: "permissions", noun: "approval request" });
    await approval;
  });

  it("keeps each server's logs, tells the live topic, and a new run starts empty", () => {
    const hub = createClientHub({ broker: createApprovalBroker(), roots: async () => [], log });
    const events: McpLogEvent[] = [];
    const ctl = new AbortController();
    const it = hub.live.mcpLogs(ctl.signal)[Symbol.asyncIterator]();
    void (async () => {
      for (;;) {
        const r = await it.next();
        if (r.done) return;
        events.push(r.value);
      }
    })();
    const server = hub.forServer("s");
    server.surface.logLevel("info");
    server.surface.log({ level: "warning", logger: "core", data: { n: 1 } });
    server.surface.log({ level: "debug", logger: null, data: "quiet" });
    expect(hub.logs({ name: "s" })).toMatchObject({ level: "info", supported: true, entries: [{ seq: 1, level: "warning", logger: "core", text: '{"n":1}' }, { seq: 2 }] });
    expect(hub.logs({ name: "s", minLevel: "warning" }).entries.map((e) => e.seq)).toEqual([1]);
    hub.forServer("s");
    expect(hub.logs({ name: "s" }).entries).toEqual([]);
    ctl.abort();
  });

  it("setLogLevel: refused for a server that does not log; otherwise sent on the live connection and kept for the next", async () => {
    const hub = createClientHub({ broker: createApprovalBroker(), roots: async () => [], log });
    const server = hub.forServer("s");
    await expect(hub.setLogLevel({ name: "s", level: "debug" })).rejects.toThrow(/does not declare logging/);
    server.surface.logLevel("info");
    const sent: string[] = [];
    const off = server.surface.levelSetter(async (l) => {
      sent.push(l);
      return l;
    });
    expect(server.surface.wantedLogLevel()).toBe("info");
    expect(await hub.setLogLevel({ name: "s", level: "warning" })).toMatchObject({ level: "warning" });
    expect(sent).toEqual(["warning"]);
    expect(server.surface.wantedLogLevel()).toBe("warning");
    void off();
    // Between connections the choice is only kept.
    await hub.setLogLevel({ name: "s", level: "error" });
    expect(sent).toEqual(["warning"]);
    expect(server.surface.wantedLogLevel()).toBe("error");
    await expect(hub.setLogLevel({ name: "nope", level: "error" })).rejects.toThrow(/not running/);
  });

  it("roots watchers hear a change; the hub says whether any connection listens and when one starts to", () => {
    let started = 0;
    const hub = createClientHub({ broker: createApprovalBroker(), roots: async () => [], rootsWatched: () => started++, log });
    expect(hub.watchingRoots()).toBe(false);
    let told = 0;
    const off = hub.forServer("s").surface.watchRoots(() => told++);
    expect([hub.watchingRoots(), started]).toEqual([true, 1]);
    hub.rootsChanged();
    void off();
    expect(hub.watchingRoots()).toBe(false);
    hub.rootsChanged();
    expect(told).toBe(1);
  });
});

describe("log ring and roots", () => {
  it("is bounded: the oldest entries go first", () => {
    const ring = new LogRing(500);
    for (let i = 0; i < 600; i++) ring.push({ level: "info", logger: null, data: `m${i}` });
    const entries = ring.list();
    expect(entries).toHaveLength(500);
    expect(entries[0]).toMatchObject({ seq: 101, text: "m100" });
    expect(entries.at(-1)).toMatchObject({ seq: 600, text: "m599" });
  });

  it("cuts long text and renders data as JSON", () => {
    expect(logText("x".repeat(MCP_LOG_TEXT_MAX + 10))).toMatch(/… \(cut: 8202 characters\)$/);
    expect(logText({ a: [1] })).toBe('{"a":[1]}');
    expect(logText(undefined)).toBe("undefined");
  });

  it("roots: each workspace once, as file:// URIs named after the folder", () => {
    expect(rootsOf(["/a/one", "/b/two", "/a/one"])).toEqual([{ uri: "file:///a/one", name: "one" }, { uri: "file:///b/two", name: "two" }]);
  });

  it("roots watch (MCP-13): reads nothing while no connection listens; then records the roots, and tells listeners only when the set changes", async () => {
    let workspaces = ["/a"];
    let reads = 0;
    let listening = false;
    let changed = 0;
    const failures: unknown[] = [];
    const watch = createRootsWatch({
      roots: async () => {
        reads++;
        return rootsOf(workspaces);
      },
      listening: () => listening,
      changed: () => changed++,
      failed: (error) => failures.push(error),
    });
    const settle = () => new Promise((r) => setTimeout(r, 0));
    watch.check();
    workspaces = ["/a", "/b"];
    watch.check();
    await settle();
    expect([reads, changed]).toEqual([0, 0]);

    // A connection starts listening: its first check records what it will list, and tells nobody.
    listening = true;
    watch.check();
    await settle();
    expect([reads, changed]).toEqual([1, 0]);
    // The same set in another order is no change; a new workspace is.
    workspaces = ["/b", "/a"];
    watch.check();
    await settle();
    expect([reads, changed]).toEqual([2, 0]);
    workspaces = ["/b", "/a", "/c"];
    // Changes that come while a check waits share one read.
    watch.check();
    watch.check();
    watch.check();
    await settle();
    expect([reads, changed]).toEqual([3, 1]);

    // Nobody listens again: nothing is read; a later listener starts from a fresh record.
    listening = false;
    workspaces = ["/d"];
    watch.check();
    listening = true;
    watch.check();
    await settle();
    expect([reads, changed]).toEqual([4, 1]);
    expect(failures).toEqual([]);
  });
});
