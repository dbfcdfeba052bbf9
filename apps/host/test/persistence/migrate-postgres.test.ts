/**
 * Migrations on PostgreSQL (SCALE-1): the committed prisma/postgres migrations cover the schema (no drift),
 * deploy applies them once (also with two hosts starting together), and the schema is generated from the
 * one source. Runs in the PostgreSQL run (`vitest.postgres.config.ts`; this file names openDatabase for it).
 */
import { createHash, randomUUID } from "node:crypto";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { Prisma } from "../../src/generated/prisma-pg/client.js";
import { createScope } from "../../src/core/scope.js";
import { openDatabase } from "../../src/persistence/db.js";
import { checkMigrations, createMigration, deployMigrations, prismaPaths, readMigrations } from "../../src/persistence/migrate.js";
import { postgresSchema } from "../../scripts/postgres-schema-text.mjs";
import { onPostgres, testPostgres } from "../support/db-url.js";
import { tmpDir } from "./tmp.js";

const paths = prismaPaths(undefined, "postgresql");
const server = testPostgres ?? "";
const freshUrl = () => server.replace(/\/postgres$/, `/m_${randomUUID().replaceAll("-", "")}`);

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe("the PostgreSQL schema (SCALE-1)", () => {
  it("is generated from prisma/schema.prisma: only the provider and the client's folder differ", () => {
    const source = readFileSync(join(paths.prismaDir, "schema.prisma"), "utf8");
    expect(readFileSync(paths.schemaPath, "utf8")).toBe(postgresSchema(source));
    expect(readMigrations(paths.migrationsDir).lockfile.content).toMatch(/provider = "postgresql"/);
    expect(() => postgresSchema(source.replace('provider = "sqlite"', 'provider = "mysql"'))).toThrow(/provider = "sqlite"/);
  });
});

describe.skipIf(!onPostgres)("migrations on PostgreSQL (SCALE-1)", () => {
  it("a fresh database gets every migration once, with checksums, and matches the schema: no drift", async () => {
    const url = freshUrl();
    const names = readMigrations(paths.migrationsDir).migrationDirectories.map((d) => d.path);
    expect(names.length).toBeGreaterThan(1);
    // The database does not exist yet: deploy creates it, as `prisma migrate deploy` does.
    expect((await deployMigrations({ ...paths, url })).applied).toEqual(names);
    expect((await deployMigrations({ ...paths, url })).applied).toEqual([]);

    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(url, "SELECT * FROM _prisma_migrations ORDER BY started_at");
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    for (const r of rows) {
      expect(r.checksum).toBe(createHash("sha256").update(readFileSync(join(paths.migrationsDir, r.migration_name, "migration.sql"))).digest("hex"));
      expect(r.finished_at).not.toBeNull();
      expect(r.rolled_back_at).toBeNull();
    }

    for (const model of Object.values(Prisma.ModelName)) {
      const fields = (Prisma as unknown as Record<string, Record<string, string>>)[`${model}ScalarFieldEnum`]!;
      const cols = await query<{ column_name: string }>(url, `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '${model}'`);
      expect(cols.map((c) => c.column_name).sort(), model).toEqual(Object.keys(fields).sort());
    }
    const check = await checkMigrations({ ...paths, url, shadowUrl: server });
    expect(check.problems).toEqual([]);
    expect(check.pendingSql).toBe("");
    // The search table is external to Prisma: present, not something a diff would drop.
    expect(await query(url, `SELECT to_regclass('"SearchIndex"') IS NOT NULL AS present`)).toEqual([{ present: true }]);
    // The shadow databases the checks made are gone again.
    expect(await query(server, "SELECT datname FROM pg_database WHERE datname LIKE 'seam_shadow_%'")).toEqual([]);
  });

  it("two hosts starting at once on an empty database: the migrations are applied once, both open", async () => {
    const url = freshUrl();
    await using home = tmpDir();
    await using scope = createScope("two");
    const [a, b] = await Promise.all([openDatabase(scope, { home: home.path, url }), openDatabase(scope, { home: home.path, url })]);
    const s = await a.store.sessions.create({ title: "shared", workspace: "/w" });
    expect((await b.store.sessions.get(s.id))?.title).toBe("shared");
    const counts = await query<{ n: string }>(url, "SELECT count(*) AS n FROM _prisma_migrations");
    expect(Number(counts[0]!.n)).toBe(readMigrations(paths.migrationsDir).migrationDirectories.length);
  });

  it("a schema change without a migration is drift; the created migration covers it and deploys with data kept", async () => {
    await using dir = tmpDir();
    const prismaDir = join(dir.path, "prisma");
    cpSync(paths.prismaDir, prismaDir, { recursive: true });
    const copy = prismaPaths(prismaDir, "postgresql");
    const url = freshUrl();
    await deployMigrations({ ...copy, url });
    await query(url, `INSERT INTO "Setting" ("key", "valueJson", "updatedAt") VALUES ('theme', '"dark"', now())`);

    writeFileSync(copy.schemaPath, readFileSync(copy.schemaPath, "utf8").replace(/valueJson\s+String\n/, "valueJson String?\n  scope     String  @default(\"global\")\n"));
    const drift = await checkMigrations({ ...copy, shadowUrl: server });
    expect(drift.drift).toBe(true);
    expect(drift.pendingSql).toMatch(/ALTER TABLE "Setting"/);
    const created = await createMigration({ ...copy, name: "setting scope", url: server, now: new Date(Date.UTC(2099, 0, 2, 3, 4, 5)) });
    expect(created.name).toBe("20990102030405_setting_scope");
    expect((await checkMigrations({ ...copy, url, shadowUrl: server })).problems).toEqual(["not applied yet: 20990102030405_setting_scope"]);
    expect((await deployMigrations({ ...copy, url })).applied).toEqual(["20990102030405_setting_scope"]);
    expect(await query(url, `SELECT "key", "valueJson", "scope" FROM "Setting"`)).toEqual([{ key: "theme", valueJson: '"dark"', scope: "global" }]);
  });

  it("an unreachable server is unavailable:db, saying where and what to check, without the password", async () => {
    await using home = tmpDir();
    await using scope = createScope("down");
    const error = await openDatabase(scope, { home: home.path, url: "postgres://seam:hunter2@127.0.0.1:9/seam?connect_timeout=2" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "unavailable:db", message: expect.stringMatching(/cannot connect to postgres:\/\/seam:\*\*\*@127\.0\.0\.1:9\/seam.*Check that PostgreSQL runs there/s) });
    expect(String((error as Error).message)).not.toContain("hunter2");
  });
});
