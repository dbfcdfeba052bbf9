import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent, TurnInfo } from "@seam/shared";
import type { ScriptedModel } from "../../../../packages/testkit/src/index.js";
import type { HostApi } from "../../src/host-api.js";
import type { Scope } from "../../src/core/scope.js";
import { startScriptedHost, startTestHost } from "../support/host.js";

const scripts = [{
  name: "session-test",
  turns: [
    { match: "README", steps: [
      { text: ["Reading ", "it."], toolCalls: [{ name: "read_file", args: { path: "README.md" } }] },
      { text: ["It says: ", "{{tool_result}}"] },
    ] },
    { match: "forever", steps: Array.from({ length: 10 }, () => ({ toolCalls: [{ name: "list_dir", args: {} }] })) },
    { match: "bad tool args", steps: [{ toolCalls: [{ name: "read_file", args: { nope: 1 } }] }, { text: ["ok"] }] },
    { match: "long", steps: [{ text: ["word "], repeat: 5000, delayMs: 5 }] },
    { match: "stall", steps: [{ text: ["First words, then silence."], hang: true }] },
    { match: "denied", steps: [{ status: 401, body: { error: { message: "bad key" } } }] },
    { match: "^/greet", steps: [{ text: ["Greeting as the skill says."] }] },
  ],
}];

let model: ScriptedModel;
let scope: Scope;
let host: HostApi;
let workspace: string;

beforeAll(async () => {
  ({ scope, host, model } = await startScriptedHost(scripts, "session-test"));
  workspace = mkdtempSync(join(tmpdir(), "seam-ws-"));
  writeFileSync(join(workspace, "README.md"), "# Hello from the fixture\n");
  mkdirSync(join(workspace, "src"));
});
afterAll(async () => {
  await scope.dispose();
});

/** Sends a message and collects the session's events until the turn ends. */
async function turn(sessionId: string, text: string, during?: (events: SessionEvent[]) => Promise<void>) {
  const controller = new AbortController();
  const events: SessionEvent[] = [];
  let resolveEnd!: (t: TurnInfo) => void;
  const ended = new Promise<TurnInfo>((r) => (resolveEnd = r));
  const pump = (async () => {
    for await (const e of host.live.session(sessionId, controller.signal)) {
      events.push(e);
      if (e.type === "turn" && e.turn.status !== "running") resolveEnd(e.turn);
    }
  })();
  await host.sessions.send({ sessionId, text });
  if (during) await during(events);
  const end = await ended;
  controller.abort();
  await pump;
  return { end, events };
}

