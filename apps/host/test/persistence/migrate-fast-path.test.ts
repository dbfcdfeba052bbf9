import { cpSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { deployMigrations, loadEngine, prismaPaths, readMigrations, upToDate, type EngineLoader } from "../../src/persistence/migrate.js";
import { tmpDir } from "./tmp.js";

const paths = prismaPaths();

/** The real engine loader, counting how often a deploy asked for it. */
function countingLoader(): EngineLoader & { calls: number } {
  const loader = Object.assign(async () => {
    loader.calls++;
    return loadEngine();
  }, { calls: 0 });
  return loader;
}

/** A copy of prisma/ under `dir` (free to edit) and the URL of a database file next to it. */
function prismaCopy(dir: string) {
  const prismaDir = join(dir, "prisma");
  cpSync(paths.prismaDir, prismaDir, { recursive: true });
  return { schemaPath: join(prismaDir, "schema.prisma"), migrationsDir: join(prismaDir, "migrations"), url: `file:${join(dir, "seam.db")}` };
}

const names = (migrationsDir: string) => readMigrations(migrationsDir).migrationDirectories.map((d) => d.path);

function sql(file: string, statement: string, ...args: unknown[]) {
  const db = new BetterSqlite3(file);
  try {
    db.prepare(statement).run(...args);
  } finally {
    db.close();
  }
}

describe("deploy skips the schema engine when the database is up to date (#17)", () => {
  it("a fresh database goes through the engine; an up-to-date one never loads it", async () => {
    await using dir = tmpDir();
    const copy = prismaCopy(dir.path);
    const first = countingLoader();
    expect((await deployMigrations({ ...copy, loadEngine: first })).applied).toEqual(names(copy.migrationsDir));
    expect(first.calls).toBe(1);

    expect(upToDate(copy.url, readMigrations(copy.migrationsDir))).toBe(true);
    const again = countingLoader();
    expect(await deployMigrations({ ...copy, loadEngine: again })).toEqual({ applied: [] });
    expect(again.calls).toBe(0);
  });

  it("a pending migration is applied through the engine", async () => {
    await using dir = tmpDir();
    const copy = prismaCopy(dir.path);
    const all = names(copy.migrationsDir);
    const last = all.at(-1)!;
    // Deploy without the last migration, then commit it back: the database is one behind.
    renameSync(join(copy.migrationsDir, last), join(dir.path, last));
    await deployMigrations(copy);
    renameSync(join(dir.path, last), join(copy.migrationsDir, last));
    expect(upToDate(copy.url, readMigrations(copy.migrationsDir))).toBe(false);

    const loader = countingLoader();
    expect((await deployMigrations({ ...copy, loadEngine: loader })).applied).toEqual([last]);
    expect(loader.calls).toBe(1);
    expect(upToDate(copy.url, readMigrations(copy.migrationsDir))).toBe(true);
  });

  it("a migration edited after it was applied goes through the engine, which answers as before", async () => {
    await using dir = tmpDir();
    const copy = prismaCopy(dir.path);
    await deployMigrations(copy);
    const [first] = names(copy.migrationsDir);
    const file = join(copy.migrationsDir, first!, "migration.sql");
    writeFileSync(file, `${readFileSync(file, "utf8")}\n-- edited\n`);
    expect(upToDate(copy.url, readMigrations(copy.migrationsDir))).toBe(false);

    const loader = countingLoader();
    // `migrate deploy` does not re-check applied migrations: nothing to apply, no error (the drift check reports the edit).
    expect(await deployMigrations({ ...copy, loadEngine: loader })).toEqual({ applied: [] });
    expect(loader.calls).toBe(1);
  });

  it("a failed migration still stops the start with the engine's error", async () => {
    await using dir = tmpDir();
    const copy = prismaCopy(dir.path);
    await deployMigrations(copy);
    const last = names(copy.migrationsDir).at(-1)!;
    sql(join(dir.path, "seam.db"), `UPDATE _prisma_migrations SET finished_at = NULL, logs = 'boom' WHERE migration_name = ?`, last);

    const loader = countingLoader();
    const error = await deployMigrations({ ...copy, loadEngine: loader }).catch((e: unknown) => e);
    expect(loader.calls).toBe(1);
    expect(error).toMatchObject({ code: "internal:db" });
    expect((error as Error).message).toContain(last);
  });

  it("a migration the folder does not know goes through the engine", async () => {
    await using dir = tmpDir();
    const copy = prismaCopy(dir.path);
    await deployMigrations(copy);
    sql(join(dir.path, "seam.db"), `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ('x', 'abc', 1, '20990101000000_unknown', 1, 1)`);
    expect(upToDate(copy.url, readMigrations(copy.migrationsDir))).toBe(false);
    const loader = countingLoader();
    await deployMigrations({ ...copy, loadEngine: loader }).catch(() => {});
    expect(loader.calls).toBe(1);
  });

  it("a missing schema is refused before anything is read, up to date or not", async () => {
    await using dir = tmpDir();
    const copy = prismaCopy(dir.path);
    await deployMigrations(copy);
    const loader = countingLoader();
    await expect(deployMigrations({ ...copy, schemaPath: join(dir.path, "nope.prisma"), loadEngine: loader })).rejects.toMatchObject({ code: "not_found:db" });
    expect(loader.calls).toBe(0);
  });
});
