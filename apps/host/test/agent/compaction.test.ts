import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  COMPACTION_FACT, COMPACTION_FAILED_FACT, CompactionFailedPayload, CompactionPayload, CONTEXT_PRUNED_FACT, ContextPrunedPayload,
  SKILLS_CATALOG_FACT, type FactItem, type SessionDetail, type SessionEvent, type TimelineItem,
} from "@seam/shared";
import { startScriptedModel, type ScriptedModel } from "../../../../packages/testkit/src/index.js";
import { SUMMARY_PREFIX } from "../../src/agent/compaction.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createHost } from "../../src/host.js";
import type { HostApi } from "../../src/host-api.js";
import { z } from "zod";
import { createStepHooks } from "../../src/agent/hooks.js";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime } from "../../src/agent/runtime.js";
import { createSessionService } from "../../src/agent/session.js";
import { defineTool } from "../../src/agent/tool.js";
import { createModel } from "../../src/llm/llm.js";
import { createSecretSource } from "../../src/llm/secrets.js";
import { openDatabase } from "../../src/persistence/db.js";
import { startTestHost } from "../support/host.js";
import { copyTestDb } from "../support/db-url.js";

const MODEL = "compact-test";
const scripts = [{
  name: MODEL,
  turns: [
    { match: "^Summarize the conversation below[\\s\\S]*FAIL-SUMMARY", steps: [{ status: 500, body: { error: { message: "the summary exploded" } } }] },
    { match: "^Summarize the conversation below", steps: [{ text: ["SUMMARY-TEXT: the user sent numbered turns ", "and Seam acknowledged each."] }] },
    { match: "^big", steps: [{ toolCalls: [{ name: "read_file", args: { path: "big.txt" } }] }, { text: ["Read the big file."] }] },
    { match: "", steps: [{ text: ["Noted."] }] },
  ],
}];

/** ~400 tokens of words that say which turn they belong to. */
const filler = (label: string) => `${label}: ${"the quick brown fox jumps over the lazy dog ".repeat(40)}`;

let model: ScriptedModel;
let workspace: string;
const scopes: Scope[] = [];

beforeAll(async () => {
  model = await startScriptedModel({ scripts });
  // A git project with a skill of its own, so the skills catalog (SKL-6) is part of every session.
  workspace = realpathSync(mkdtempSync(join(tmpdir(), "seam-compact-")));
  mkdirSync(join(workspace, ".git"));
  mkdirSync(join(workspace, ".agents/skills/demo"), { recursive: true });
  writeFileSync(join(workspace, ".agents/skills/demo/SKILL.md"), "---\nname: demo\ndescription: \"A demo skill.\"\n---\n# demo\n\nDo the thing.\n");
  writeFileSync(join(workspace, "big.txt"), `${"A large file line with several words in it. ".repeat(900)}\n`);
});
afterAll(async () => {
  for (const s of scopes.reverse()) await s.dispose();
  await model?.close();
  rmSync(workspace, { recursive: true, force: true });
});

/** A real host on `home` whose model is the scripted server; not disposed with its home (restarts reuse it). */
async function hostOn(home: string, env: NodeJS.ProcessEnv = {}): Promise<{ scope: Scope; host: HostApi }> {
  const scope = createScope("compact-host");
  const host = await createHost(scope, {
    home, version: "test",
    env: { SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL_BASE_URL: model.baseURL, SEAM_MODEL: MODEL, SEAM_MAX_STEPS: "3", HOME: home, ...env },
  });
  return { scope, host };
}

async function freshHost() {
  const home = mkdtempSync(join(tmpdir(), "seam-compact-home-"));
  const h = await hostOn(home);
  scopes.push(h.scope);
  h.scope.add(() => rmSync(home, { recursive: true, force: true }), "home");
  return { ...h, home };
}

async function settled(host: HostApi, sessionId: string): Promise<SessionDetail> {
  let detail = await host.sessions.detail(sessionId);
  while (detail.session.running) {
    await new Promise((r) => setTimeout(r, 10));
    detail = await host.sessions.detail(sessionId);
  }
  return detail;
}

async function turn(host: HostApi, sessionId: string, text: string) {
  await host.sessions.send({ sessionId, text });
  return settled(host, sessionId);
}

/** Sets the window so the session's next request is at `percent` of it. */
async function windowAt(host: HostApi, sessionId: string, percent: number) {
  const c = await host.sessions.context(sessionId);
  const { settings } = await host.settings.model();
  await host.settings.setModel({ ...settings, contextWindow: Math.ceil((c.total * 100) / percent) });
  return host.sessions.context(sessionId);
}

async function clearWindow(host: HostApi) {
  const { settings } = await host.settings.model();
  await host.settings.setModel({ ...settings, contextWindow: undefined });
}