describe("sessions and the agent loop (CORE-13) against the real OpenAI-compatible adapter (CORE-15)", () => {
  it("streams text, runs a tool, continues with its result and persists it all in order", async () => {
    const session = await host.sessions.create({ workspace, title: "t" });
    const { end, events } = await turn(session.id, "read the README");
    expect(end.status).toBe("completed");
    expect(end.steps).toBe(2);
    // Usage reported by the scripted model on both steps, summed over the turn.
    expect(end.inputTokens).toBeGreaterThan(0);
    expect(end.outputTokens).toBeGreaterThanOrEqual(2);
    // The assistant message arrives with its first chunk; the rest streams as deltas.
    const first = events.find((e) => e.type === "item" && e.item.kind === "message" && e.item.role === "assistant");
    expect(first?.type === "item" && first.item.kind === "message" && first.item.text).toBe("Reading ");
    const deltas = events.flatMap((e) => (e.type === "delta" ? [e.text] : []));
    expect(deltas[0]).toBe("it.");

    const detail = await host.sessions.detail(session.id);
    expect(detail.items.map((i) => (i.kind === "message" ? `${i.role}:${i.text}` : i.kind === "tool_call" ? `tool:${i.name}:${i.status}` : `fact:${i.factKind}`))).toEqual([
      "user:read the README",
      "fact:skills_catalog", // the bundled skills, observed before the first step (SKL-6)
      "assistant:Reading it.",
      "tool:read_file:ok",
      expect.stringMatching(/^assistant:It says: .*Hello from the fixture/s),
    ]);
    expect(detail.items.map((i) => i.seq)).toEqual([1, 2, 3, 4, 5]);
    const call = detail.items[3]!;
    expect(call.kind === "tool_call" && call.rendered).toContain("Hello from the fixture");
    expect(call.kind === "tool_call" && call.canonical).toMatchObject({ path: "README.md" });
    // The second model request carried the tool result back in the wire format.
    const last = model.requests().at(-1)!.body as { messages: { role: string; content?: unknown }[] };
    expect(last.messages.some((m) => m.role === "tool" && JSON.stringify(m.content).includes("Hello from the fixture"))).toBe(true);
  });

  it("ends at maxSteps with the reason said", async () => {
    const session = await host.sessions.create({ workspace });
    const { end } = await turn(session.id, "loop forever");
    expect(end.status).toBe("completed");
    expect(end.steps).toBe(3);
    expect(end.reason).toMatch(/step limit \(3 steps\)/);
    const calls = (await host.sessions.detail(session.id)).items.filter((i) => i.kind === "tool_call");
    expect(calls).toHaveLength(3);
  });

  it("answers invalid tool arguments to the model without running the tool", async () => {
    const session = await host.sessions.create({ workspace });
    const { end } = await turn(session.id, "bad tool args");
    expect(end.status).toBe("completed");
    const call = (await host.sessions.detail(session.id)).items.find((i) => i.kind === "tool_call")!;
    expect(call.kind === "tool_call" && call.status).toBe("error");
    expect(call.kind === "tool_call" && call.error?.code).toBe("invalid_arguments");
  });

  it("stops a streaming turn: recorded as stopped, partial text kept and marked interrupted", async () => {
    const session = await host.sessions.create({ workspace });
    const { end } = await turn(session.id, "a long one", async (events) => {
      while (events.filter((e) => e.type === "delta").length < 20) await new Promise((r) => setTimeout(r, 10));
      expect((await host.sessions.list()).find((s) => s.id === session.id)?.running).toBe(true);
      expect(await host.sessions.stop(session.id)).toEqual({ stopped: true });
    });
    expect(end.status).toBe("stopped");
    const detail = await host.sessions.detail(session.id);
    const message = detail.items.find((i) => i.kind === "message" && i.role === "assistant")!;
    expect(message.kind === "message" && message.state).toBe("interrupted");
    expect(message.kind === "message" && message.text.length).toBeGreaterThan(50);
    expect(detail.session.running).toBe(false);
    expect(await host.sessions.stop(session.id)).toEqual({ stopped: false });
    expect(end.reason).toBe("Stopped by the user.");
  });

  it("a turn cut short by the host shutting down says so, not that the user stopped it", async () => {
    const other = await startTestHost({ SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL_BASE_URL: model.baseURL, SEAM_MODEL: "session-test" });
    const session = await other.host.sessions.create({ workspace });
    const listening = new AbortController();
    const ends: TurnInfo[] = [];
    let deltas = 0;
    const pump = (async () => {
      for await (const e of other.host.live.session(session.id, listening.signal)) {
        if (e.type === "delta") deltas++;
        if (e.type === "turn" && e.turn.status !== "running") ends.push(e.turn);
      }
    })();
    await other.host.sessions.send({ sessionId: session.id, text: "a long one" });
    while (deltas < 20) await new Promise((r) => setTimeout(r, 10));
    await other.scope.dispose();
    listening.abort();
    await pump;
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ status: "stopped", reason: "Stopped because the host shut down; send the message again to continue." });
  });

  it("stores an assistant message with its first text, so a crash before the first checkpoint leaves no empty message", async () => {
    const session = await host.sessions.create({ workspace });
    const { end } = await turn(session.id, "stall", async (events) => {
      while (!events.some((e) => e.type === "item" && e.item.kind === "message" && e.item.role === "assistant")) await new Promise((r) => setTimeout(r, 10));
      // What a crash now would leave behind is what the database holds now.
      const stored = (await host.sessions.detail(session.id)).items.find((i) => i.kind === "message" && i.role === "assistant");
      expect(stored).toMatchObject({ state: "streaming", text: "First words, then silence." });
      await host.sessions.stop(session.id);
    });
    expect(end.status).toBe("stopped");
    const events = (await host.sessions.detail(session.id)).items.filter((i) => i.kind === "message" && i.role === "assistant");
    expect(events).toMatchObject([{ state: "interrupted", text: "First words, then silence." }]);
  });

  it("a turn cut short by deleting its session says so", async () => {
    const session = await host.sessions.create({ workspace });
    const { end } = await turn(session.id, "a long one", async (events) => {
      while (events.filter((e) => e.type === "delta").length < 20) await new Promise((r) => setTimeout(r, 10));
      await host.sessions.remove(session.id);
    });
    expect(end).toMatchObject({ status: "stopped", reason: "Stopped because the session was deleted." });
  });

  it("refuses a second turn while one runs, and records a model failure with its reason", async () => {
    const session = await host.sessions.create({ workspace });
    const { end } = await turn(session.id, "long again", async () => {
      await expect(host.sessions.send({ sessionId: session.id, text: "again" })).rejects.toMatchObject({ code: "conflict:session" });
      await host.sessions.stop(session.id);
    });
    expect(end.status).toBe("stopped");
    const failed = await turn(session.id, "denied");
    expect(failed.end.status).toBe("failed");
    expect(failed.end.reason).toMatch(/401/);
    expect(failed.end.reason).not.toMatch(/bad key/); // provider text on 401 may echo the key; never shown
  });

  it("/name invokes a user-invocable skill: its content follows the message and the model sees it (SKL-8)", async () => {
    mkdirSync(join(workspace, ".agents/skills/greet"), { recursive: true });
    writeFileSync(join(workspace, ".agents/skills/greet/SKILL.md"), "---\nname: greet\ndescription: Greets people warmly\n---\nAlways greet in French.\n");
    const session = await host.sessions.create({ workspace });
    const { end } = await turn(session.id, "/greet Bob");
    expect(end.status).toBe("completed");
    const items = (await host.sessions.detail(session.id)).items;
    const invocation = items.find((i) => i.kind === "fact" && i.factKind === "skill_invocation");
    expect(invocation?.kind === "fact" && invocation.text).toContain("Always greet in French.");
    expect(items.findIndex((i) => i === invocation)).toBe(1);
    const last = model.requests().at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(last.messages)).toContain("Always greet in French.");
    // An unknown /name stays a plain message.
    const other = await host.sessions.create({ workspace });
    const plain = await turn(other.id, "/nosuchskill hi");
    expect(plain.end.status).toBe("completed");
    expect((await host.sessions.detail(other.id)).items.some((i) => i.kind === "fact" && i.factKind === "skill_invocation")).toBe(false);
  });

  it("refuses a workspace that does not exist and creates nothing", async () => {
    const before = (await host.sessions.list()).length;
    await expect(host.sessions.create({ workspace: join(workspace, "missing") })).rejects.toMatchObject({ code: "bad_input:session" });
    await expect(host.sessions.create({ workspace: "relative/path" })).rejects.toMatchObject({ code: "bad_input:session" });
    expect((await host.sessions.list()).length).toBe(before);
  });
});

