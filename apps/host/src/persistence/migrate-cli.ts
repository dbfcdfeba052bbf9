#!/usr/bin/env node
/**
 * `node dist/persistence/migrate-cli.js create <name> | deploy | check` (package scripts
 * db:migrate:*). The database is DATABASE_URL (file:), else `$SEAM_HOME/seam.db`, else
 * `<repo>/.seam/seam.db` — the same default as prisma.config.ts.
 */
import { dirname, join } from "node:path";
import { messageOf } from "../core/errors.js";
import { checkMigrations, createMigration, deployMigrations, prismaPaths } from "./migrate.js";
import { databaseUrl } from "./url.js";

const USAGE = "usage: migrate-cli create <name> | deploy | check";

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const paths = prismaPaths();
  const home = process.env.SEAM_HOME || join(dirname(paths.prismaDir), ".seam");
  switch (command) {
    case "create": {
      const name = rest.join("_");
      if (!name) return fail(USAGE);
      const created = await createMigration({ ...paths, name });
      if (!created.name) console.log("schema.prisma matches the migrations; nothing to create");
      else console.log(`created ${created.dir}/migration.sql`);
      return 0;
    }
    case "deploy": {
      const url = databaseUrl(home);
      const { applied } = await deployMigrations({ ...paths, url });
      console.log(applied.length ? `applied ${applied.length} migration(s) to ${url}:\n  ${applied.join("\n  ")}` : `${url} is up to date`);
      return 0;
    }
    case "check": {
      const withDb = rest.includes("--db");
      const result = await checkMigrations({ ...paths, url: withDb ? databaseUrl(home) : undefined });
      if (!result.problems.length) {
        console.log("no drift: the migrations cover schema.prisma");
        return 0;
      }
      for (const p of result.problems) console.error(`drift: ${p}`);
      if (result.pendingSql) console.error(`\n${result.pendingSql}`);
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
