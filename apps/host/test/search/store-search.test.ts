import BetterSqlite3 from "better-sqlite3";
import { cpSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createScope, type Scope } from "../../src/core/scope.js";
import { openDatabase, type Database } from "../../src/persistence/db.js";
import { deployMigrations, prismaPaths } from "../../src/persistence/migrate.js";
import { ftsQuery } from "../../src/persistence/search.js";
import { tmpDir } from "../persistence/tmp.js";
import { testDbUrl } from "../support/db-url.js";

let dir: ReturnType<typeof tmpDir>;
let scope: Scope;
let db: Database;

beforeEach(async () => {
  dir = tmpDir("seam-search-");
  scope = createScope("test");
  db = await openDatabase(scope, { home: dir.path, url: testDbUrl(`${dir.path}/search.db`) });
});
afterEach(async () => {
  await scope.dispose();
  await dir[Symbol.asyncDispose]();
});

const say = (sessionId: string, text: string, role: "user" | "assistant" = "user") =>
  db.store.items.appendMessage(sessionId, { turnId: null, role, text, state: "complete" });
const marked = (hit: { snippet: { text: string; hit: boolean }[] }) => hit.snippet.map((p) => (p.hit ? `[${p.text}]` : p.text)).join("");

describe("store.search (CTX-5, SQLite FTS5)", () => {
  it("finds a word typed 500 messages ago, with the session, item, seq, role and a marked snippet", async () => {
    const s = await db.store.sessions.create({ title: "Long one", workspace: "/w" });
    const first = await say(s.id, "remember the zebrafish experiment for later");
    // 520 more messages in one transaction-free loop would be slow through the gate; write them in bulk.
    await db.exclusive(async (prisma) => {
      const rows = Array.from({ length: 520 }, (_, i) => ({ sessionId: s.id, seq: i + 2, role: i % 2 ? "assistant" : "user", text: `filler message number ${i} about nothing`, state: "complete" }));
      await prisma.message.createMany({ data: rows });
      await prisma.session.update({ where: { id: s.id }, data: { lastSeq: 521 } });
    });
    const hits = await db.store.search("zebrafish", { limit: 10 });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ sessionId: s.id, sessionTitle: "Long one", itemId: first.id, seq: 1, kind: "message", role: "user" });
    expect(marked(hits[0]!)).toBe("remember the [zebrafish] experiment for later");
    expect(new Date(hits[0]!.at).toISOString()).toBe(hits[0]!.at);
    expect(await db.store.search("filler", { limit: 50 })).toHaveLength(50);
  });

  it("searches across sessions, filters by session, ranks by bm25 then recency, and matches the last word as a prefix", async () => {
    const a = await db.store.sessions.create({ title: "A", workspace: "/w" });
    const b = await db.store.sessions.create({ title: "B", workspace: "/w" });
    const once = await say(a.id, "the deploy script failed on a long list of unrelated words that dilute the match quite a bit");
    const twice = await say(b.id, "deploy deploy", "assistant");
    const older = await say(a.id, "kubernetes rollout");
    const newer = await say(b.id, "kubernetes rollout");
    expect((await db.store.search("deploy", { limit: 10 })).map((h) => h.itemId)).toEqual([twice.id, once.id]);
    // Equal bm25: the most recent first.
    expect((await db.store.search("kubernetes rollout", { limit: 10 })).map((h) => h.itemId)).toEqual([newer.id, older.id]);
    expect((await db.store.search("kube", { limit: 10 })).map((h) => h.itemId).sort()).toEqual([newer.id, older.id].sort());
    expect((await db.store.search("kubernetes", { limit: 10, sessionId: a.id })).map((h) => h.itemId)).toEqual([older.id]);
    // Every word must match; only the last is a prefix.
    expect(await db.store.search("kube rollout", { limit: 10 })).toEqual([]);
    expect(await db.store.search("deploy kubernetes", { limit: 10 })).toEqual([]);
    expect((await db.store.search("deploy", { limit: 1 }))).toHaveLength(1);
  });

  it("never errors on FTS syntax or odd characters; they are searched as plain words", async () => {
    const s = await db.store.sessions.create({ title: "Odd", workspace: "/w" });
    const quoted = await say(s.id, 'she said "hello" AND left - NOT OR NEAR(x) col:umn');
    const accents = await say(s.id, "Crème brûlée à Zürich 東京 ✓");
    for (const q of ['"', '""', '"hello', "*", "hel*", "AND", "AND OR NOT", "-", "- -x", "(", ")", "NEAR(", "col:umn", "^", "{text}:", "'", "\\", "✓", "東京", "%_", "\u0001", "a\u0002b"]) {
      await expect(db.store.search(q, { limit: 5 }), q).resolves.toBeInstanceOf(Array);
    }
    expect((await db.store.search('"hello"', { limit: 5 })).map((h) => h.itemId)).toEqual([quoted.id]);
    expect((await db.store.search("AND", { limit: 5 })).map((h) => h.itemId)).toEqual([quoted.id]);
    expect((await db.store.search("near(x)", { limit: 5 })).map((h) => h.itemId)).toEqual([quoted.id]);
    expect((await db.store.search("creme brulee", { limit: 5 })).map((h) => h.itemId)).toEqual([accents.id]);
    expect((await db.store.search("zurich", { limit: 5 })).map((h) => h.itemId)).toEqual([accents.id]);
    expect((await db.store.search("東京", { limit: 5 })).map((h) => h.itemId)).toEqual([accents.id]);
    // No letter or digit at all: nothing to look for.
    expect(await db.store.search("- * \"", { limit: 5 })).toEqual([]);
    // Item ids are indexed for the triggers, but never matched by a search.
    expect(await db.store.search(quoted.id, { limit: 5 })).toEqual([]);
  });

  it("indexes a streaming message only once it settles, and follows its final text", async () => {
    const s = await db.store.sessions.create({ title: "Stream", workspace: "/w" });
    const m = await db.store.items.appendMessage(s.id, { turnId: null, role: "assistant", text: "", state: "streaming" });
    await db.store.items.updateMessage(m.id, { text: "partial platypus", state: "streaming" });
    expect(await db.store.search("platypus", { limit: 5 })).toEqual([]);
    await db.store.items.updateMessage(m.id, { text: "partial platypus and a wombat", state: "complete" });
    expect((await db.store.search("platypus", { limit: 5 })).map((h) => h.itemId)).toEqual([m.id]);
    expect((await db.store.search("wombat", { limit: 5 })).map((h) => h.itemId)).toEqual([m.id]);
    await db.store.items.updateMessage(m.id, { text: "only a wombat now", state: "complete" });
    expect(await db.store.search("platypus", { limit: 5 })).toEqual([]);
    expect(await db.store.search("wombat", { limit: 5 })).toHaveLength(1);
    // A stream cut short by a restart is indexed when recovery marks it interrupted.
    const cut = await db.store.items.appendMessage(s.id, { turnId: null, role: "assistant", text: "half an echidna", state: "streaming" });
    await db.store.recoverInterrupted();
    expect((await db.store.search("echidna", { limit: 5 })).map((h) => h.itemId)).toEqual([cut.id]);
  });

  it("indexes tool calls by name and arguments", async () => {
    const s = await db.store.sessions.create({ title: "Tools", workspace: "/w" });
    const call = await db.store.items.appendToolCall(s.id, { turnId: null, callId: "c1", name: "bash", args: { command: "grep -rn needle src/" }, startedAt: new Date() });
    const hits = await db.store.search("needle", { limit: 5 });
    expect(hits).toMatchObject([{ itemId: call.id, kind: "tool_call", role: "bash", seq: call.seq }]);
    await db.store.items.finishToolCall(call.id, { status: "ok", canonical: null, rendered: "found", error: null, endedAt: new Date() });
    expect(await db.store.search("needle", { limit: 5 })).toHaveLength(1);
  });

  it("deleted sessions vanish from the results; forks are found as their own session", async () => {
    const a = await db.store.sessions.create({ title: "Gone", workspace: "/w" });
    const b = await db.store.sessions.create({ title: "Stays", workspace: "/w" });
    await say(a.id, "ephemeral axolotl");
    await db.store.items.appendToolCall(a.id, { turnId: null, callId: "c1", name: "read_file", args: { path: "axolotl.md" }, startedAt: new Date() });
    const kept = await say(b.id, "durable axolotl");
    expect(await db.store.search("axolotl", { limit: 10 })).toHaveLength(3);
    await db.store.sessions.remove(a.id);
    expect((await db.store.search("axolotl", { limit: 10 })).map((h) => h.itemId)).toEqual([kept.id]);
    const fork = await db.store.sessions.createWithHistory({ title: "Stays (fork)", workspace: "/w", mode: null, turns: [], items: await db.store.items.list(b.id) });
    expect((await db.store.search("axolotl", { limit: 10 })).map((h) => h.sessionId).sort()).toEqual([b.id, fork.id].sort());
    const rows = await db.exclusive((p) => p.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*) AS n FROM "SearchIndex"`));
    expect(Number(rows[0]!.n)).toBe(2);
  });

  it("ftsQuery quotes every word and makes the last a prefix", () => {
    expect(ftsQuery('a "b" AND -c')).toBe('"text" : ("a" """b""" "AND" "-c" *)');
    expect(ftsQuery("  ")).toBeNull();
    expect(ftsQuery("* - \"")).toBeNull();
  });
});

describe("the search migration (CTX-5)", () => {
  it("backfills rows written before it and keeps them in step afterwards", async () => {
    await using tmp = tmpDir("seam-search-backfill-");
    const paths = prismaPaths();
    // The migrations folder as it was before the search index.
    const before = join(tmp.path, "prisma");
    cpSync(paths.prismaDir, before, { recursive: true });
    const search = readdirSync(join(before, "migrations")).filter((d) => d.endsWith("_search_fts"));
    expect(search).toHaveLength(1);
    rmSync(join(before, "migrations", search[0]!), { recursive: true });
    const file = join(tmp.path, "old.db");
    await deployMigrations({ schemaPath: join(before, "schema.prisma"), migrationsDir: join(before, "migrations"), url: `file:${file}` });

    const raw = new BetterSqlite3(file);
    const now = new Date().toISOString();
    raw.prepare(`INSERT INTO "Session" ("id", "title", "workspace", "lastSeq", "createdAt", "updatedAt") VALUES ('s1', 'Old session', '/w', 3, ?, ?)`).run(now, now);
    const msg = raw.prepare(`INSERT INTO "Message" ("id", "sessionId", "seq", "role", "text", "state", "createdAt", "updatedAt") VALUES (?, 's1', ?, ?, ?, ?, ?, ?)`);
    msg.run("m1", 1, "user", "an old question about narwhals", "complete", now, now);
    msg.run("m2", 2, "assistant", "an answer cut short about narwhals", "interrupted", now, now);
    msg.run("m3", 3, "assistant", "still streaming narwhals", "streaming", now, now);
    raw.prepare(`INSERT INTO "ToolCall" ("id", "sessionId", "seq", "callId", "name", "argsJson", "status", "startedAt") VALUES ('t1', 's1', 4, 'c', 'glob', '{"pattern":"**/narwhal*.ts"}', 'ok', ?)`).run(now);
    raw.close();

    const opened = await openDatabase(scope, { home: tmp.path, url: `file:${file}` });
    const hits = await opened.store.search("narwhal", { limit: 10 });
    expect(hits.map((h) => h.itemId).sort()).toEqual(["m1", "m2", "t1"]);
    expect(hits.every((h) => h.sessionTitle === "Old session")).toBe(true);
    await opened.store.recoverInterrupted();
    expect((await opened.store.search("narwhals", { limit: 10 })).map((h) => h.itemId).sort()).toEqual(["m1", "m2", "m3"]);
    await opened.store.sessions.remove("s1");
    expect(await opened.store.search("narwhal", { limit: 10 })).toEqual([]);
  });
});
