#!/usr/bin/env node
/**
 * `node dist/persistence/migrate-cli.js create <name> | deploy | check` (package scripts
 * db:migrate:*). The database is SEAM_DATABASE_URL or DATABASE_URL (file: or postgres://), else
 * `$SEAM_HOME/seam.db`, else `<repo>/.seam/seam.db` — the same default as prisma.config.ts.
 * `create` and `check` cover both providers (SCALE-1); the PostgreSQL half needs a server for its
 * shadow database, named by a postgres:// SEAM_POSTGRES_URL (or SEAM_DATABASE_URL).
 */
import { dirname, join } from "node:path";
import { messageOf } from "../core/errors.js";
import { checkMigrations, createMigration, deployMigrations, prismaPaths } from "./migrate.js";
import { displayUrl, providerOf } from "./provider.js";
import { databaseUrl } from "./url.js";

const USAGE = "usage: migrate-cli create <name> | deploy | check";

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const paths = prismaPaths();
  const pgPaths = prismaPaths(paths.prismaDir, "postgresql");
  const home = process.env.SEAM_HOME || join(dirname(paths.prismaDir), ".seam");
  const pgServer = [process.env.SEAM_POSTGRES_URL, process.env.SEAM_DATABASE_URL].find((u) => u && /^postgres(ql)?:\/\//i.test(u));
  const noPgServer = "the PostgreSQL migrations need a server for the shadow database: set SEAM_POSTGRES_URL=postgres://user@127.0.0.1:5432/postgres";
  switch (command) {
    case "create": {
      const name = rest.join("_");
      if (!name) return fail(USAGE);
      if (!pgServer) return fail(noPgServer);
      for (const [label, p] of [["SQLite", paths], ["PostgreSQL", pgPaths]] as const) {
        const created = await createMigration({ ...p, name, url: pgServer });
        if (!created.name) console.log(`${label}: the schema matches the migrations; nothing to create`);
        else console.log(`${label}: created ${created.dir}/migration.sql`);
      }
      return 0;
    }
    case "deploy": {
      const url = databaseUrl(home);
      const { applied } = await deployMigrations({ ...(providerOf(url) === "sqlite" ? paths : pgPaths), url });
      console.log(applied.length ? `applied ${applied.length} migration(s) to ${displayUrl(url)}:\n  ${applied.join("\n  ")}` : `${displayUrl(url)} is up to date`);
      return 0;
    }
    case "check": {
      const url = rest.includes("--db") ? databaseUrl(home) : undefined;
      const sqliteDb = url && providerOf(url) === "sqlite" ? url : undefined;
      const pgDb = url && providerOf(url) === "postgresql" ? url : undefined;
      const problems: string[] = [];
      const sqlite = await checkMigrations({ ...paths, url: sqliteDb });
      problems.push(...sqlite.problems.map((p) => `SQLite: ${p}`));
      if (!pgServer) console.log(`PostgreSQL: not checked; ${noPgServer}`);
      else {
        const pg = await checkMigrations({ ...pgPaths, url: pgDb, shadowUrl: pgServer });
        problems.push(...pg.problems.map((p) => `PostgreSQL: ${p}`));
        if (pg.pendingSql) problems.push(`PostgreSQL SQL:\n${pg.pendingSql}`);
      }
      if (sqlite.pendingSql) problems.push(`SQLite SQL:\n${sqlite.pendingSql}`);
      if (!problems.length) {
        console.log(`no drift: the migrations of ${pgServer ? "both providers" : "SQLite"} cover schema.prisma`);
        return 0;
      }
      for (const p of problems) console.error(`drift: ${p}`);
      return 1;
    }
    default:
      return fail(USAGE);
  }
}

function fail(message: string): number {
  console.error(message);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    console.error(`migrate: ${messageOf(error)}`);
    process.exitCode = 1;
  },
);
