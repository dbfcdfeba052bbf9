import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelSettings, ToolCallItem } from "@seam/shared";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startScriptedModel, type ScriptedModel } from "../../../../packages/testkit/src/index.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createHost } from "../../src/host.js";
import type { HostApi } from "../../src/host-api.js";
import { fixture, HOST_DIR } from "../mcp/helpers.js";

/**
 * CTX-3 against a real host: a real MCP peer (the steerable fixture server) with 60 tools, the scripted model
 * recording every request, the loaded set across turns, settings changes and a host restart.
 */
const VERBS = ["create", "list", "get", "update", "delete", "archive"];
const OBJECTS = ["issue", "repo", "branch", "commit", "file", "user", "label", "milestone", "release", "comment"];
const RAW = VERBS.flatMap((v) => OBJECTS.map((o) => `${v}_${o}`));
const DESCRIPTIONS = Object.fromEntries(RAW.map((n) => [n, `Fixture: ${n.split("_")[0]} one ${n.split("_")[1]}.`]));
const ISSUE_TOOLS = VERBS.map((v) => `mcp__gh__${v}_issue`).sort();

const scripts = [{
  name: "defer-test",
  turns: [
    { match: "^find issue tools", steps: [{ toolCalls: [{ name: "tool_search", args: { query: "issue" } }] }, { text: "Loaded." }] },
    { match: "^create an issue", steps: [{ toolCalls: [{ name: "mcp__gh__create_issue", args: { message: "bug" } }] }, { text: "Created." }] },
    { match: "^delete a repo", steps: [{ toolCalls: [{ name: "mcp__gh__delete_repo", args: { message: "old" } }] }, { text: "Deleted." }] },
    { match: "^just talk", steps: [{ text: "Hello." }] },
  ],
}];

const MODEL_ID = "defer-test";
type Body = { tools?: { type: string; function: { name: string } }[] };
const toolsOf = (r: { body: unknown }) => (r.body as Body).tools ?? [];
const namesOf = (r: { body: unknown }) => toolsOf(r).map((t) => t.function.name);
const mcpNames = (names: string[]) => names.filter((n) => n.startsWith("mcp__"));

let model: ScriptedModel;
let home: string;
let scope: Scope;
let host: HostApi;
let fx: ReturnType<typeof fixture>;
let sessionId: string;
const env = () => ({ SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL_BASE_URL: model.baseURL, SEAM_MODEL: MODEL_ID, SEAM_MAX_STEPS: "3" });

/** Waits for the peer's 60 tools to be registered (after adding it, after a restart). */
const ghTools = () => vi.waitFor(async () => expect((await host.tools.list()).filter((t) => t.name.startsWith("mcp__gh__"))).toHaveLength(60), { timeout: 20_000, interval: 50 });

const startHost = async (servers = true) => {
  scope = createScope("defer-host");
  host = await createHost(scope, { home, env: env(), version: "test" });
  if (servers) await ghTools();
};

/** Sends `text` and waits for the turn to end; returns the model requests it made. */
async function turn(text: string) {
  model.reset();
  const { turnId } = await host.sessions.send({ sessionId, text });
  await vi.waitFor(async () => {
    const t = (await host.sessions.detail(sessionId)).turns.find((x) => x.id === turnId);
    expect(t?.status).not.toBe("running");
  }, { timeout: 15_000, interval: 20 });
  return model.requests().filter((r) => r.path.includes("chat/completions"));
}

async function setBudget(deferTools: ModelSettings["deferTools"]) {
  const current = await host.settings.model();
  await host.settings.setModel({ ...current.settings, deferTools });
}

beforeAll(async () => {
  model = await startScriptedModel({ scripts });
  home = mkdtempSync(join(tmpdir(), "seam-defer-"));
  fx = fixture("gh", { tools: RAW, descriptions: DESCRIPTIONS });
  await startHost(false);
  await host.mcp.add(fx.config);
  await ghTools();
  sessionId = (await host.sessions.create({ workspace: HOST_DIR, title: "defer" })).id;
  // MCP calls run without asking in this session (PERM-1), so the scripted turns need nobody.
  await host.sessions.setMode(sessionId, "auto");
}, 60_000);

