import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { openDatabase, type Database } from "../../src/persistence/db.js";
import { tmpDir } from "./tmp.js";
import { testDbUrl } from "../support/db-url.js";

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

/** A session of `n` items cycling message → tool call → fact, so every page mixes the three tables. */
async function seeded(n: number) {
  const { sessions, turns, items } = db.store;
  const s = await sessions.create({ title: "long", workspace: "/w" });
  const turnIds: string[] = [];
  for (let i = 1; i <= n; i++) {
    if (i % 10 === 1) turnIds.push((await turns.create(s.id, "model")).id);
    const turnId = turnIds.at(-1)!;
    if (i % 3 === 1) await items.appendMessage(s.id, { turnId, role: "user", text: `m${i}`, state: "complete" });
    else if (i % 3 === 2) await items.appendToolCall(s.id, { turnId, callId: `c${i}`, name: "t", args: { i }, startedAt: new Date() });
    else await items.appendFact(s.id, { turnId, factKind: "note", text: `f${i}`, payload: null });
  }
  return { id: s.id, turnIds };
}
const seqs = (p: { items: { seq: number }[] }) => p.items.map((i) => i.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);

describe("store.items.page (CTX-4)", () => {
  it("pages the merged items by seq: latest, older before a seq, newer after one", async () => {
    const { id } = await seeded(25);
    const { items } = db.store;
    const latest = await items.page(id, { limit: 10 });
    expect(seqs(latest)).toEqual(range(16, 25));
    expect(latest.more).toBe(true);
    expect(new Set(latest.items.map((i) => i.kind))).toEqual(new Set(["message", "tool_call", "fact"]));

    const older = await items.page(id, { beforeSeq: 16, limit: 10 });
    expect(seqs(older)).toEqual(range(6, 15));
    expect(older.more).toBe(true);
    const oldest = await items.page(id, { beforeSeq: 6, limit: 10 });
    expect(seqs(oldest)).toEqual(range(1, 5));
    expect(oldest.more).toBe(false);

    const newer = await items.page(id, { afterSeq: 0, limit: 4 });
    expect(seqs(newer)).toEqual(range(1, 4));
    expect(newer.more).toBe(true);
    const tail = await items.page(id, { afterSeq: 20, limit: 10 });
    expect(seqs(tail)).toEqual(range(21, 25));
    expect(tail.more).toBe(false);
    expect(await items.page(id, { afterSeq: 25, limit: 10 })).toEqual({ items: [], more: false });
    expect(await items.page(id, { beforeSeq: 1, limit: 10 })).toEqual({ items: [], more: false });
    // The pages are the same items `list` returns.
    expect([...oldest.items, ...older.items, ...latest.items]).toEqual(await items.list(id));
  });

  it("an empty session has one empty page; an unknown session is not_found:session", async () => {
    const s = await db.store.sessions.create({ title: "empty", workspace: "/w" });
    expect(await db.store.items.page(s.id, { limit: 5 })).toEqual({ items: [], more: false });
    await expect(db.store.items.page("nope", { limit: 5 })).rejects.toSatisfy((e) => e instanceof HostError && e.code === "not_found:session");
  });

  it("seqOf finds an item of any kind in its own session only", async () => {
    const { id } = await seeded(6);
    const other = await seeded(3);
    const all = await db.store.items.list(id);
    for (const item of all) expect(await db.store.items.seqOf(id, item.id)).toBe(item.seq);
    expect(await db.store.items.seqOf(id, "nope")).toBeNull();
    expect(await db.store.items.seqOf(other.id, all[0]!.id)).toBeNull();
  });
});

describe("store.turns.byIds / last", () => {
  it("returns the asked turns of the session, oldest first, and the most recent turn", async () => {
    const { id, turnIds } = await seeded(25);
    const other = await seeded(1);
    expect((await db.store.turns.byIds(id, [turnIds[2]!, turnIds[0]!, turnIds[2]!, "nope", other.turnIds[0]!])).map((t) => t.id)).toEqual([turnIds[0], turnIds[2]]);
    expect(await db.store.turns.byIds(id, [])).toEqual([]);
    expect((await db.store.turns.last(id))?.id).toBe(turnIds.at(-1));
    const empty = await db.store.sessions.create({ title: "empty", workspace: "/w" });
    expect(await db.store.turns.last(empty.id)).toBeNull();
  });

  it("CTX-4: reads more turns than one query may bind (a long session's view), oldest first", async () => {
    const s = await db.store.sessions.create({ title: "long", workspace: "/w" });
    // More than SQLite's 999 bound values; started at one moment, so the id breaks the ties.
    const startedAt = new Date("2026-01-01T00:00:00.000Z");
    await db.prisma.turn.createMany({ data: Array.from({ length: 1_200 }, () => ({ sessionId: s.id, mode: "model", status: "completed", startedAt })) });
    await db.prisma.turn.create({ data: { sessionId: s.id, mode: "direct", status: "completed", startedAt: new Date("2025-12-31T00:00:00.000Z") } });
    const all = await db.prisma.turn.findMany({ where: { sessionId: s.id }, orderBy: [{ startedAt: "asc" }, { id: "asc" }], select: { id: true } });
    const ids = all.map((t) => t.id);
    const got = await db.store.turns.byIds(s.id, [...ids].reverse().concat("nope"));
    expect(got.map((t) => t.id)).toEqual(ids);
    expect(got[0]?.mode).toBe("direct");
  });
});
