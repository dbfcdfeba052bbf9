import type { TimelineItem } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createContextMeter } from "../../src/agent/context.js";
import { createLoadedTools, loadedFromHistory } from "../../src/agent/loaded-tools.js";
import { createToolRegistry } from "../../src/agent/registry.js";
import { defineTool, type ToolDef } from "../../src/agent/tool.js";
import { rankTools, queryWords } from "../../src/agent/tool-match.js";
import { toolSearchTool } from "../../src/agent/tool-search.js";
import { createToolSet, type ToolBudget } from "../../src/agent/tool-set.js";
import { toolTokens } from "../../src/agent/tool-tokens.js";
import type { Store } from "../../src/persistence/store.js";
import { viewOfTimeline } from "../../src/agent/model-view.js";

const at = "2026-01-01T00:00:00.000Z";
const tool = (name: string, description: string, extra: { deferrable?: boolean; source?: string } = {}): ToolDef =>
  defineTool({ name, description, capability: extra.deferrable ? "mcp" : "test", input: z.object({ message: z.string() }), ...extra, run: async (a) => ({ canonical: a, rendered: "ok" }) });

function setup(budget: Partial<ToolBudget> = {}, items: TimelineItem[] = []) {
  const registry = createToolRegistry();
  const store = { items: { list: async () => items }, turns: { list: async () => [] } } as unknown as Store;
  const loaded = createLoadedTools({ items: store.items });
  const tools = createToolSet({ registry, loaded, budget: async () => ({ maxTools: 3, maxPercent: 10, window: null, ...budget }) });
  const search = toolSearchTool({ tools });
  const ctx = { signal: new AbortController().signal, sessionId: "s", workspace: "/ws", callId: "c" };
  return { registry, store, tools, search, ctx };
}

describe("the session's tool set (CTX-3)", () => {
  it("CTX-3: under the budget every tool is sent by name and tool_search is not; past it the deferrable ones wait and tool_search joins", async () => {
    const { registry, tools, search } = setup();
    registry.register(search);
    registry.register(tool("read_file", "Reads a file."));
    registry.register(tool("mcp__gh__create_issue", "Create an issue.", { deferrable: true, source: "gh" }));
    const under = await tools.next("s");
    expect(under.tools.map((t) => t.name)).toEqual(["mcp__gh__create_issue", "read_file"]);
    expect(under).toMatchObject({ deferred: 0, loaded: [] });
    expect(under.tokens).toBe(under.tools.reduce((n, t) => n + toolTokens(t), 0));

    registry.register(tool("mcp__gh__list_repos", "List repositories.", { deferrable: true, source: "gh" }));
    registry.register(tool("zeta", "Always sent."), { sessionId: "s" });
    const over = await tools.next("s");
    expect(over.tools.map((t) => t.name)).toEqual(["read_file", "tool_search", "zeta"]);
    expect(over.specs.map((s) => s.name)).toEqual(["read_file", "tool_search", "zeta"]);
    expect(over).toMatchObject({ deferred: 2, loaded: [] });
    // Another session without the session tool is under the budget.
    expect((await tools.next("other")).tools.map((t) => t.name)).toEqual(["mcp__gh__create_issue", "mcp__gh__list_repos", "read_file"]);

    await tools.load("s", ["mcp__gh__list_repos", "no_such_tool"]);
    const loaded = await tools.next("s");
    expect(loaded.tools.map((t) => t.name)).toEqual(["read_file", "tool_search", "zeta", "mcp__gh__list_repos"]);
    expect(loaded).toMatchObject({ deferred: 1, loaded: ["mcp__gh__list_repos"] });
    // The same content while nothing changes (the spec objects are rebuilt, their JSON is the same).
    expect(JSON.stringify((await tools.next("s")).specs)).toBe(JSON.stringify(loaded.specs));
    // A later load appends, even when its name sorts first: the earlier request stays a prefix.
    await tools.load("s", ["mcp__gh__create_issue"]);
    const more = await tools.next("s");
    expect(more.loaded).toEqual(["mcp__gh__list_repos", "mcp__gh__create_issue"]);
    expect(JSON.stringify(more.specs.slice(0, loaded.specs.length))).toBe(JSON.stringify(loaded.specs));
  });

  it("CTX-3: the percent limit defers on its own; a null window leaves the count only; no tool_search registered means no deferral", async () => {
    const a = setup({ maxTools: 100, maxPercent: 10, window: 100 });
    a.registry.register(a.search);
    a.registry.register(tool("mcp__x__big", "A tool with a long description. ".repeat(20), { deferrable: true, source: "x" }));
    expect((await a.tools.next("s")).deferred).toBe(1);
    const b = setup({ maxTools: 100, maxPercent: 10, window: null });
    b.registry.register(b.search);
    b.registry.register(tool("mcp__x__big", "A tool with a long description. ".repeat(20), { deferrable: true, source: "x" }));
    expect((await b.tools.next("s")).deferred).toBe(0);
    const c = setup({ maxTools: 0 });
    c.registry.register(tool("mcp__x__a", "A.", { deferrable: true }));
    expect((await c.tools.next("s")).tools.map((t) => t.name)).toEqual(["mcp__x__a"]);
  });

  it("CTX-3: the loaded set is rebuilt from the session's successful tool_search results", async () => {
    const call = (id: string, status: "ok" | "error", canonical: unknown): TimelineItem => ({
      kind: "tool_call", id, seq: 1, turnId: "t", createdAt: at, callId: id, name: "tool_search", args: {}, status, canonical, rendered: "", error: null, startedAt: at, endedAt: at,
    });
    const items = [
      call("1", "ok", { query: "a", matches: [], loaded: ["b", "a"], searched: 2 }),
      call("2", "error", { query: "c", matches: [], loaded: ["c"], searched: 2 }),
      call("3", "ok", { not: "a result" }),
      call("4", "ok", { query: "d", matches: [], loaded: ["d"], searched: 2 }),
    ];
    expect([...(await loadedFromHistory({ list: async () => items }, "s"))]).toEqual(["b", "a", "d"]);
  });
});

