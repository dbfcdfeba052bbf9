import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ContextUsage, SessionEvent, TimelineItem, TurnInfo } from "@seam/shared";
import { createContextMeter, toolTokens } from "../../src/agent/context.js";
import { systemPrompt } from "../../src/agent/prompt.js";
import { createToolRegistry, type ToolRegistry } from "../../src/agent/registry.js";
import { createToolSet, DEFAULT_BUDGET } from "../../src/agent/tool-set.js";
import { defineTool } from "../../src/agent/tool.js";
import { countText, MESSAGE_OVERHEAD } from "../../src/agent/tokens.js";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { viewOfTimeline } from "../../src/agent/model-view.js";
import { startScriptedHost } from "../support/host.js";

const scripts = [{
  name: "context-test",
  turns: [
    { match: "README", steps: [
      { text: ["Reading it."], toolCalls: [{ name: "read_file", args: { path: "README.md" } }] },
      { text: ["It says: ", "{{tool_result}}"] },
    ] },
  ],
}];

let scope: Scope;
let host: HostApi;
let workspace: string;

beforeAll(async () => {
  ({ scope, host } = await startScriptedHost(scripts, "context-test"));
  workspace = mkdtempSync(join(tmpdir(), "seam-ctx-"));
  writeFileSync(join(workspace, "README.md"), `# Fixture\n${"Some words for the model to read. ".repeat(200)}\n`);
});
afterAll(async () => {
  await scope?.dispose();
});

const sumOfParts = (c: ContextUsage) => c.system + c.tools + c.history;

/** Runs `start` and collects the session's events until its turn ends. */
async function collect(sessionId: string, start: () => Promise<unknown>) {
  const controller = new AbortController();
  const events: SessionEvent[] = [];
  let ended!: () => void;
  const done = new Promise<void>((r) => (ended = r));
  const pump = (async () => {
    for await (const e of host.live.session(sessionId, controller.signal)) {
      events.push(e);
      // The context event after the turn's end is the last one the turn sends.
      if (e.type === "context" && events.some((x) => x.type === "turn" && x.turn.status !== "running")) ended();
    }
  })();
  await start();
  await done;
  controller.abort();
  await pump;
  return events;
}

describe("context accounting against a real host (CTX-1)", () => {
  it("CTX-1: a new session's next request is the system prompt plus the visible tool specs, and the total is the sum of its parts", async () => {
    const session = await host.sessions.create({ workspace });
    const c = await host.sessions.context(session.id);
    expect(c.history).toBe(0);
    expect(c.system).toBe(countText(systemPrompt(workspace)));
    const tools = await host.tools.list(session.id);
    // Under the deferral budget every tool is sent, and tool_search (registered for when they are not) is not (CTX-3).
    expect(c.toolCount).toBe(tools.filter((t) => t.name !== "tool_search").length);
    expect(c.deferred).toBe(0);
    expect(c.loaded).toEqual([]);
    expect(c.tools).toBeGreaterThan(c.toolCount * 10);
    expect(c.total).toBe(sumOfParts(c));
    // The test host wires no window: it says so instead of guessing.
    expect(c.window).toBeNull();
    expect(c.percent).toBeNull();
    expect(c.lastReported).toBeNull();
  });

  it("CTX-1: grows by the message and the tool result after a turn; a context event follows each model step and the turn's end", async () => {
    const session = await host.sessions.create({ workspace });
    const before = await host.sessions.context(session.id);
    const events = await collect(session.id, () => host.sessions.send({ sessionId: session.id, text: "read the README" }));
    const contexts = events.flatMap((e) => (e.type === "context" ? [e.context] : []));
    // Two model steps plus the turn's end.
    expect(contexts).toHaveLength(3);
    const endAt = events.findIndex((e) => e.type === "turn" && e.turn.status !== "running");
    const firstContext = events.findIndex((e) => e.type === "context");
    expect(firstContext).toBeLessThan(endAt);
    // The first step's context comes before its tool call runs.
    expect(firstContext).toBeLessThan(events.findIndex((e) => e.type === "item" && e.item.kind === "tool_call"));
    const after = await host.sessions.context(session.id);
    expect(contexts.at(-1)).toEqual(after);
    expect(after.history).toBeGreaterThan(before.history + countText("Some words for the model to read. ".repeat(200)) - 10);
    expect(after.total).toBe(sumOfParts(after));
    expect(after.system).toBe(before.system);
    expect(after.tools).toBe(before.tools);
    // The provider's usage for the last step is shown beside the estimate.
    expect(after.lastReported).toBeGreaterThan(0);
    expect(contexts[0]!.lastReported).toBeGreaterThan(0);
  });

  it("CTX-1: a tool result the user runs by hand is counted too", async () => {
    const session = await host.sessions.create({ workspace });
    const before = await host.sessions.context(session.id);
    const events = await collect(session.id, () => host.sessions.callTool({ sessionId: session.id, name: "read_file", args: { path: "README.md" } }));
    const last = events.filter((e) => e.type === "context").at(-1);
    const after = await host.sessions.context(session.id);
    expect(last?.type === "context" && last.context).toEqual(after);
    expect(after.history - before.history).toBeGreaterThan(countText("Some words for the model to read. ".repeat(200)) - 10);
    expect(after.total).toBe(sumOfParts(after));
  });

  it("CTX-1: an unknown session is not_found", async () => {
    await expect(host.sessions.context("no-such-session")).rejects.toMatchObject({ code: "not_found:session" });
  });
});

