/**
 * Readiness of the database (SCALE-4, `/readyz`): reachable and every committed migration applied, asked
 * again on every check; a hung database fails the check instead of hanging it; shutting down is not ready.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Log } from "../../src/core/log.js";
import { createScope } from "../../src/core/scope.js";
import { openDatabase, type Database } from "../../src/persistence/db.js";
import { prismaPaths, readMigrations } from "../../src/persistence/migrate.js";
import { createReadiness, NOT_READY } from "../../src/persistence/readiness.js";
import { onPostgres } from "../support/db-url.js";
import { tmpDir } from "./tmp.js";

const committed = readMigrations(prismaPaths(undefined, onPostgres ? "postgresql" : "sqlite").migrationsDir).migrationDirectories.map((d) => d.path);
/** The n-th (1-based) placeholder of the database the run uses. */
const $ = (n: number) => (onPostgres ? `$${n}` : "?");
type Row = Record<string, unknown>;

function recordingLog(): Log & { lines: { level: string; message: string; data?: Row }[] } {
  const lines: { level: string; message: string; data?: Row }[] = [];
  const at = (level: string) => (message: string, data?: Row) => void lines.push({ level, message, data });
  return { lines, info: at("info"), warn: at("warn"), error: at("error") };
}

describe("database readiness (SCALE-4)", () => {
  beforeEach(() => { vi.stubEnv("DATABASE_URL", ""); });
  afterEach(() => { vi.unstubAllEnvs(); });

  it("is ready on a migrated database, not while a committed migration is missing, and ready again once it is back", async () => {
    expect(committed.length).toBeGreaterThan(0);
    await using dir = tmpDir();
    await using scope = createScope("test");
    const db = await openDatabase(scope, { home: dir.path });
    const log = recordingLog();
    const readiness = createReadiness({ db, log });
    expect(await readiness.check()).toEqual({ ok: true });
    expect(log.lines).toEqual([]);

    const last = committed.at(-1)!;
    const [row] = await db.prisma.$queryRawUnsafe<Row[]>(`SELECT * FROM "_prisma_migrations" WHERE migration_name = ${$(1)}`, last);
    await db.prisma.$executeRawUnsafe(`DELETE FROM "_prisma_migrations" WHERE migration_name = ${$(1)}`, last);
    expect(await readiness.check()).toEqual({ ok: false, reason: NOT_READY.migrations });
    // Asked again, not remembered: still not ready; the change is logged once, naming what is missing.
    expect(await readiness.check()).toEqual({ ok: false, reason: NOT_READY.migrations });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({ level: "warn", message: `not ready: ${NOT_READY.migrations}` });
    expect(String(log.lines[0]!.data?.detail)).toContain(last);

    const columns = Object.keys(row!);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO "_prisma_migrations" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((_, i) => $(i + 1)).join(", ")})`,
      ...columns.map((c) => row![c]),
    );
    expect(await readiness.check()).toEqual({ ok: true });
    expect(log.lines.at(-1)).toMatchObject({ level: "info", message: expect.stringMatching(/^ready again/) });
  });

  it("does not count a rolled back or unfinished migration as applied", async () => {
    await using dir = tmpDir();
    await using scope = createScope("test");
    const db = await openDatabase(scope, { home: dir.path });
    const readiness = createReadiness({ db });
    const first = committed[0]!;
    await db.prisma.$executeRawUnsafe(`UPDATE "_prisma_migrations" SET rolled_back_at = finished_at WHERE migration_name = ${$(1)}`, first);
    expect(await readiness.check()).toEqual({ ok: false, reason: NOT_READY.migrations });
    await db.prisma.$executeRawUnsafe(`UPDATE "_prisma_migrations" SET rolled_back_at = NULL, finished_at = NULL WHERE migration_name = ${$(1)}`, first);
    expect(await readiness.check()).toEqual({ ok: false, reason: NOT_READY.migrations });
  });

  it("is not ready when the migrations table is gone, or the committed folder cannot be read", async () => {
    await using dir = tmpDir();
    await using scope = createScope("test");
    const db = await openDatabase(scope, { home: dir.path });
    expect(await createReadiness({ db, migrationsDir: join(dir.path, "missing") }).check()).toEqual({ ok: true }); // no committed migrations: nothing to miss
    await db.prisma.$executeRawUnsafe(`DROP TABLE "_prisma_migrations"`);
    expect(await createReadiness({ db }).check()).toEqual({ ok: false, reason: NOT_READY.migrations });
  });

  it("is not ready once the database is closed (its scope disposed)", async () => {
    await using dir = tmpDir();
    const scope = createScope("db");
    const db = await openDatabase(scope, { home: dir.path });
    const log = recordingLog();
    const readiness = createReadiness({ db, log });
    expect(await readiness.check()).toEqual({ ok: true });
    await scope.dispose();
    expect(await readiness.check()).toEqual({ ok: false, reason: NOT_READY.unreachable });
    expect(log.lines[0]).toMatchObject({ level: "warn", message: `not ready: ${NOT_READY.unreachable}` });
  });

  it("is not ready when the database does not answer within the timeout, and does not pile up queries meanwhile", async () => {
    let calls = 0;
    let release!: () => void;
    const hung: Pick<Database, "exclusive"> = {
      exclusive: () => {
        calls++;
        // `exclusive` is generic in what its callback returns; a fake that never runs the callback can only
        // promise "something", which the check ignores anyway (it timed out).
        return new Promise((resolve) => { release = () => resolve({ ready: { ok: true } } as never); });
      },
    };
    const readiness = createReadiness({ db: hung, timeoutMs: 20 });
    expect(await readiness.check()).toEqual({ ok: false, reason: NOT_READY.slow });
    expect(await readiness.check()).toEqual({ ok: false, reason: NOT_READY.slow });
    expect(calls).toBe(1);
    release();
    await vi.waitFor(async () => expect(await readiness.check()).toEqual({ ok: false, reason: NOT_READY.slow }));
    expect(calls).toBe(2); // the hung query finished, so the next check asked again
  });

  it("is not ready while the host shuts down, even with a healthy database", async () => {
    await using dir = tmpDir();
    await using scope = createScope("test");
    const db = await openDatabase(scope, { home: dir.path });
    const stopping = new AbortController();
    const readiness = createReadiness({ db, stopping: stopping.signal });
    expect(await readiness.check()).toEqual({ ok: true });
    stopping.abort();
    expect(await readiness.check()).toEqual({ ok: false, reason: NOT_READY.stopping });
  });

  it("fails when a query fails (SELECT 1 refused) with the unreachable reason", async () => {
    const broken: Pick<Database, "exclusive"> = {
      // A stand-in for the Prisma client with the one method readiness calls; the rest of PrismaClient is not needed.
      exclusive: (fn) => fn({ $queryRawUnsafe: () => Promise.reject(new Error("connection refused to postgres://u:p@db:5432/seam")) } as never),
    };
    const log = recordingLog();
    const readiness = createReadiness({ db: broken, log });
    expect(await readiness.check()).toEqual({ ok: false, reason: NOT_READY.unreachable });
    expect(String(log.lines[0]?.data?.detail)).toContain("connection refused");
  });
});