describe("tool_search ranking (CTX-3)", () => {
  const tools = [
    tool("mcp__gh__create_issue", "Create an issue in a repository.", { deferrable: true, source: "gh" }),
    tool("mcp__gh__list_issues", "List issues of a repository.", { deferrable: true, source: "gh" }),
    tool("mcp__cal__list_events", "List calendar events.", { deferrable: true, source: "cal" }),
    tool("mcp__db__run_query", "Run a SQL query on the issues database.", { deferrable: true, source: "db" }),
  ];
  it("CTX-3: more query words matched first, name before description, prefixes count half; filler words are ignored", () => {
    expect(queryWords("Create an Issue for the repo")).toEqual(["create", "issue", "repo"]);
    expect(queryWords("the tool")).toEqual(["the", "tool"]);
    expect(rankTools("create issue", tools).map((m) => m.tool.name)).toEqual(["mcp__gh__create_issue", "mcp__gh__list_issues", "mcp__db__run_query"]);
    expect(rankTools("calendar", tools).map((m) => m.tool.name)).toEqual(["mcp__cal__list_events"]);
    // The server's name finds all its tools.
    expect(rankTools("gh", tools).map((m) => m.tool.name)).toEqual(["mcp__gh__create_issue", "mcp__gh__list_issues"]);
    expect(rankTools("zebra", tools)).toEqual([]);
  });

  it("CTX-3: tool_search caps the matches at 10, loads them, and says how many more there were", async () => {
    const { registry, tools: set, search, ctx } = setup();
    registry.register(search);
    for (let i = 0; i < 15; i++) registry.register(tool(`mcp__gh__tool_${String(i).padStart(2, "0")}`, `Does thing ${i}.`, { deferrable: true, source: "gh" }));
    const result = await search.run({ query: "thing" }, ctx);
    expect((result.canonical as { loaded: string[] }).loaded).toHaveLength(10);
    expect(result.rendered).toContain("Showing the best 10 of 15 matches");
    expect((await set.next("s")).loaded).toHaveLength(10);
    expect(search.parse({ query: "" })).toMatchObject({ ok: false });
    expect(search.parse({ query: "  ok  " })).toEqual({ ok: true, value: { query: "ok" } });
  });

  it("CTX-3: with nothing deferrable, tool_search says every tool is already there", async () => {
    const { search, ctx } = setup();
    const result = await search.run({ query: "anything" }, ctx);
    expect(result.rendered).toBe("No tools are deferred in this session: every tool is already in your tool definitions.");
  });
});

describe("the context meter with deferred tools (CTX-3)", () => {
  it("CTX-3: deferred and loaded are reported; the tools part drops when deferring", async () => {
    const budget: ToolBudget = { maxTools: 100, maxPercent: 10, window: null };
    const registry = createToolRegistry();
    const store = { items: { list: async () => [] }, turns: { list: async () => [] } } as unknown as Store;
    const tools = createToolSet({ registry, loaded: createLoadedTools({ items: store.items }), budget: async () => budget });
    const meter = createContextMeter({ view: async () => viewOfTimeline([], []), lastModelTurn: async () => null, window: async () => ({ value: null, source: "unknown" }), toolSet: tools });
    registry.register(toolSearchTool({ tools }));
    registry.register(tool("read_file", "Reads a file."));
    for (let i = 0; i < 30; i++) {
      registry.register(tool(`mcp__gh__t${String(i).padStart(2, "0")}`, `Tool number ${i} of the gh server: it does one thing to a repository, with options described here at some length.`, { deferrable: true, source: "gh" }));
    }
    const under = await meter.measure("s", "/ws");
    expect(under).toMatchObject({ toolCount: 31, deferred: 0, loaded: [] });
    budget.maxTools = 20;
    const over = await meter.measure("s", "/ws");
    expect(over).toMatchObject({ toolCount: 2, deferred: 30, loaded: [] });
    expect(over.tools).toBeLessThan(under.tools / 3);
    await tools.load("s", ["mcp__gh__t02"]);
    const loaded = await meter.measure("s", "/ws");
    expect(loaded).toMatchObject({ toolCount: 3, deferred: 29, loaded: ["mcp__gh__t02"] });
    expect(loaded.tools).toBeGreaterThan(over.tools);
    expect(loaded.total).toBe(loaded.system + loaded.tools + loaded.history);
  });
});