afterAll(async () => {
  await scope?.dispose();
  await model?.close();
  fx?.cleanup();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe("deferred tools and tool_search (CTX-3)", () => {
  let before: Awaited<ReturnType<typeof turn>>;

  it("CTX-3: past the budget the request carries tool_search and no MCP schema; the matches are appended to the next request in their ranked order", async () => {
    const meterBefore = await host.sessions.context(sessionId);
    expect(meterBefore.deferred).toBe(60);
    expect(meterBefore.loaded).toEqual([]);

    before = await turn("find issue tools");
    expect(before).toHaveLength(2);
    const first = namesOf(before[0]!);
    expect(first).toContain("tool_search");
    expect(mcpNames(first)).toEqual([]);
    // The tools always sent, tool_search among them, in code-point order.
    expect(first).toEqual([...first].sort());

    const call = (await host.sessions.detail(sessionId)).items.find((i): i is ToolCallItem => i.kind === "tool_call" && i.name === "tool_search");
    expect(call?.status).toBe("ok");
    expect(call?.rendered).toMatch(/^Loaded 6 tools for "issue"/);
    expect(call?.rendered).toContain('mcp__gh__create_issue (MCP server "gh"): Fixture: create one issue.');
    expect(call?.canonical).toMatchObject({ query: "issue", loaded: expect.arrayContaining(ISSUE_TOOLS), searched: 60 });

    const second = namesOf(before[1]!);
    expect(second).toEqual([...first, ...ISSUE_TOOLS]);
    // The first request's tools are a byte-identical prefix of the second's (prompt caches hold).
    expect(JSON.stringify(toolsOf(before[1]!).slice(0, first.length))).toBe(JSON.stringify(toolsOf(before[0]!)));

    const meter = await host.sessions.context(sessionId);
    expect(meter.deferred).toBe(54);
    expect(meter.loaded).toEqual(ISSUE_TOOLS);
    expect(meter.toolCount).toBe(second.length);
    expect(meter.tools).toBeGreaterThan(meterBefore.tools);
  });

  it("CTX-3: loaded tools stay in later turns, byte-identical across consecutive steps; a deferred tool that was not loaded still runs", async () => {
    const requests = await turn("create an issue");
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(toolsOf(requests[0]!))).toBe(JSON.stringify(toolsOf(before[1]!)));
    expect(JSON.stringify(toolsOf(requests[1]!))).toBe(JSON.stringify(toolsOf(requests[0]!)));
    const items = (await host.sessions.detail(sessionId)).items;
    expect(items.find((i): i is ToolCallItem => i.kind === "tool_call" && i.name === "mcp__gh__create_issue")).toMatchObject({ status: "ok", rendered: "create_issue: bug" });

    // Not loaded, but it exists: the call runs (friendlier than an error), and it is not loaded by that.
    const del = await turn("delete a repo");
    expect(JSON.stringify(toolsOf(del[1]!))).toBe(JSON.stringify(toolsOf(before[1]!)));
    const items2 = (await host.sessions.detail(sessionId)).items;
    expect(items2.find((i): i is ToolCallItem => i.kind === "tool_call" && i.name === "mcp__gh__delete_repo")).toMatchObject({ status: "ok", rendered: "delete_repo: old" });
    expect((await host.sessions.context(sessionId)).loaded).toEqual(ISSUE_TOOLS);
  });

  it("CTX-3: tool_search refuses an empty query (invalid_arguments) and says clearly when nothing matches; nothing is loaded then", async () => {
    const other = (await host.sessions.create({ workspace: HOST_DIR, title: "search" })).id;
    const call = async (args: Record<string, unknown>) => {
      const { turnId } = await host.sessions.callTool({ sessionId: other, name: "tool_search", args });
      let found: ToolCallItem | undefined;
      await vi.waitFor(async () => {
        found = (await host.sessions.detail(other)).items.find((i): i is ToolCallItem => i.kind === "tool_call" && i.turnId === turnId && i.status !== "running");
        expect(found).toBeDefined();
      }, { timeout: 10_000, interval: 20 });
      return found!;
    };
    const empty = await call({ query: "   " });
    expect(empty.status).toBe("error");
    expect(empty.error?.code).toBe("invalid_arguments");
    expect(empty.rendered).toContain("query must not be empty");
    expect((await call({})).error?.code).toBe("invalid_arguments");
    expect((await call({ query: "x".repeat(201) })).error?.code).toBe("invalid_arguments");

    const none = await call({ query: "zebra spaceship" });
    expect(none.status).toBe("ok");
    expect(none.rendered).toMatch(/^No deferred tool matches "zebra spaceship" \(60 searched\)\. Try fewer or broader words/);
    expect(none.rendered).toContain("Deferred tools come from: gh.");
    expect(none.canonical).toMatchObject({ matches: [], loaded: [] });
    const meter = await host.sessions.context(other);
    expect(meter.loaded).toEqual([]);
    expect(meter.deferred).toBe(60);
  });

  it("CTX-3: the loaded set survives a host restart: the same tools, the same bytes", async () => {
    await scope.dispose();
    await startHost();
    const meter = await host.sessions.context(sessionId);
    expect(meter.loaded).toEqual(ISSUE_TOOLS);
    expect(meter.deferred).toBe(54);
    const requests = await turn("just talk");
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(toolsOf(requests[0]!))).toBe(JSON.stringify(toolsOf(before[1]!)));
  }, 60_000);

  it("CTX-3: a loaded tool whose server goes away is not sent; when it comes back it is sent again", async () => {
    await host.mcp.setEnabled("gh", false);
    const gone = await host.sessions.context(sessionId);
    expect(gone.loaded).toEqual([]);
    expect(gone.deferred).toBe(0);
    const requests = await turn("just talk");
    expect(mcpNames(namesOf(requests[0]!))).toEqual([]);
    // Nothing deferrable left: nothing is deferred and tool_search is not offered.
    expect(namesOf(requests[0]!)).not.toContain("tool_search");

    await host.mcp.setEnabled("gh", true);
    await vi.waitFor(async () => expect((await host.sessions.context(sessionId)).loaded).toEqual(ISSUE_TOOLS), { timeout: 20_000, interval: 50 });
    const back = await turn("just talk");
    expect(JSON.stringify(toolsOf(back[0]!))).toBe(JSON.stringify(toolsOf(before[1]!)));
  }, 60_000);

  it("CTX-3: under the budget nothing is deferred and tool_search is absent; the tools part of the meter grows accordingly", async () => {
    const deferring = await host.sessions.context(sessionId);
    await setBudget({ maxTools: 1_000, maxPercent: 100 });
    const full = await host.sessions.context(sessionId);
    expect(full.deferred).toBe(0);
    expect(full.loaded).toEqual([]);
    expect(full.toolCount).toBe(deferring.toolCount - 1 + 60 - ISSUE_TOOLS.length);
    expect(full.tools).toBeGreaterThan(deferring.tools);
    const requests = await turn("just talk");
    const names = namesOf(requests[0]!);
    expect(names).not.toContain("tool_search");
    expect(mcpNames(names)).toHaveLength(60);
    expect(names).toEqual([...names].sort());

    // The percent limit alone defers too: a small window's 10 % is passed by the tools' schemas.
    const current = await host.settings.model();
    await host.settings.setModel({ ...current.settings, deferTools: { maxTools: 1_000, maxPercent: 10 }, contextWindow: 20_000 });
    const byPercent = await host.sessions.context(sessionId);
    expect(byPercent.deferred).toBe(54);
    expect(byPercent.loaded).toEqual(ISSUE_TOOLS);
    await host.settings.setModel({ ...current.settings, deferTools: undefined, contextWindow: undefined });
    expect((await host.sessions.context(sessionId)).deferred).toBe(54);
  });

  it("CTX-3: a bad budget is refused and nothing changes", async () => {
    const current = await host.settings.model();
    await expect(host.settings.setModel({ ...current.settings, deferTools: { maxTools: 0, maxPercent: 10 } })).rejects.toMatchObject({ code: "bad_input:llm" });
    await expect(host.settings.setModel({ ...current.settings, deferTools: { maxTools: 40, maxPercent: 150 } })).rejects.toThrow(/at most 100/);
    expect((await host.settings.model()).settings.deferTools).toEqual(current.settings.deferTools);
  });
});
