import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import pg from "pg";
import { databaseFor, dumpDatabase, postgresBinDir, storedText as storedIn } from "../../../../packages/testkit/src/postgres/server.js";

/** Set by `postgres-global.ts` in the PostgreSQL run: `postgres://seam@127.0.0.1:<port>/postgres`. */
export const testPostgres = process.env.SEAM_TEST_POSTGRES;

/** True in the PostgreSQL run (for the few checks that are about SQLite itself). */
export const onPostgres = testPostgres !== undefined;

/**
 * The database a test means by a file path: that SQLite file, or in the PostgreSQL run a database of its
 * own named after the path (created at open), so two paths never share data and reopening one does.
 */
export function testDbUrl(path: string): string {
  return testPostgres ? databaseFor(testPostgres, path, "t_") : `file:${resolve(path)}`;
}

/** Runs SQL on a test's PostgreSQL database (the PostgreSQL run only). */
export async function execTestDb(path: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: testDbUrl(path) });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * In the PostgreSQL run, copies the database of `from` (a path as given to `testDbUrl`) into a new one
 * for `to` with pg_dump, while the first may still be in use — what copying a SQLite file does.
 */
export async function copyTestDb(from: string, to: string): Promise<void> {
  if (!testPostgres) return;
  const target = testDbUrl(to);
  const admin = new pg.Client({ connectionString: testPostgres });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${target.slice(target.lastIndexOf("/") + 1)}"`);
  } finally {
    await admin.end();
  }
  execFileSync(join(postgresBinDir()!, "psql"), ["-q", "-v", "ON_ERROR_STOP=1", "--dbname", target], { input: dumpDatabase(testDbUrl(from)) });
}

/** Everything stored in a home's database as text: the SQLite files' bytes, or a pg_dump in the PostgreSQL run. */
export async function storedText(home: string): Promise<string> {
  return storedIn(home, testPostgres ? testDbUrl(join(home, "seam.db")) : undefined);
}
