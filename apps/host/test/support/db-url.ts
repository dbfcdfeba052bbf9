import { createHash } from "node:crypto";
import { join, resolve } from "node:path";

/** Set by `postgres-global.ts` in the PostgreSQL run: `postgres://seam@127.0.0.1:<port>/postgres`. */
export const testPostgres = process.env.SEAM_TEST_POSTGRES;

/** True in the PostgreSQL run (for the few checks that are about SQLite itself). */
export const onPostgres = testPostgres !== undefined;

/**
 * The database a test means by a file path: that SQLite file, or in the PostgreSQL run a database of its
 * own named after the path (created at open), so two paths never share data and reopening one does.
 */
export function testDbUrl(path: string): string {
  if (!testPostgres) return `file:${resolve(path)}`;
  const name = `t_${createHash("sha256").update(resolve(path)).digest("hex").slice(0, 24)}`;
  return testPostgres.replace(/\/postgres$/, `/${name}`);
}

/** Runs SQL on a test's PostgreSQL database (the PostgreSQL run only). */
export async function execTestDb(path: string, sql: string): Promise<void> {
  const { default: pg } = await import("pg");
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
  const { postgresBinDir } = await import("@seam/testkit");
  const { execFileSync } = await import("node:child_process");
  const target = testDbUrl(to);
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: testPostgres });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${target.slice(target.lastIndexOf("/") + 1)}"`);
  } finally {
    await admin.end();
  }
  const dump = execFileSync(join(postgresBinDir()!, "pg_dump"), ["--no-owner", "--dbname", testDbUrl(from)], { maxBuffer: 256 * 1024 * 1024 });
  execFileSync(join(postgresBinDir()!, "psql"), ["-q", "-v", "ON_ERROR_STOP=1", "--dbname", target], { input: dump });
}

/** Everything stored in a home's database as text: the SQLite files' bytes, or a pg_dump in the PostgreSQL run. */
export async function storedText(home: string): Promise<string> {
  const { existsSync, readFileSync } = await import("node:fs");
  if (!testPostgres) {
    return ["seam.db", "seam.db-wal"].map((f) => join(home, f)).filter(existsSync).map((f) => readFileSync(f).toString("latin1")).join("");
  }
  const { postgresBinDir } = await import("@seam/testkit");
  const { execFileSync } = await import("node:child_process");
  return execFileSync(join(postgresBinDir()!, "pg_dump"), ["--no-owner", "--dbname", testDbUrl(join(home, "seam.db"))], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
}
