import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_IMPORT_MAX_CHARS, type TimelineItem, type TurnInfo } from "@seam/shared";
import type { ScriptedModel } from "../../../../packages/testkit/src/index.js";
import type { HostApi } from "../../src/host-api.js";
import type { SessionService } from "../../src/agent/session.js";
import type { Scope } from "../../src/core/scope.js";
import { startScriptedHost } from "../support/host.js";
import { rejection } from "../support/errors.js";

const scripts = [{
  name: "ops-test",
  turns: [
    { match: "README", steps: [
      { text: ["Reading it."], toolCalls: [{ name: "read_file", args: { path: "README.md" } }] },
      { text: ["It says: ", "{{tool_result}}"] },
    ] },
    { match: "slow", steps: [{ text: ["word "], repeat: 400, delayMs: 5 }] },
    { match: ".", steps: [{ text: ["An answer."] }] },
  ],
}];

let model: ScriptedModel;
let scope: Scope;
let host: HostApi;
let workspace: string;

beforeAll(async () => {
  ({ scope, host, model } = await startScriptedHost(scripts, "ops-test"));
  workspace = mkdtempSync(join(tmpdir(), "seam-ops-ws-"));
  writeFileSync(join(workspace, "README.md"), "# Fixture readme\n");
});
afterAll(async () => {
  await scope.dispose();
  rmSync(workspace, { recursive: true, force: true });
});

/** Waits until the turn has ended. */
async function ended(sessionId: string, turnId: string): Promise<TurnInfo> {
  for (;;) {
    const turn = (await host.sessions.detail(sessionId)).turns.find((t) => t.id === turnId);
    if (turn && turn.status !== "running") return turn;
    await new Promise((r) => setTimeout(r, 20));
  }
}
async function say(sessionId: string, text: string) {
  const { turnId } = await host.sessions.send({ sessionId, text });
  return ended(sessionId, turnId);
}
/** A session with a model turn (message, tool call, facts) and a direct /call turn. */
async function sample(title = "sample") {
  const s = await host.sessions.create({ workspace, title });
  await say(s.id, "read the README");
  const { turnId } = await host.sessions.callTool({ sessionId: s.id, name: "list_dir", args: {} });
  await ended(s.id, turnId);
  // The host's session API is the whole service; a fact outside any turn (as "Undo this turn" records) is part of the sample.
  await (host.sessions as SessionService).appendFact(s.id, { factKind: "note", text: "a note outside turns", payload: { n: 1 } });
  return host.sessions.detail(s.id);
}
/** Items without ids, session ids and the turn ids mapped to their position, for field-by-field comparison. */
function shape(items: TimelineItem[], turns: TurnInfo[]) {
  const index = new Map(turns.map((t, i) => [t.id, i]));
  return items.map((item) => {
    const { turnId, ...rest }: Partial<TimelineItem> = { ...item };
    delete rest.id;
    return { ...rest, turn: turnId === null || turnId === undefined ? null : index.get(turnId) };
  });
}
const turnShape = (turns: TurnInfo[]) => turns.map((t) => {
  const rest: Partial<TurnInfo> = { ...t };
  delete rest.id;
  delete rest.sessionId;
  return rest;
});
const count = async () => (await host.sessions.list()).length;