describe("direct mode (CORE-14)", () => {
  let direct: { scope: Scope; host: HostApi };
  beforeAll(async () => {
    direct = await startTestHost({ SEAM_MODEL_PROVIDER: "none" });
  });
  afterAll(() => direct.scope.dispose());

  it("runs /call and the palette's callTool, refuses plain messages with what to do", async () => {
    const h = direct.host;
    expect((await h.settings.model()).mode).toBe("direct");
    const session = await h.sessions.create({ workspace });
    await expect(h.sessions.send({ sessionId: session.id, text: "hello" })).rejects.toThrow(/No model is configured/);
    await expect(h.sessions.send({ sessionId: session.id, text: "/call list_dir {oops" })).rejects.toThrow(/not valid JSON/);
    expect((await h.sessions.detail(session.id)).items).toEqual([]); // nothing recorded on bad input

    const idle = async () => {
      let detail = await h.sessions.detail(session.id);
      for (let i = 0; i < 200 && detail.session.running; i++) {
        await new Promise((r) => setTimeout(r, 10));
        detail = await h.sessions.detail(session.id);
      }
      return detail;
    };
    await h.sessions.send({ sessionId: session.id, text: "/call list_dir {}" });
    await idle();
    await h.sessions.callTool({ sessionId: session.id, name: "read_file", args: { path: "README.md" } });
    const detail = await idle();
    const calls = detail.items.filter((i) => i.kind === "tool_call");
    expect(calls.map((c) => c.kind === "tool_call" && `${c.name}:${c.status}`)).toEqual(["list_dir:ok", "read_file:ok"]);
    expect(detail.turns.every((t) => t.mode === "direct" && t.status === "completed")).toBe(true);
  });
});
