import { createHash } from "node:crypto";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { Prisma } from "../../src/generated/prisma/client.js";
import { checkMigrations, createMigration, deployMigrations, prismaPaths, readMigrations, SEARCH_TABLES } from "../../src/persistence/migrate.js";
import { tmpDir } from "./tmp.js";

const paths = prismaPaths();

function columns(file: string, table: string): string[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
  } finally {
    db.close();
  }
}

/** A copy of prisma/ under `dir` (schema and migrations, free to edit) and a database `file` in `dir` migrated from it. */
async function deployedCopy(dir: string, file: string) {
  const prismaDir = join(dir, "prisma");
  cpSync(paths.prismaDir, prismaDir, { recursive: true });
  const copy = { schemaPath: join(prismaDir, "schema.prisma"), migrationsDir: join(prismaDir, "migrations") };
  const url = `file:${join(dir, file)}`;
  await deployMigrations({ ...copy, url });
  return { copy, url };
}

describe("migrations (CORE-16)", () => {
  it("the migrated database matches schema.prisma: no drift", async () => {
    await using dir = tmpDir();
    const file = join(dir.path, "drift.db");
    await deployMigrations({ ...paths, url: `file:${file}` });

    const models = Object.values(Prisma.ModelName);
    expect(models.sort()).toEqual(["ExtensionDecision", "ExtensionGrant", "ExtensionPackage", "ExtensionVersion", "Fact", "Host", "LiveEvent", "McpServer", "Message", "PermissionDecision", "PermissionRule", "Session", "SessionLease", "Setting", "ToolCall", "Turn"]);
    for (const model of models) {
      const fields = (Prisma as unknown as Record<string, Record<string, string>>)[`${model}ScalarFieldEnum`];
      expect(fields, `${model}ScalarFieldEnum`).toBeDefined();
      expect(columns(file, model).sort(), model).toEqual(Object.keys(fields!).sort());
    }

    const check = await checkMigrations({ ...paths, url: `file:${file}` });
    expect(check.problems).toEqual([]);
    expect(check.drift).toBe(false);
    expect(check.history).toMatchObject({ editedMigrationNames: [], failedMigrationNames: [], hasMigrationsTable: true, history: null });
  });

  it("the FTS5 search index and its shadow tables exist but are external to Prisma: no drift, nothing to drop (CTX-5)", async () => {
    await using dir = tmpDir();
    const file = join(dir.path, "fts.db");
    await deployMigrations({ ...paths, url: `file:${file}` });
    const db = new BetterSqlite3(file, { readonly: true });
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'SearchIndex%' ORDER BY name`).all() as { name: string }[]).map((t) => t.name);
    const triggers = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'SearchIndex%' ORDER BY name`).all() as { name: string }[]).map((t) => t.name);
    db.close();
    expect(tables).toEqual([...SEARCH_TABLES].sort());
    expect(triggers).toEqual([
      "SearchIndex_message_delete", "SearchIndex_message_insert", "SearchIndex_message_update",
      "SearchIndex_toolcall_delete", "SearchIndex_toolcall_insert", "SearchIndex_toolcall_update",
    ]);
    const check = await checkMigrations({ ...paths, url: `file:${file}` });
    expect(check.pendingSql).toBe("");
    expect(check.problems).toEqual([]);
  });

  it("commits the init migration with a sqlite lock file", () => {
    const list = readMigrations(paths.migrationsDir);
    expect(list.lockfile.content).toMatch(/provider = "sqlite"/);
    expect(list.migrationDirectories[0]?.path).toMatch(/^\d{14}_init$/);
  });

  it("deploy records checksums and applies nothing the second time", async () => {
    await using dir = tmpDir();
    const url = `file:${join(dir.path, "nested", "replay.db")}`;
    const names = readdirSync(paths.migrationsDir).filter((d) => /^\d{14}_/.test(d)).sort();

    expect((await deployMigrations({ ...paths, url })).applied).toEqual(names);
    expect((await deployMigrations({ ...paths, url })).applied).toEqual([]);

    const db = new BetterSqlite3(join(dir.path, "nested", "replay.db"), { readonly: true });
    const rows = db.prepare("SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations ORDER BY started_at").all() as {
      migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown; applied_steps_count: number;
    }[];
    db.close();
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    for (const r of rows) {
      const sql = readFileSync(join(paths.migrationsDir, r.migration_name, "migration.sql"));
      expect(r.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      expect(r.finished_at).not.toBeNull();
      expect(r.rolled_back_at).toBeNull();
      expect(r.applied_steps_count).toBe(1);
    }
  });

  it("evolves the schema: a table redefinition is created, replayed in the shadow DB and deployed with data kept", async () => {
    await using dir = tmpDir();
    const { copy: evolved, url } = await deployedCopy(dir.path, "evolve.db");
    const before = new BetterSqlite3(join(dir.path, "evolve.db"));
    before.prepare(`INSERT INTO "Setting" ("key", "valueJson", "updatedAt") VALUES ('theme', '"dark"', CURRENT_TIMESTAMP)`).run();
    before.close();

    // Optional column + new column: SQLite needs a table redefinition (a multi-statement script).
    const schema = readFileSync(evolved.schemaPath, "utf8");
    const changed = schema.replace(/valueJson\s+String\n/, "valueJson String?\n  scope     String  @default(\"global\")\n");
    expect(changed).not.toBe(schema);
    writeFileSync(evolved.schemaPath, changed);

    expect((await checkMigrations(evolved)).drift).toBe(true);
    const created = await createMigration({ ...evolved, name: "Setting scope!", now: new Date(Date.UTC(2099, 0, 2, 3, 4, 5)) });
    expect(created.name).toBe("20990102030405_setting_scope");
    expect(created.sql).toMatch(/RedefineTables/);
    expect(created.sql.split(";").filter((s) => s.trim()).length).toBeGreaterThan(3);

    // Replaying both migrations into the shadow DB runs the multi-statement script through executeRaw.
    const again = await checkMigrations({ ...evolved, url });
    expect(again.drift).toBe(false);
    expect(again.problems).toEqual(["not applied yet: 20990102030405_setting_scope"]);
    expect((await createMigration({ ...evolved, name: "noop" })).name).toBeNull();

    expect((await deployMigrations({ ...evolved, url })).applied).toEqual(["20990102030405_setting_scope"]);
    expect((await checkMigrations({ ...evolved, url })).problems).toEqual([]);
    const after = new BetterSqlite3(join(dir.path, "evolve.db"), { readonly: true });
    expect(after.prepare(`SELECT "key", "valueJson", "scope" FROM "Setting"`).all()).toEqual([{ key: "theme", valueJson: '"dark"', scope: "global" }]);
    after.close();
  });

  it("reports an edited migration and a missing schema", async () => {
    await using dir = tmpDir();
    const { copy, url } = await deployedCopy(dir.path, "edit.db");
    const [first] = readMigrations(copy.migrationsDir).migrationDirectories;
    const file = join(copy.migrationsDir, first!.path, "migration.sql");
    writeFileSync(file, `${readFileSync(file, "utf8")}\n-- edited\n`);
    expect((await checkMigrations({ ...copy, url })).problems).toEqual([`edited after being applied: ${first!.path}`]);
    await expect(deployMigrations({ ...copy, schemaPath: join(dir.path, "nope.prisma"), url })).rejects.toMatchObject({ code: "not_found:db" });
  });
});