type Message = { role: string; content: unknown; tool_calls?: unknown[] };
const bodyOf = (i: number) => model.requests()[i]?.body as { messages: Message[]; tools?: unknown[] };
const textOf = (m: Message) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""));
const summaryRequests = () => model.requests().filter((r) => textOf((r.body as { messages: Message[] }).messages.at(-1) as Message).startsWith("Summarize"));
const facts = (items: TimelineItem[], kind: string) => items.filter((i): i is FactItem => i.kind === "fact" && i.factKind === kind);

describe("compaction (CTX-2) against a real host and a scripted model", () => {
  it("CTX-2: at the threshold the history is summarized; the next request is system + summary + recent turns, the catalog comes back, old items stay in the timeline", async () => {
    const { host } = await freshHost();
    const session = await host.sessions.create({ workspace });
    for (const n of [1, 2, 3, 4]) await turn(host, session.id, filler(`Turn ${n}`));
    const before = await windowAt(host, session.id, 85);
    expect(before.percent).toBeGreaterThanOrEqual(80);
    model.reset();

    const events: SessionEvent[] = [];
    const controller = new AbortController();
    const pump = (async () => {
      for await (const e of host.live.session(session.id, controller.signal)) events.push(e);
    })();
    const detail = await turn(host, session.id, filler("Turn 5"));
    controller.abort();
    await pump;
    expect(detail.turns.at(-1)?.status).toBe("completed");

    // One summary request (no tools), then the step itself.
    expect(model.requests()).toHaveLength(2);
    const summaryReq = bodyOf(0);
    expect(summaryReq.tools ?? []).toHaveLength(0);
    expect(textOf(summaryReq.messages.at(-1) as Message)).toContain("Turn 1:");

    const step = bodyOf(1).messages;
    expect(step[0]?.role).toBe("system");
    expect(step[1]?.role).toBe("user");
    expect(textOf(step[1] as Message)).toContain(SUMMARY_PREFIX);
    expect(textOf(step[1] as Message)).toContain("SUMMARY-TEXT");
    const all = JSON.stringify(step);
    for (const gone of ["Turn 1:", "Turn 2:", "Turn 3:"]) expect(all).not.toContain(gone);
    for (const kept of ["Turn 4:", "Turn 5:"]) expect(all).toContain(kept);
    // The catalog fact was hidden by the compaction and is appended again before the step (SKL-6).
    expect(all).toContain("<available_skills>");
    expect(facts(detail.items, SKILLS_CATALOG_FACT)).toHaveLength(2);

    const compaction = facts(detail.items, COMPACTION_FACT);
    expect(compaction).toHaveLength(1);
    const payload = CompactionPayload.parse(compaction[0]?.payload);
    expect(payload).toMatchObject({ trigger: "auto", focus: null });
    expect(payload.itemsCompacted).toBeGreaterThanOrEqual(6);
    expect(payload.tokensAfter).toBeLessThan(payload.tokensBefore);
    // Nothing is deleted: the timeline still holds the first turn's message.
    expect(detail.items.some((i) => i.kind === "message" && i.text.startsWith("Turn 1:"))).toBe(true);
    // The meter drops, and a context event said so during the turn.
    const after = await host.sessions.context(session.id);
    expect(after.total).toBeLessThan(before.total);
    const contexts = events.flatMap((e) => (e.type === "context" ? [e.context.total] : []));
    expect(contexts.some((t) => t < before.total)).toBe(true);
    await clearWindow(host);
  });

  it("CTX-2: pruning replaces an old large tool result with a stub in the request while the database keeps the full result", async () => {
    const { host } = await freshHost();
    const session = await host.sessions.create({ workspace });
    await turn(host, session.id, "big: read big.txt");
    for (const n of [2, 3, 4]) await turn(host, session.id, `Turn ${n}: short`);
    await windowAt(host, session.id, 85);
    model.reset();
    const detail = await turn(host, session.id, "Turn 5: short");
    // Pruning alone brought the request under the threshold: no summary.
    expect(summaryRequests()).toHaveLength(0);
    const pruned = facts(detail.items, CONTEXT_PRUNED_FACT);
    expect(pruned).toHaveLength(1);
    expect(pruned[0]?.text).toBe("");
    const call = detail.items.find((i) => i.kind === "tool_call");
    expect(ContextPrunedPayload.parse(pruned[0]?.payload).itemIds).toEqual([call?.id]);
    expect(call?.kind === "tool_call" && call.rendered).toContain("A large file line");

    const tool = bodyOf(0).messages.find((m) => m.role === "tool") as Message;
    expect(textOf(tool)).toMatch(/^\[Result pruned to save context: read_file returned \d+ characters; run the tool again if you need it\]$/);
    expect(JSON.stringify(bodyOf(0).messages)).not.toContain("A large file line");
    await clearWindow(host);
  });

  it("CTX-2: a failing summary call leaves the history untouched, the turn goes on, and a compaction_failed fact says why", async () => {
    const { host } = await freshHost();
    const session = await host.sessions.create({ workspace });
    await turn(host, session.id, filler("FAIL-SUMMARY Turn 1"));
    for (const n of [2, 3]) await turn(host, session.id, filler(`Turn ${n}`));
    await windowAt(host, session.id, 85);
    model.reset();
    const detail = await turn(host, session.id, filler("Turn 4"));
    expect(detail.turns.at(-1)?.status).toBe("completed");
    expect(facts(detail.items, COMPACTION_FACT)).toHaveLength(0);
    const failed = facts(detail.items, COMPACTION_FAILED_FACT);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.text).toBe("");
    const payload = CompactionFailedPayload.parse(failed[0]?.payload);
    expect(payload.trigger).toBe("auto");
    expect(payload.reason).toMatch(/summary request failed/i);
    // One attempt per turn; the step then ran with the whole history.
    expect(summaryRequests()).toHaveLength(1);
    const step = JSON.stringify(bodyOf(model.requests().length - 1).messages);
    expect(step).toContain("FAIL-SUMMARY Turn 1");
    expect(step).not.toContain(SUMMARY_PREFIX);
    await clearWindow(host);
  });

  it("CTX-2: when even the compacted request stays above the threshold, the turn does not summarize again at every step", async () => {
    const { host } = await freshHost();
    const session = await host.sessions.create({ workspace });
    for (const n of [1, 2, 3]) await turn(host, session.id, filler(`Turn ${n}`));
    const c = await host.sessions.context(session.id);
    // The system prompt and the tool specs alone are 82 % of this window.
    const { settings } = await host.settings.model();
    await host.settings.setModel({ ...settings, contextWindow: Math.ceil(((c.system + c.tools) * 100) / 82) });
    model.reset();
    // A two-step turn (a tool call, then the answer).
    const detail = await turn(host, session.id, "big: read big.txt");
    expect(detail.turns.at(-1)?.status).toBe("completed");
    expect(summaryRequests()).toHaveLength(1);
    const compaction = facts(detail.items, COMPACTION_FACT);
    expect(compaction).toHaveLength(1);
    expect(CompactionPayload.parse(compaction[0]?.payload).tokensAfter).toBeGreaterThanOrEqual(Math.floor((c.system + c.tools) * 0.99));
    await clearWindow(host);
  });

  it("CTX-2: `/compact focus` summarizes as a turn of its own with the focus in the request; no model answer; the line is not shown to the model", async () => {
    const { host } = await freshHost();
    const session = await host.sessions.create({ workspace });
    for (const n of [1, 2, 3]) await turn(host, session.id, `Turn ${n}: short`);
    model.reset();
    const detail = await turn(host, session.id, "/compact the database schema");
    expect(detail.turns.at(-1)).toMatchObject({ status: "completed", mode: "direct" });
    expect(model.requests()).toHaveLength(1);
    expect(textOf(bodyOf(0).messages.at(-1) as Message)).toContain("Focus the summary on: the database schema");
    const last = detail.items.slice(-2);
    expect(last[0]).toMatchObject({ kind: "message", role: "user", text: "/compact the database schema" });
    expect(last[1]).toMatchObject({ kind: "fact", factKind: COMPACTION_FACT });
    expect(CompactionPayload.parse((last[1] as FactItem).payload)).toMatchObject({ trigger: "manual", focus: "the database schema", itemsCompacted: 3 });

    model.reset();
    await turn(host, session.id, "Turn 4: short");
    const step = JSON.stringify(bodyOf(0).messages);
    expect(step).toContain(SUMMARY_PREFIX);
    expect(step).not.toContain("Turn 1: short");
    expect(step).toContain("Turn 2: short");
    expect(step).not.toContain("/compact");
  });

  it("CTX-2: a failing manual compaction ends its turn failed with the reason and changes nothing; nothing to compact is refused the same way", async () => {
    const { host } = await freshHost();
    const session = await host.sessions.create({ workspace });
    const early = await turn(host, session.id, "/compact");
    expect(early.turns.at(-1)).toMatchObject({ status: "failed" });
    expect(early.turns.at(-1)?.reason).toMatch(/nothing to compact/i);
    for (const n of [1, 2, 3]) await turn(host, session.id, `Turn ${n}: short`);
    const detail = await turn(host, session.id, "/compact FAIL-SUMMARY");
    expect(detail.turns.at(-1)?.status).toBe("failed");
    expect(detail.turns.at(-1)?.reason).toMatch(/summary request failed/i);
    expect(facts(detail.items, COMPACTION_FACT)).toHaveLength(0);
    expect(facts(detail.items, COMPACTION_FAILED_FACT).map((f) => CompactionFailedPayload.parse(f.payload).trigger)).toEqual(["manual", "manual"]);
    model.reset();
    await turn(host, session.id, "Turn 4: short");
    expect(JSON.stringify(bodyOf(0).messages)).toContain("Turn 1: short");
  });

  it("CTX-2: /compact without a configured model is refused with instructions and creates nothing", async () => {
    const { scope, host } = await startTestHost();
    scopes.push(scope);
    const session = await host.sessions.create({ workspace });
    await expect(host.sessions.send({ sessionId: session.id, text: "/compact" })).rejects.toMatchObject({ code: "bad_input:session", data: { reason: "no_model" } });
    await expect(host.sessions.send({ sessionId: session.id, text: "/compact" })).rejects.toThrow(/configure one in Settings/i);
    const detail = await host.sessions.detail(session.id);
    expect(detail.items).toHaveLength(0);
    expect(detail.turns).toHaveLength(0);
  });
});

