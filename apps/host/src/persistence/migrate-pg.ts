/**
 * The PostgreSQL side of migrations (SCALE-1): make the database when it does not exist yet, read the
 * history without the schema engine, and serialize deploys of several hosts starting at once.
 */
import pg from "pg";
import { HostError, messageOf } from "../core/errors.js";
import { pgConfig, pgDatabase } from "./pg-config.js";
import { displayUrl } from "./provider.js";

/** An advisory lock key of our own (not Prisma's), held by the host that applies migrations. */
const MIGRATE_LOCK = 0x5ea4_0001;

export interface MigrationRow { migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown }

async function connect(url: string, database?: string): Promise<pg.Client> {
  const client = new pg.Client(pgConfig(url, { database }));
  client.on("error", () => { /* reported through the query that fails */ });
  await client.connect();
  return client;
}

/** Runs `fn` on a short-lived connection to the database `url` names. */
export async function withPgClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  let client: pg.Client;
  try {
    client = await connect(url);
  } catch (error) {
    throw unreachable(url, error);
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

function unreachable(url: string, error: unknown): HostError {
  return new HostError("unavailable:db", `cannot connect to ${displayUrl(url)}: ${messageOf(error)}. Check that PostgreSQL runs there and the URL's user may connect.`, undefined, { cause: error });
}

/** Creates the database `url` names when the server says it does not exist (as `prisma migrate deploy` does). */
export async function ensurePgDatabase(url: string): Promise<void> {
  try {
    const client = await connect(url);
    await client.end().catch(() => {});
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== "3D000") throw unreachable(url, error);
  }
  const name = pgDatabase(url);
  let admin: pg.Client;
  try {
    admin = await connect(url, "postgres");
  } catch (error) {
    throw new HostError("unavailable:db", `database "${name}" does not exist and Seam could not connect to the "postgres" database to create it: ${messageOf(error)}. Create it (createdb ${name}) or give the URL's user that right.`, undefined, { cause: error });
  }
  try {
    await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    // Another host created it first: 42P04, or 23505 when both inserted into pg_database at once.
    const code = (error as { code?: string }).code;
    if (code !== "42P04" && code !== "23505") {
      throw new HostError("unavailable:db", `database "${name}" does not exist and could not be created: ${messageOf(error)}`, undefined, { cause: error });
    }
  } finally {
    await admin.end().catch(() => {});
  }
}

/** `_prisma_migrations` of a PostgreSQL database, or null when it has none (or cannot be read). */
export async function pgMigrationRows(url: string): Promise<MigrationRow[] | null> {
  try {
    return await withPgClient(url, async (client) => {
      const table = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
      if (!table.rows[0]?.present) return null;
      const { rows } = await client.query<MigrationRow>("SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations");
      return rows;
    });
  } catch {
    return null;
  }
}

/** Holds a database-wide advisory lock while `fn` runs, so two hosts starting together apply migrations once. */
export async function withPgMigrationLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  return withPgClient(url, async (client) => {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK]);
    try {
      return await fn();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK]).catch(() => {});
    }
  });
}

/** PostgreSQL's one-byte `"char"` type, used by catalog columns such as `pg_class.relkind`. */
const CHAR_OID = 18;
const TEXT_OID = 25;

/**
 * A pool for the schema engine's connections. The engine describes a database by reading the system
 * catalogs, which have `"char"` columns; the pg adapter knows no column type for that OID and fails the
 * whole description. pg already returns such a value as a one-character string, so its field is
 * reported as text. Only the migration engine uses this pool; the host's client uses the adapter as is.
 */
export function enginePool(config: pg.PoolConfig): pg.Pool {
  class CatalogPool extends pg.Pool {
    // pg's overloads are many; the adapter only uses the promise form with a config object.
    override query(...args: unknown[]): never {
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      if (!(result instanceof Promise)) return result as never;
      return result.then((r: pg.QueryResult) => {
        for (const f of r.fields ?? []) if (f.dataTypeID === CHAR_OID) f.dataTypeID = TEXT_OID;
        return r;
      }) as never;
    }
  }
  return new CatalogPool(config);
}