describe("session operations (CTX-5)", () => {
  it("CTX-5 fork: the new session's history is exactly the prefix through the item; the original is unchanged", async () => {
    const before = await sample("source");
    const at = before.items.findIndex((i) => i.kind === "tool_call" && i.name === "read_file");
    const fork = await host.sessions.fork({ sessionId: before.session.id, itemId: before.items[at]!.id });
    expect(fork.title).toBe("source (fork)");
    expect(fork.workspace).toBe(before.session.workspace);
    const forked = await host.sessions.detail(fork.id);
    const prefix = before.items.slice(0, at + 1);
    const prefixTurns = before.turns.filter((t) => prefix.some((i) => i.turnId === t.id));
    expect(shape(forked.items, forked.turns)).toEqual(shape(prefix, prefixTurns));
    expect(turnShape(forked.turns)).toEqual(turnShape(prefixTurns));
    expect(forked.items.every((i) => !before.items.some((b) => b.id === i.id))).toBe(true);
    expect(forked.turns.every((t) => t.sessionId === fork.id && !before.turns.some((b) => b.id === t.id))).toBe(true);
    expect(await host.sessions.detail(before.session.id)).toEqual({ ...before, session: expect.anything() });
    // The fork goes on from there: a new item takes the next seq.
    await say(fork.id, "hello again");
    const after = await host.sessions.detail(fork.id);
    expect(after.items.at(-2)).toMatchObject({ kind: "message", role: "user", text: "hello again", seq: prefix.at(-1)!.seq + 1 });
  });

  it("CTX-5 fork at the last item copies the whole history; unknown items and sessions are refused", async () => {
    const before = await sample();
    const fork = await host.sessions.fork({ sessionId: before.session.id, itemId: before.items.at(-1)!.id });
    const all = await host.sessions.detail(fork.id);
    expect(shape(all.items, all.turns)).toEqual(shape(before.items, before.turns));
    const n = await count();
    const missing = await rejection(host.sessions.fork({ sessionId: before.session.id, itemId: "nope" }));
    expect(missing.code).toBe("not_found:session");
    expect(missing.data?.reason).toBe("item_not_found");
    expect((await rejection(host.sessions.fork({ sessionId: "no-such", itemId: "x" }))).code).toBe("not_found:session");
    expect(await count()).toBe(n);
  });

  it("CTX-5 fork while a turn runs copies finished turns only and refuses an item of the running turn", async () => {
    const s = await host.sessions.create({ workspace });
    await say(s.id, "hello");
    const { turnId } = await host.sessions.send({ sessionId: s.id, text: "slow please" });
    const live = await host.sessions.detail(s.id);
    const runningUser = live.items.find((i) => i.turnId === turnId)!;
    const refused = await rejection(host.sessions.fork({ sessionId: s.id, itemId: runningUser.id }));
    expect(refused.code).toBe("conflict:session");
    const fork = await host.sessions.fork({ sessionId: s.id, itemId: live.items[0]!.id });
    expect((await host.sessions.detail(fork.id)).items.map((i) => i.kind === "message" && i.text)).toEqual(["hello"]);
    await host.sessions.stop(s.id);
  });

  it("CTX-5 edit-and-resend forks before the user message and runs the edited text there", async () => {
    const s = await host.sessions.create({ workspace, title: "edit me" });
    await say(s.id, "first question");
    await say(s.id, "second question");
    const before = await host.sessions.detail(s.id);
    const second = before.items.find((i) => i.kind === "message" && i.text === "second question")!;
    const { session, turnId } = await host.sessions.editAndResend({ sessionId: s.id, itemId: second.id, text: "second, edited" });
    const turn = await ended(session.id, turnId);
    expect(turn.status).toBe("completed");
    const fork = await host.sessions.detail(session.id);
    const texts = fork.items.flatMap((i) => (i.kind === "message" ? [`${i.role}:${i.text}`] : []));
    expect(texts).toEqual(["user:first question", "assistant:An answer.", "user:second, edited", "assistant:An answer."]);
    // The model saw the edited text and not the original one.
    const sent = JSON.stringify(model.requests().at(-1)!.body);
    expect(sent).toContain("second, edited");
    expect(sent).not.toContain("second question");
    expect(await host.sessions.detail(s.id)).toEqual({ ...before, session: expect.anything() });
    // Only a user message can be edited; nothing is created when refused.
    const n = await count();
    const assistant = before.items.find((i) => i.kind === "message" && i.role === "assistant")!;
    const refused = await rejection(host.sessions.editAndResend({ sessionId: s.id, itemId: assistant.id, text: "x" }));
    expect(refused.data?.reason).toBe("not_user_message");
    expect(await count()).toBe(n);
  });

  it("CTX-5 retry re-sends the last user message, refuses while running and when there is none; a /call retries the same call", async () => {
    const s = await host.sessions.create({ workspace });
    const none = await rejection(host.sessions.retry(s.id));
    expect(none.code).toBe("bad_input:session");
    expect(none.data?.reason).toBe("nothing_to_retry");
    await say(s.id, "what is up");
    const { turnId } = await host.sessions.retry(s.id);
    expect((await ended(s.id, turnId)).status).toBe("completed");
    const users = (await host.sessions.detail(s.id)).items.filter((i) => i.kind === "message" && i.role === "user");
    expect(users.map((i) => i.kind === "message" && i.text)).toEqual(["what is up", "what is up"]);

    const call = await host.sessions.callTool({ sessionId: s.id, name: "list_dir", args: {} });
    await ended(s.id, call.turnId);
    const again = await host.sessions.retry(s.id);
    const turn = await ended(s.id, again.turnId);
    expect(turn.mode).toBe("direct");
    const calls = (await host.sessions.detail(s.id)).items.filter((i) => i.kind === "tool_call" && i.name === "list_dir" && i.turnId === again.turnId);
    expect(calls).toHaveLength(1);

    await host.sessions.send({ sessionId: s.id, text: "slow again" });
    const busy = await rejection(host.sessions.retry(s.id));
    expect(busy.code).toBe("conflict:session");
    expect(busy.message).toMatch(/still running/);
    await host.sessions.stop(s.id);
  });

  it("CTX-5 export JSON → import gives an equal session (items, facts, tool calls, turns)", async () => {
    const before = await sample("round trip");
    const file = await host.sessions.exportJson(before.session.id);
    expect(file.filename).toBe("round-trip.seam.json");
    const imported = await host.sessions.importJson({ text: file.text });
    expect(imported.title).toBe("round trip");
    expect(imported.workspace).toBe(before.session.workspace);
    const after = await host.sessions.detail(imported.id);
    expect(shape(after.items, after.turns)).toEqual(shape(before.items, before.turns));
    expect(turnShape(after.turns)).toEqual(turnShape(before.turns));
    expect(after.items.some((i) => i.kind === "fact" && i.factKind === "note" && (i.payload as { n: number }).n === 1)).toBe(true);
    // Another workspace may be chosen.
    const other = mkdtempSync(join(tmpdir(), "seam-ops-other-"));
    try {
      expect((await host.sessions.importJson({ text: file.text, workspace: other })).workspace).toContain("seam-ops-other-");
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("CTX-5 export Markdown is readable: messages, tool calls with arguments and results, facts as notes", async () => {
    const before = await sample("Readable one");
    const md = await host.sessions.exportMarkdown(before.session.id);
    expect(md.filename).toBe("readable-one.md");
    expect(md.text).toMatch(/^# Readable one\n/);
    expect(md.text).toContain("## User\n\nread the README");
    expect(md.text).toContain("## Assistant\n\nReading it.");
    expect(md.text).toContain("### Tool call `read_file` — ok");
    expect(md.text).toContain('"path": "README.md"');
    expect(md.text).toContain("Fixture readme");
    expect(md.text).toContain("> **Note (note):** a note outside turns");
  });

  it("CTX-5 import refuses malformed, oversized, wrong-version and dangling JSON, and a missing workspace, creating nothing", async () => {
    const before = await sample();
    const good = JSON.parse((await host.sessions.exportJson(before.session.id)).text) as Record<string, unknown> & { items: TimelineItem[]; session: { workspace: string } };
    const n = await count();
    const cases: [string, string][] = [
      ["{not json", "bad_json"],
      [JSON.stringify({ hello: 1 }), "not_an_export"],
      [JSON.stringify({ ...good, version: 2 }), "unsupported_version"],
      [JSON.stringify({ ...good, items: [{ kind: "message" }] }), "bad_import"],
      [JSON.stringify({ ...good, items: good.items.map((i) => ({ ...i, turnId: "ghost" })) }), "bad_import"],
      [JSON.stringify({ ...good, items: good.items.map((i) => ({ ...i, seq: 1 })) }), "bad_import"],
      [JSON.stringify({ ...good, session: { ...good.session, workspace: "/no/such/folder/anywhere" } }), "workspace_missing"],
      ["x".repeat(SESSION_IMPORT_MAX_CHARS + 1), "bad_import"],
    ];
    for (const [text, reason] of cases) {
      const error = await rejection(host.sessions.importJson({ text }));
      expect(error.code, reason).toBe("bad_input:session");
      expect(error.data?.reason, reason).toBe(reason);
    }
    const missing = await rejection(host.sessions.importJson({ text: JSON.stringify({ ...good, session: { ...good.session, workspace: "/no/such" } }) }));
    expect(missing.message).toMatch(/pick a workspace folder/);
    // A bad date deep in the history fails inside the transaction: no half-written session.
    const late = good.items.map((i, k) => (k === good.items.length - 1 ? { ...i, createdAt: "not a date", startedAt: "not a date" } : i));
    expect((await rejection(host.sessions.importJson({ text: JSON.stringify({ ...good, items: late }) }))).code).toBe("bad_input:session");
    expect(await count()).toBe(n);
  });
});
