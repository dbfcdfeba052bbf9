/**
 * The host's database-backed tests again, on PostgreSQL (SCALE-1): every test file that opens a database
 * (directly or through a host) runs against a throwaway Debian PostgreSQL started for this run
 * (`test/support/postgres-global.ts`); each data directory gets its own database
 * (`test/support/postgres-setup.ts`). `npm test` runs this after the SQLite run.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { defineConfig } from "vitest/config";

/** Test files that open a database, or that say what to do on PostgreSQL (`testPostgres`, `onPostgres`). */
const OPENS_A_DATABASE = /openDatabase|createHost|support\/host|fixture\/host|startScriptedHost|startTestHost|testPostgres|onPostgres/;

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith(".test.ts") ? [path] : [];
  });
}

const root = import.meta.dirname;
const include = testFiles(join(root, "test"))
  .filter((file) => OPENS_A_DATABASE.test(readFileSync(file, "utf8")))
  .map((file) => relative(root, file));

export default defineConfig({
  test: {
    include,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    globalSetup: ["test/support/postgres-global.ts"],
    setupFiles: ["test/support/postgres-setup.ts"],
  },
});