// What the meter reads, over in-memory items: the model view of the whole list, and the last model turn.
function memoryStore(items: TimelineItem[], turns: TurnInfo[]) {
  return {
    view: async () => viewOfTimeline(items, turns),
    lastModelTurn: async () => turns.filter((t) => t.mode === "model" && t.status !== "running").at(-1) ?? null,
  };
}
const at = "2026-01-01T00:00:00.000Z";
const turn = (id: string, mode: TurnInfo["mode"] = "model"): TurnInfo =>
  ({ id, sessionId: "s", status: "completed", steps: 1, reason: null, mode, inputTokens: 1234, outputTokens: 5, startedAt: at, endedAt: at });
const message = (id: string, seq: number, role: "user" | "assistant", text: string, state: "complete" | "streaming" = "complete"): TimelineItem =>
  ({ kind: "message", id, seq, turnId: "t1", createdAt: at, role, text, state });
const tool = (name: string, description: string) =>
  defineTool({ name, description, capability: "test", input: z.object({ path: z.string().describe("a path") }), run: async () => ({ canonical: null, rendered: "" }) });

/** Every visible tool sent (nothing deferrable in these tests). */
const toolsOf = (registry: ToolRegistry) =>
  createToolSet({ registry, loaded: { get: async () => new Set<string>(), add: async () => {}, forget: () => {} }, budget: async () => DEFAULT_BUDGET });

describe("the context meter (CTX-1)", () => {
  it("CTX-1: history is each message's tokens plus a per-message overhead; it grows with a message and a tool result", async () => {
    const items: TimelineItem[] = [message("m1", 1, "user", "Please read the file.")];
    const meter = createContextMeter({ ...memoryStore(items, [turn("t1")]), toolSet: toolsOf(createToolRegistry()), window: async () => ({ value: 1000, source: "setting" }) });
    const a = await meter.measure("s", "/ws");
    expect(a.history).toBe(countText("Please read the file.") + MESSAGE_OVERHEAD);
    expect(a.tools).toBe(0);
    expect(a.toolCount).toBe(0);
    items.push({
      kind: "tool_call", id: "c1", seq: 2, turnId: "t1", createdAt: at, callId: "call-1", name: "read_file", args: { path: "a.txt" },
      status: "ok", canonical: null, rendered: "file contents ".repeat(50), error: null, startedAt: at, endedAt: at,
    });
    const b = await meter.measure("s", "/ws");
    // The call joins an assistant message (name + JSON args) and its result is a tool message.
    const call = countText("read_file") + countText(JSON.stringify({ path: "a.txt" })) + countText("file contents ".repeat(50));
    expect(b.history).toBe(a.history + call + 2 * MESSAGE_OVERHEAD);
    expect(b.total).toBe(b.system + b.tools + b.history);
    expect(b.system).toBe(countText(systemPrompt("/ws")));
    expect(b.window).toBe(1000);
    expect(b.windowSource).toBe("setting");
    expect(b.percent).toBe(Math.round((b.total / 1000) * 1000) / 10);
    // A one-step turn's usage is the last request's size when the meter heard nothing itself.
    expect(b.lastReported).toBe(1234);
    meter.reported("s", 777);
    expect((await meter.measure("s", "/ws")).lastReported).toBe(777);
  });

  it("CTX-1: a streaming message is counted afresh, finished items from the cache, deleted items dropped", async () => {
    const items: TimelineItem[] = [message("m1", 1, "user", "hi"), message("m2", 2, "assistant", "Once", "streaming")];
    const meter = createContextMeter({ ...memoryStore(items, [turn("t1")]), toolSet: toolsOf(createToolRegistry()), window: async () => ({ value: null, source: "unknown" }) });
    const a = await meter.measure("s", "/ws");
    items[1] = message("m2", 2, "assistant", "Once upon a time there was a very long story.", "complete");
    const b = await meter.measure("s", "/ws");
    expect(b.history - a.history).toBe(countText("Once upon a time there was a very long story.") - countText("Once"));
    items.splice(1, 1);
    const c = await meter.measure("s", "/ws");
    expect(c.history).toBe(countText("hi") + MESSAGE_OVERHEAD);
    expect(c.percent).toBeNull();
  });

  it("CTX-1: counts every visible tool spec — name, description with guidance, JSON schema — global and the session's own", async () => {
    const registry = createToolRegistry();
    const meter = createContextMeter({ ...memoryStore([], []), toolSet: toolsOf(registry), window: async () => ({ value: null, source: "unknown" }) });
    const read = tool("read_file", "Reads a file.");
    registry.register(read);
    const a = await meter.measure("s", "/ws");
    expect(a.tools).toBe(toolTokens(read));
    expect(toolTokens(read)).toBe(countText("read_file") + countText("Reads a file.") + countText(JSON.stringify(read.inputSchema)));
    const guided = { ...tool("grep", "Searches."), guidance: "Prefer grep over reading every file." };
    registry.register(guided, { sessionId: "s" });
    registry.register(tool("theirs", "Another session's tool."), { sessionId: "other" });
    const b = await meter.measure("s", "/ws");
    expect(b.toolCount).toBe(2);
    expect(b.tools).toBe(toolTokens(read) + toolTokens(guided));
    expect(toolTokens(guided)).toBeGreaterThan(countText("grep") + countText("Searches.") + countText(JSON.stringify(guided.inputSchema)));
  });

  it("CTX-1: text with special-token markers is counted as plain text, not refused", () => {
    expect(countText("a <|endoftext|> b")).toBeGreaterThan(3);
    expect(countText("")).toBe(0);
  });
});
