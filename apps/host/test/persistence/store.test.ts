import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { openDatabase, type Database } from "../../src/persistence/db.js";
import { tmpDir } from "./tmp.js";
import { testDbUrl } from "../support/db-url.js";
import { TAKEN_OVER_REASON } from "../../src/persistence/store.js";

let dir: ReturnType<typeof tmpDir>;
let scope: Scope;
let db: Database;

beforeEach(async () => {
  dir = tmpDir();
  scope = createScope("test");
  db = await openDatabase(scope, { home: dir.path, url: testDbUrl(`${dir.path}/store.db`) });
});
afterEach(async () => {
  await scope.dispose();
  await dir[Symbol.asyncDispose]();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const notFound = (p: Promise<unknown>) => expect(p).rejects.toSatisfy((e) => e instanceof HostError && e.code === "not_found:session");

describe("store.sessions", () => {
  it("creates, lists by recent activity, renames, touches and removes", async () => {
    const { sessions } = db.store;
    const a = await sessions.create({ title: "A", workspace: "/a" });
    expect(a).toEqual({ id: expect.any(String), title: "A", workspace: "/a", mode: null, createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(new Date(a.createdAt).toISOString()).toBe(a.createdAt);
    await sleep(5);
    const b = await sessions.create({ title: "B", workspace: "/b" });
    expect((await sessions.list()).map((s) => s.title)).toEqual(["B", "A"]);

    await sleep(5);
    await sessions.touch(a.id);
    expect((await sessions.list()).map((s) => s.title)).toEqual(["A", "B"]);
    await sleep(5);
    await db.store.items.appendMessage(b.id, { turnId: null, role: "user", text: "hi", state: "complete" });
    expect((await sessions.list()).map((s) => s.title)).toEqual(["B", "A"]);

    const renamed = await sessions.rename(a.id, "A2");
    expect(renamed.title).toBe("A2");
    expect(await sessions.get(a.id)).toEqual(renamed);
    await sessions.remove(a.id);
    expect(await sessions.get(a.id)).toBeNull();
    expect((await sessions.list()).map((s) => s.id)).toEqual([b.id]);
  });

  it("rejects unknown ids with not_found:session", async () => {
    const { sessions, turns, items } = db.store;
    await notFound(sessions.rename("nope", "x"));
    await notFound(sessions.remove("nope"));
    await notFound(sessions.touch("nope"));
    await notFound(turns.create("nope", "model"));
    await notFound(turns.finish("nope", { status: "completed" }));
    await notFound(turns.setSteps("nope", 2));
    await notFound(turns.list("nope"));
    await notFound(items.appendMessage("nope", { turnId: null, role: "user", text: "x", state: "complete" }));
    await notFound(items.updateMessage("nope", { text: "x", state: "complete" }));
    await notFound(items.appendToolCall("nope", { turnId: null, callId: "c", name: "t", args: {}, startedAt: new Date() }));
    await notFound(items.finishToolCall("nope", { status: "ok", canonical: null, rendered: "", error: null, endedAt: new Date() }));
    await notFound(items.appendFact("nope", { turnId: null, factKind: "k", text: "", payload: null }));
    await notFound(items.list("nope"));
    const s = await sessions.create({ title: "s", workspace: "/w" });
    await notFound(items.appendMessage(s.id, { turnId: "no-such-turn", role: "user", text: "x", state: "complete" }));
    // A failed append does not consume a sequence number.
    expect((await items.appendMessage(s.id, { turnId: null, role: "user", text: "x", state: "complete" })).seq).toBe(1);
  });
});

describe("store.turns", () => {
  it("records a turn from running to its outcome", async () => {
    const s = await db.store.sessions.create({ title: "t", workspace: "/w" });
    const t = await db.store.turns.create(s.id, "direct");
    expect(t).toMatchObject({ sessionId: s.id, status: "running", mode: "direct", steps: 0, reason: null, endedAt: null });
    await db.store.turns.setSteps(t.id, 3);
    const done = await db.store.turns.finish(t.id, { status: "stopped", reason: "user stopped", usage: { inputTokens: 10, outputTokens: 4 } });
    expect(done).toMatchObject({ id: t.id, status: "stopped", reason: "user stopped", steps: 3, endedAt: expect.any(String) });
    const row = await db.prisma.turn.findUniqueOrThrow({ where: { id: t.id } });
    expect([row.inputTokens, row.outputTokens]).toEqual([10, 4]);
    const t2 = await db.store.turns.create(s.id, "model");
    await db.store.turns.finish(t2.id, { status: "completed", steps: 1 });
    expect((await db.store.turns.list(s.id)).map((x) => [x.id, x.status, x.steps])).toEqual([[t.id, "stopped", 3], [t2.id, "completed", 1]]);
    await expect(db.store.turns.finish(t2.id, { status: "running" })).rejects.toMatchObject({ code: "bad_input:session" });
  });
  it("starts a turn with its user message in one write: both recorded, the session moved to the top of the list; an unknown session records neither", async () => {
    const a = await db.store.sessions.create({ title: "a", workspace: "/a" });
    await sleep(5);
    const b = await db.store.sessions.create({ title: "b", workspace: "/b" });
    await db.store.items.appendFact(a.id, { turnId: null, factKind: "note", text: "before", payload: null });
    await sleep(5);
    const { turn, message } = await db.store.turns.start(a.id, "model", "list the files");
    expect(turn).toMatchObject({ sessionId: a.id, status: "running", mode: "model", steps: 0, endedAt: null });
    expect(message).toMatchObject({ kind: "message", seq: 2, turnId: turn.id, role: "user", text: "list the files", state: "complete" });
    expect(await db.store.items.list(a.id)).toEqual([expect.objectContaining({ seq: 1 }), message]);
    expect(await db.store.items.lastSeq(a.id)).toBe(2);
    expect((await db.store.sessions.list()).map((x) => x.id)).toEqual([a.id, b.id]);

    await notFound(db.store.turns.start("nope", "model", "x"));
    expect(await db.prisma.turn.count()).toBe(1);
    expect(await db.prisma.message.count()).toBe(1);
  });
});

describe("store.items", () => {
  it("orders messages, tool calls and facts by one per-session sequence", async () => {
    const { items } = db.store;
    const s = await db.store.sessions.create({ title: "s", workspace: "/w" });
    const other = await db.store.sessions.create({ title: "o", workspace: "/w" });
    const turn = await db.store.turns.create(s.id, "model");
    const user = await items.appendMessage(s.id, { turnId: turn.id, role: "user", text: "list files", state: "complete" });
    const fact = await items.appendFact(s.id, { turnId: turn.id, factKind: "skills_catalog", text: "skills: none", payload: { skills: [] } });
    const started = new Date("2026-01-01T00:00:00.000Z");
    const call = await items.appendToolCall(s.id, { turnId: turn.id, callId: "call_1", name: "read_file", args: { path: "a.txt", n: [1, 2] }, startedAt: started });
    expect(call).toMatchObject({ kind: "tool_call", seq: 3, status: "running", args: { path: "a.txt", n: [1, 2] }, canonical: null, rendered: null, error: null, startedAt: started.toISOString(), endedAt: null });
    const assistant = await items.appendMessage(s.id, { turnId: turn.id, role: "assistant", text: "", state: "streaming" });
    expect((await items.appendMessage(other.id, { turnId: null, role: "user", text: "elsewhere", state: "complete" })).seq).toBe(1);

    const ended = new Date("2026-01-01T00:00:01.500Z");
    const finished = await items.finishToolCall(call.id, { status: "error", canonical: { error: { code: "enoent" } }, rendered: "no such file", error: { code: "enoent", message: "a.txt missing" }, endedAt: ended });
    expect(finished).toMatchObject({ status: "error", canonical: { error: { code: "enoent" } }, rendered: "no such file", error: { code: "enoent", message: "a.txt missing" }, endedAt: ended.toISOString() });
    const updated = await items.updateMessage(assistant.id, { text: "It is missing.", state: "complete" });
    expect(updated).toMatchObject({ id: assistant.id, seq: 4, text: "It is missing.", state: "complete" });

    const list = await items.list(s.id);
    expect(list.map((i) => [i.seq, i.kind])).toEqual([[1, "message"], [2, "fact"], [3, "tool_call"], [4, "message"]]);
    expect(list).toEqual([user, fact, finished, updated]);
    expect(fact).toMatchObject({ kind: "fact", factKind: "skills_catalog", text: "skills: none", payload: { skills: [] }, turnId: turn.id });
  });

  it("hands out seqs 1..50 exactly once under 50 concurrent appends of mixed kinds", async () => {
    const { items } = db.store;
    const s = await db.store.sessions.create({ title: "c", workspace: "/w" });
    const appended = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 3 === 0 ? items.appendMessage(s.id, { turnId: null, role: "user", text: `m${i}`, state: "complete" })
        : i % 3 === 1 ? items.appendToolCall(s.id, { turnId: null, callId: `c${i}`, name: "t", args: { i }, startedAt: new Date() })
        : items.appendFact(s.id, { turnId: null, factKind: "k", text: `f${i}`, payload: i }),
      ),
    );
    expect(appended.map((a) => a.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await items.list(s.id)).map((i) => i.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect((await db.prisma.session.findUniqueOrThrow({ where: { id: s.id } })).lastSeq).toBe(50);
  });

  it("a failing append does not take concurrent writes down with its rollback, nor show them uncommitted", async () => {
    // One better-sqlite3 connection: without the store's queue a plain write issued while another
    // call's transaction is open joins that transaction and vanishes when it rolls back.
    const s = await db.store.sessions.create({ title: "before", workspace: "/w" });
    const ops: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) {
      ops.push(db.store.items.appendMessage(s.id, { turnId: "no-such-turn", role: "user", text: "x", state: "complete" }).then(() => "appended", () => "failed"));
      ops.push(db.store.settings.set(`k${i}`, i));
      ops.push(db.store.sessions.create({ title: `new${i}`, workspace: "/w" }));
      ops.push(db.store.items.list(s.id).then((l) => l.length));
    }
    const results = await Promise.all(ops);
    expect(results.filter((r) => r === "failed")).toHaveLength(20);
    expect(results.filter((r) => typeof r === "number" && r > 0)).toEqual([]);
    for (let i = 0; i < 20; i++) expect(await db.store.settings.get(`k${i}`)).toBe(i);
    expect(await db.store.sessions.list()).toHaveLength(21);
    expect((await db.prisma.session.findUniqueOrThrow({ where: { id: s.id } })).lastSeq).toBe(0);
  });

  it("rejects arguments JSON cannot hold", async () => {
    const s = await db.store.sessions.create({ title: "j", workspace: "/w" });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(db.store.items.appendToolCall(s.id, { turnId: null, callId: "c", name: "t", args: cyclic, startedAt: new Date() })).rejects.toMatchObject({ code: "bad_input:db" });
    expect(await db.store.items.list(s.id)).toEqual([]);
  });
});

describe("deletes", () => {
  it("removing a session cascades to its turns and items only", async () => {
    const keep = await db.store.sessions.create({ title: "keep", workspace: "/w" });
    const drop = await db.store.sessions.create({ title: "drop", workspace: "/w" });
    for (const s of [keep, drop]) {
      const t = await db.store.turns.create(s.id, "model");
      await db.store.items.appendMessage(s.id, { turnId: t.id, role: "user", text: "x", state: "complete" });
      await db.store.items.appendToolCall(s.id, { turnId: t.id, callId: "c", name: "n", args: null, startedAt: new Date() });
      await db.store.items.appendFact(s.id, { turnId: t.id, factKind: "k", text: "", payload: undefined });
    }
    await db.store.sessions.remove(drop.id);
    const count = async () => [await db.prisma.turn.count(), await db.prisma.message.count(), await db.prisma.toolCall.count(), await db.prisma.fact.count()];
    expect(await count()).toEqual([1, 1, 1, 1]);
    expect((await db.store.items.list(keep.id)).length).toBe(3);
  });

  it("deleting a turn keeps its items and clears their turnId", async () => {
    const s = await db.store.sessions.create({ title: "t", workspace: "/w" });
    const t = await db.store.turns.create(s.id, "model");
    await db.store.items.appendMessage(s.id, { turnId: t.id, role: "user", text: "x", state: "complete" });
    await db.prisma.turn.delete({ where: { id: t.id } });
    expect((await db.store.items.list(s.id)).map((i) => i.turnId)).toEqual([null]);
  });
});

describe("store.recoverInterrupted (CORE-13)", () => {
  it("marks what a dead host left running as interrupted, and nothing else", async () => {
    const s = await db.store.sessions.create({ title: "r", workspace: "/w" });
    const done = await db.store.turns.create(s.id, "model");
    await db.store.turns.finish(done.id, { status: "completed" });
    const ok = await db.store.items.appendToolCall(s.id, { turnId: done.id, callId: "a", name: "t", args: {}, startedAt: new Date() });
    await db.store.items.finishToolCall(ok.id, { status: "ok", canonical: 1, rendered: "1", error: null, endedAt: new Date() });
    const live = await db.store.turns.create(s.id, "model");
    await db.store.items.appendMessage(s.id, { turnId: live.id, role: "user", text: "go", state: "complete" });
    const call = await db.store.items.appendToolCall(s.id, { turnId: live.id, callId: "b", name: "t", args: {}, startedAt: new Date() });
    const msg = await db.store.items.appendMessage(s.id, { turnId: live.id, role: "assistant", text: "partial", state: "streaming" });

    expect(await db.store.recoverInterrupted()).toEqual({ turns: 1, messages: 1, toolCalls: 1 });
    expect(await db.store.recoverInterrupted()).toEqual({ turns: 0, messages: 0, toolCalls: 0 });

    const turns = await db.store.turns.list(s.id);
    expect(turns.map((t) => t.status)).toEqual(["completed", "interrupted"]);
    expect(turns[1]).toMatchObject({ reason: "host restarted during the turn", endedAt: expect.any(String) });
    const items = await db.store.items.list(s.id);
    expect(items.find((i) => i.id === msg.id)).toMatchObject({ state: "interrupted", text: "partial" });
    expect(items.find((i) => i.id === call.id)).toMatchObject({ status: "cancelled", error: { code: "interrupted" }, endedAt: expect.any(String) });
    expect(items.find((i) => i.id === ok.id)).toMatchObject({ status: "ok", error: null });
  });

  it("drops an assistant message a dead host left empty instead of keeping it as interrupted", async () => {
    const s = await db.store.sessions.create({ title: "empty", workspace: "/w" });
    const live = await db.store.turns.create(s.id, "model");
    const user = await db.store.items.appendMessage(s.id, { turnId: live.id, role: "user", text: "go", state: "complete" });
    await db.store.items.appendMessage(s.id, { turnId: live.id, role: "assistant", text: "", state: "streaming" });
    expect(await db.store.recoverInterrupted()).toMatchObject({ turns: 1, messages: 0 });
    expect((await db.store.items.list(s.id)).map((i) => i.id)).toEqual([user.id]);
  });

  it("SCALE-2: a takeover recovers one session only, and the late end of its turn does not overwrite it", async () => {
    const other = await db.store.sessions.create({ title: "other", workspace: "/w" });
    const otherTurn = await db.store.turns.create(other.id, "model");
    const s = await db.store.sessions.create({ title: "taken", workspace: "/w" });
    const live = await db.store.turns.create(s.id, "model");
    expect(await db.store.recoverInterrupted({ sessionId: s.id, reason: TAKEN_OVER_REASON })).toEqual({ turns: 1, messages: 0, toolCalls: 0 });
    expect((await db.store.turns.list(other.id))[0]).toMatchObject({ id: otherTurn.id, status: "running" });
    // The host that ran it comes back late and finishes it: the takeover's record stands.
    expect(await db.store.turns.finish(live.id, { status: "completed", steps: 3 })).toMatchObject({ id: live.id, status: "interrupted", reason: TAKEN_OVER_REASON, steps: 0 });
    expect((await db.store.turns.list(s.id))[0]).toMatchObject({ status: "interrupted", reason: TAKEN_OVER_REASON });
    await expect(db.store.turns.finish("nope", { status: "completed" })).rejects.toMatchObject({ code: "not_found:session" });
  });
});

describe("store.warmWrites (#17 item 2)", () => {
  it("runs a turn's writes and rolls them back: nothing is written, and real turns work after it", async () => {
    const before = await db.store.sessions.create({ title: "kept", workspace: "/w" });
    await db.store.warmWrites();
    await db.store.warmWrites();
    expect((await db.store.sessions.list()).map((s) => s.id)).toEqual([before.id]);
    expect(await db.store.search("warm", { limit: 10 })).toEqual([]);
    expect(await db.store.recoverInterrupted()).toEqual({ turns: 0, messages: 0, toolCalls: 0 });

    const turn = await db.store.turns.create(before.id, "model");
    const msg = await db.store.items.appendMessage(before.id, { turnId: turn.id, role: "assistant", text: "", state: "streaming" });
    await db.store.items.updateMessage(msg.id, { text: "done", state: "complete" });
    expect(await db.store.turns.finish(turn.id, { status: "completed", steps: 1 })).toMatchObject({ status: "completed", steps: 1 });
    expect((await db.store.items.list(before.id)).map((i) => i.seq)).toEqual([1]);
  });
});

describe("store.settings", () => {
  it("round-trips JSON values and deletes on undefined", async () => {
    const { settings } = db.store;
    expect(await settings.get("model")).toBeUndefined();
    const value = { provider: "openai-compatible", baseUrl: "http://127.0.0.1:1", nested: [1, "two", { three: true }], nothing: null };
    await settings.set("model", value);
    expect(await settings.get("model")).toEqual(value);
    await settings.set("model", "plain");
    expect(await settings.get("model")).toBe("plain");
    await settings.set("flag", false);
    expect(await settings.get("flag")).toBe(false);
    await settings.set("flag", null);
    expect(await settings.get("flag")).toBeNull();
    await settings.set("model", undefined);
    expect(await settings.get("model")).toBeUndefined();
  });
});

describe("store reads for the model view (CTX-4)", () => {
  it("CTX-4: items.since reads from a seq on, in order; lastFact finds a kind's latest; lastSeq the latest seq; turns.byIds and lastEnded read single turns", async () => {
    const { sessions, items, turns } = db.store;
    const s = await sessions.create({ title: "S", workspace: "/s" });
    const other = await sessions.create({ title: "O", workspace: "/o" });
    const t1 = await turns.create(s.id, "model");
    await items.appendMessage(s.id, { turnId: t1.id, role: "user", text: "one", state: "complete" });
    await items.appendFact(s.id, { turnId: t1.id, factKind: "compaction", text: "first", payload: { n: 1 } });
    await items.appendToolCall(s.id, { turnId: t1.id, callId: "c", name: "read_file", args: { path: "a" }, startedAt: new Date() });
    await items.appendFact(s.id, { turnId: null, factKind: "compaction", text: "second", payload: { n: 2 } });
    await items.appendMessage(other.id, { turnId: null, role: "user", text: "elsewhere", state: "complete" });
    await turns.finish(t1.id, { status: "completed", steps: 1 });
    const t2 = await turns.create(s.id, "direct");

    expect((await items.since(s.id, 2)).map((i) => [i.seq, i.kind])).toEqual([[2, "fact"], [3, "tool_call"], [4, "fact"]]);
    expect(await items.since(s.id, 5)).toEqual([]);
    expect((await items.lastFact(s.id, "compaction"))?.text).toBe("second");
    expect(await items.lastFact(other.id, "compaction")).toBeNull();
    // lastSeq: the latest item's seq, for any kind of item; an update is not an append; 0 without items or session.
    expect(await items.lastSeq(s.id)).toBe(4);
    expect(await items.lastSeq(other.id)).toBe(1);
    expect(await items.lastSeq("no-such-session")).toBe(0);
    expect(await items.lastSeq((await sessions.create({ title: "E", workspace: "/e" })).id)).toBe(0);
    const call = (await items.since(s.id, 3))[0]!;
    await items.finishToolCall(call.id, { status: "ok", canonical: null, rendered: "", error: null, endedAt: new Date() });
    expect(await items.lastSeq(s.id)).toBe(4);
    expect((await turns.byIds(s.id, [t1.id, t2.id, "nope"])).map((t) => t.id).sort()).toEqual([t1.id, t2.id].sort());
    expect(await turns.byIds(other.id, [t1.id])).toEqual([]);
    expect(await turns.byIds(s.id, [])).toEqual([]);
    expect((await turns.lastEnded(s.id, "model"))?.id).toBe(t1.id);
    expect(await turns.lastEnded(s.id, "direct")).toBeNull();
  });
});