describe("the model view (CTX-4)", () => {
  it("CTX-4: a host restart rebuilds the view identically: the next request is byte for byte the same", async () => {
    const home = mkdtempSync(join(tmpdir(), "seam-compact-home-"));
    const copy = `${home}-copy`;
    const a = await hostOn(home);
    try {
      const session = await a.host.sessions.create({ workspace });
      await turn(a.host, session.id, "big: read big.txt");
      for (const n of [2, 3]) await turn(a.host, session.id, `Turn ${n}: short`);
      await turn(a.host, session.id, "/compact keep the file names");
      await turn(a.host, session.id, "Turn 4: short");
      // A copy of the data while host A is idle: the same history, read by a host that never saw it.
      cpSync(home, copy, { recursive: true });
      await copyTestDb(join(home, "seam.db"), join(copy, "seam.db"));
      model.reset();
      await turn(a.host, session.id, "probe");
      const incremental = JSON.stringify(bodyOf(0));
      await a.scope.dispose();

      const b = await hostOn(copy);
      try {
        model.reset();
        await turn(b.host, session.id, "probe");
        const rebuilt = JSON.stringify(bodyOf(0));
        expect(rebuilt).toContain(SUMMARY_PREFIX);
        expect(rebuilt).toBe(incremental);
      } finally {
        await b.scope.dispose();
      }
    } finally {
      await a.scope.dispose();
      rmSync(home, { recursive: true, force: true });
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("CTX-4: an out-of-turn fact and a direct /call reach the next request", async () => {
    // The session service as host.ts wires it, so a fact can be appended outside any turn (e.g. `changes_undone`).
    const scope = createScope("view-delta");
    scopes.push(scope);
    const home = mkdtempSync(join(tmpdir(), "seam-compact-home-"));
    scope.add(() => rmSync(home, { recursive: true, force: true }), "home");
    const db = await openDatabase(scope.child("db"), { home });
    const registry = createToolRegistry();
    registry.register(defineTool({
      name: "echo", description: "Echoes.", capability: "test", input: z.object({ say: z.string() }),
      run: async ({ say }) => ({ canonical: null, rendered: `echo: ${say}` }),
    }));
    const llm = createModel({ provider: "openai-compatible", baseURL: model.baseURL, model: MODEL, maxSteps: 3, compactAt: 80 }, createSecretSource({ home, env: {} }));
    const sessions = createSessionService(scope.child("sessions"), {
      store: db.store, registry, runtime: createToolRuntime({ registry }), hooks: createStepHooks(), model: async () => ({ model: llm, maxSteps: 3 }),
    });
    const session = await sessions.create({ workspace });
    const run = async (text: string) => {
      await sessions.send({ sessionId: session.id, text });
      while ((await sessions.detail(session.id)).session.running) await new Promise((r) => setTimeout(r, 10));
    };
    await run("Turn 1: short");
    await sessions.appendFact(session.id, { factKind: "changes_undone", text: "The user undid the file changes of an earlier turn (OUT-OF-TURN).", payload: null });
    await sessions.callTool({ sessionId: session.id, name: "echo", args: { say: "DIRECT-CALL" } });
    while ((await sessions.detail(session.id)).session.running) await new Promise((r) => setTimeout(r, 10));
    model.reset();
    await run("Turn 2: short");
    const step = JSON.stringify(bodyOf(0).messages);
    expect(step).toContain("OUT-OF-TURN");
    expect(step).toContain("[I ran the tool echo with {\\\"say\\\":\\\"DIRECT-CALL\\\"}]\\necho: DIRECT-CALL");
    expect(step.indexOf("OUT-OF-TURN")).toBeLessThan(step.indexOf("Turn 2: short"));
  });
});
