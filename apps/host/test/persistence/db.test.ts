import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createScope } from "../../src/core/scope.js";
import type { PrismaClient } from "../../src/generated/prisma/client.js";
import { openDatabase } from "../../src/persistence/db.js";
import { databaseUrl } from "../../src/persistence/url.js";
import { tmpDir } from "./tmp.js";
import { onPostgres, testDbUrl } from "../support/db-url.js";

describe("openDatabase (CORE-16)", () => {
  beforeEach(() => { vi.stubEnv("DATABASE_URL", ""); });
  afterEach(() => { vi.unstubAllEnvs(); });

  it.skipIf(onPostgres)("creates a private home, migrates and opens SQLite in WAL mode with a busy timeout", async () => {
    await using dir = tmpDir();
    const home = join(dir.path, "home");
    await using scope = createScope("test");
    const db = await openDatabase(scope, { home, busyTimeoutMs: 7000 });

    expect(db.url).toBe(`file:${join(home, "seam.db")}`);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    const pragma = async (name: string) => {
      const [row] = await db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`);
      return Object.values(row ?? {})[0];
    };
    expect(await pragma("journal_mode")).toBe("wal");
    expect(Number(await pragma("busy_timeout"))).toBe(7000);
    expect(Number(await pragma("foreign_keys"))).toBe(1);
    const migrations = await db.prisma.$queryRawUnsafe<{ n: bigint | number }[]>(`SELECT count(*) AS n FROM _prisma_migrations`);
    expect(Number(migrations[0]?.n)).toBeGreaterThan(0);
  });

  it("keeps everything across close and reopen (durability)", async () => {
    await using dir = tmpDir();
    const first = createScope("first");
    const a = await openDatabase(first, { home: dir.path });
    const s = await a.store.sessions.create({ title: "durable", workspace: "/w" });
    const turn = await a.store.turns.create(s.id, "model");
    await a.store.items.appendMessage(s.id, { turnId: turn.id, role: "user", text: "hello", state: "complete" });
    await a.store.items.appendFact(s.id, { turnId: turn.id, factKind: "skills_catalog", text: "cat", payload: { n: 1 } });
    await a.store.settings.set("model", { provider: "openai", model: "m" });
    await first.dispose();

    await using second = createScope("second");
    const b = await openDatabase(second, { home: dir.path });
    expect(await b.store.sessions.get(s.id)).toMatchObject({ title: "durable", workspace: "/w" });
    expect((await b.store.items.list(s.id)).map((i) => [i.seq, i.kind])).toEqual([[1, "message"], [2, "fact"]]);
    expect(await b.store.turns.list(s.id)).toEqual([turn]);
    expect(await b.store.settings.get("model")).toEqual({ provider: "openai", model: "m" });
    // Seq allocation continues after a reopen.
    expect((await b.store.items.appendMessage(s.id, { turnId: null, role: "user", text: "again", state: "complete" })).seq).toBe(3);
  });

  it("a second open of the same file can write right after migrating (no lock left behind)", async () => {
    await using dir = tmpDir();
    await using scope = createScope("test");
    const a = await openDatabase(scope, { home: dir.path, busyTimeoutMs: 1000 });
    const b = await openDatabase(scope, { home: dir.path, busyTimeoutMs: 1000 });
    const s = await a.store.sessions.create({ title: "x", workspace: "/w" });
    await b.store.sessions.rename(s.id, "y");
    expect((await a.store.sessions.get(s.id))?.title).toBe("y");
  });
});

describe("Database lifetime", () => {
  it("disposing the scope lets queued calls finish, then refuses new ones with closed:db", async () => {
    await using dir = tmpDir();
    const scope = createScope("test");
    const db = await openDatabase(scope, { home: dir.path, url: testDbUrl(join(dir.path, "life.db")) });
    const s = await db.store.sessions.create({ title: "t", workspace: "/w" });
    const pending = Array.from({ length: 5 }, (_, i) => db.store.items.appendMessage(s.id, { turnId: null, role: "user", text: `${i}`, state: "complete" }));
    const counted = db.exclusive((p) => p.message.count());
    await scope.dispose();
    expect((await Promise.all(pending)).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(await counted).toBe(5);
    await expect(db.store.sessions.list()).rejects.toMatchObject({ code: "closed:db" });
    await expect(db.exclusive((p) => p.session.count())).rejects.toMatchObject({ code: "closed:db" });
  });

  it("exclusive maps Prisma errors to HostError, coded for what the call was about", async () => {
    await using dir = tmpDir();
    await using scope = createScope("test");
    const db = await openDatabase(scope, { home: dir.path, url: testDbUrl(join(dir.path, "ex.db")) });
    const update = (p: PrismaClient) => p.session.update({ where: { id: "nope" }, data: { title: "x" } });
    await expect(db.exclusive(update)).rejects.toMatchObject({ code: "not_found:db", message: "database not found" });
    await expect(db.exclusive(update, { capability: "session", what: "session nope" })).rejects.toMatchObject({ code: "not_found:session", message: "session nope not found" });
  });
});

describe.skipIf(onPostgres)("databaseUrl (SCALE-1)", () => {
  it("uses <home>/seam.db, SEAM_DATABASE_URL before DATABASE_URL, file: and postgres:// URLs, and refuses anything else", () => {
    expect(databaseUrl("/data", {})).toBe("file:/data/seam.db");
    expect(databaseUrl("/data", { DATABASE_URL: "file:/tmp/x.db" })).toBe("file:/tmp/x.db");
    expect(databaseUrl("/data", { DATABASE_URL: "file:///tmp/y.db?mode=rwc" })).toBe("file:/tmp/y.db");
    expect(databaseUrl("/data", { DATABASE_URL: "file:rel.db" })).toBe(`file:${join(process.cwd(), "rel.db")}`);
    expect(databaseUrl("/data", { DATABASE_URL: "postgresql://u@h/db" })).toBe("postgresql://u@h/db");
    expect(databaseUrl("/data", { SEAM_DATABASE_URL: "postgres://u:p@h:5433/team", DATABASE_URL: "file:/tmp/x.db" })).toBe("postgres://u:p@h:5433/team");
    const refused = (env: Record<string, string>, message: RegExp) =>
      expect(() => databaseUrl("/data", env)).toThrow(expect.objectContaining({ code: "bad_input:db", message: expect.stringMatching(message) }));
    refused({ SEAM_DATABASE_URL: "mysql://u@h/db" }, /SEAM_DATABASE_URL must be a file: SQLite URL or a postgres:\/\/ URL/);
    refused({ SEAM_DATABASE_URL: "postgres://u@h" }, /names no database/);
    refused({ SEAM_DATABASE_URL: "postgres://u@h/" }, /names no database/);
    refused({ DATABASE_URL: "file::memory:" }, /must name a database file/);
  });
});
