import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createScope } from "../../src/core/scope.js";
import { openDatabase } from "../../src/persistence/db.js";
import { checkMigrations, deployIsolated, deployMigrations, prismaPaths, readMigrations, upToDate } from "../../src/persistence/migrate.js";
import { seedSqlite } from "../../src/persistence/seed.js";
import { tmpDir } from "./tmp.js";

const paths = prismaPaths();
const names = readMigrations(paths.migrationsDir).migrationDirectories.map((d) => d.path);
/** What `deployIsolated` passes: the seed must record exactly the migrations in `dir`. */
const matching = (dir = paths.migrationsDir) => (seedUrl: string) => upToDate(seedUrl, readMigrations(dir));
const hash = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** What `scripts/seed-db.mjs` builds: the committed migrations applied by the schema engine. */
async function buildSeed(dir: string): Promise<string> {
  const seed = join(dir, "seed.db");
  await deployMigrations({ ...paths, url: `file:${seed}` });
  return seed;
}

function read<T>(file: string, sql: string): T[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

type Row = { id: string; checksum: string; migration_name: string; started_at: string; finished_at: string };
const schemaOf = (file: string) => read<{ type: string; name: string; sql: string | null }>(file, "SELECT type, name, sql FROM sqlite_master ORDER BY name");

describe("a new SQLite database from the build's seed (#17 item 1, CORE-16)", () => {
  it("copies the seed with new ids and times; the engine and Prisma's history check agree it is up to date", async () => {
    await using dir = tmpDir();
    const seed = await buildSeed(dir.path);
    const before = hash(seed);
    const target = join(dir.path, "home", "seam.db");
    const started = Date.now();

    expect(seedSqlite(`file:${target}`, matching(), seed)).toBe(true);

    expect(hash(seed)).toBe(before);
    expect(schemaOf(target)).toEqual(schemaOf(seed));
    const seedRows = read<Row>(seed, "SELECT * FROM _prisma_migrations ORDER BY migration_name");
    const rows = read<Row>(target, "SELECT * FROM _prisma_migrations ORDER BY migration_name");
    expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(seedRows.map((r) => [r.migration_name, r.checksum]));
    for (const [i, row] of rows.entries()) {
      expect(row.id).not.toBe(seedRows[i]!.id);
      expect(Date.parse(row.started_at)).toBeGreaterThanOrEqual(started - 1000);
      expect(row.finished_at).toBe(row.started_at);
    }
    expect(upToDate(`file:${target}`, readMigrations(paths.migrationsDir))).toBe(true);
    // The engine reads the copied history as its own: nothing edited, failed or pending.
    expect((await checkMigrations({ ...paths, url: `file:${target}` })).problems).toEqual([]);
    // No temporary copy is left beside it.
    expect(readdirSync(join(dir.path, "home"))).toEqual(["seam.db"]);
  });

  it("deployIsolated seeds a new database; it then opens and takes writes like one the engine made", async () => {
    await using dir = tmpDir();
    const seed = await buildSeed(dir.path);
    const home = join(dir.path, "home");
    const url = `file:${join(home, "seam.db")}`;
    // A marker only the seed has: the database must be its copy, not a fresh run of the engine.
    const marker = new BetterSqlite3(seed);
    marker.exec("CREATE TABLE seed_marker (x INTEGER)");
    marker.close();
    expect(await deployIsolated({ ...paths, url, seed })).toEqual({ applied: names });
    expect(read<{ name: string }>(join(home, "seam.db"), "SELECT name FROM sqlite_master WHERE name = 'seed_marker'")).toHaveLength(1);
    expect(upToDate(url, readMigrations(paths.migrationsDir))).toBe(true);
    await using scope = createScope("test");
    const db = await openDatabase(scope, { home, url });
    const session = await db.store.sessions.create({ workspace: dir.path, title: "seeded" });
    expect((await db.store.sessions.get(session.id))?.title).toBe("seeded");
  });

  it("never touches a database that exists", async () => {
    await using dir = tmpDir();
    const seed = await buildSeed(dir.path);
    const target = join(dir.path, "seam.db");
    writeFileSync(target, "not a database");
    expect(seedSqlite(`file:${target}`, matching(), seed)).toBe(false);
    expect(readFileSync(target, "utf8")).toBe("not a database");
  });

  it("is not used when it does not match the committed migrations, or is missing", async () => {
    await using dir = tmpDir();
    const seed = await buildSeed(dir.path);
    const prismaDir = join(dir.path, "prisma");
    cpSync(paths.prismaDir, prismaDir, { recursive: true });
    const migrationsDir = join(prismaDir, "migrations");
    const target = join(dir.path, "seam.db");

    // A migration committed after the seed was built.
    cpSync(join(migrationsDir, names[0]!), join(migrationsDir, "29991231000000_later"), { recursive: true });
    expect(seedSqlite(`file:${target}`, matching(migrationsDir), seed)).toBe(false);
    expect(existsSync(target)).toBe(false);

    // A committed migration edited after the seed was built (its checksum differs).
    renameSync(join(migrationsDir, "29991231000000_later"), join(dir.path, "later"));
    const last = join(migrationsDir, names.at(-1)!, "migration.sql");
    writeFileSync(last, `${readFileSync(last, "utf8")}\n-- edited\n`);
    expect(seedSqlite(`file:${target}`, matching(migrationsDir), seed)).toBe(false);
    expect(existsSync(target)).toBe(false);

    expect(seedSqlite(`file:${target}`, matching(), join(dir.path, "no-seed.db"))).toBe(false);
    expect(existsSync(target)).toBe(false);
  });
});
