import { chmodSync, mkdirSync } from "node:fs";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { Scope } from "../core/scope.js";
import { HostError, messageOf } from "../core/errors.js";
import { PrismaClient } from "../generated/prisma/client.js";
import { deployIsolated, prismaPaths } from "./migrate.js";
import { toHostError, type DbSubject } from "./errors.js";
import { pgConfig } from "./pg-config.js";
import { displayUrl, providerOf, type Provider } from "./provider.js";
import { createGate, createStore, type Store } from "./store.js";
import { databaseUrl } from "./url.js";

export interface Database {
  /**
   * For persistence code only; everything else goes through `store`. Do not query it directly
   * while the store may be busy: use `exclusive`, which shares the store's gate (see store.ts).
   */
  prisma: PrismaClient;
  store: Store;
  /**
   * Runs `fn` alone on the connection, between store calls; Prisma errors become HostErrors coded
   * for `about` (default: the database itself, `not_found:db`…).
   */
  exclusive<T>(fn: (prisma: PrismaClient) => Promise<T>, about?: DbSubject): Promise<T>;
  /** `file:/abs/path.db` or `postgres://…` (may hold a password: show `displayUrl(url)`, never this). */
  url: string;
  provider: Provider;
}

export interface OpenOptions {
  /** The data directory (SEAM_HOME); created with mode 0700. */
  home: string;
  /** Overrides SEAM_DATABASE_URL / DATABASE_URL / `<home>/seam.db`. */
  url?: string;
  /** Folder with schema.prisma and migrations/ (default: found above this file or SEAM_PRISMA_DIR). */
  prismaDir?: string;
  /** Milliseconds a statement waits for another connection's lock. Default 5000. */
  busyTimeoutMs?: number;
}

/**
 * Opens the host's database (CORE-16, SCALE-1): applies committed migrations, then connects Prisma —
 * over better-sqlite3 in WAL mode for a `file:` URL, over pg (a pool) for `postgres://`. The client is
 * disconnected when `scope` is disposed.
 */
export async function openDatabase(scope: Scope, opts: OpenOptions): Promise<Database> {
  if (!mkdirSync(opts.home, { recursive: true, mode: 0o700 })) {
    try { chmodSync(opts.home, 0o700); } catch { /* not ours to tighten; the file is still usable */ }
  }
  const url = opts.url ?? databaseUrl(opts.home);
  const provider = providerOf(url);
  const paths = prismaPaths(opts.prismaDir, provider);
  await deployIsolated({ url, schemaPath: paths.schemaPath, migrationsDir: paths.migrationsDir });

  const busyTimeoutMs = opts.busyTimeoutMs ?? 5000;
  const prisma = provider === "sqlite" ? new PrismaClient({ adapter: new PrismaBetterSqlite3({ url, timeout: busyTimeoutMs }) }) : await postgresClient(url);
  const gate = createGate();
  scope.add(async () => {
    await gate.close();
    await prisma.$disconnect();
  }, "db:prisma");
  try {
    if (provider === "sqlite") {
      const [mode] = await prisma.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode = WAL");
      if (mode?.journal_mode.toLowerCase() !== "wal") throw new Error(`journal_mode is ${mode?.journal_mode ?? "unknown"}, not wal`);
      await prisma.$queryRawUnsafe(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
      await prisma.$queryRawUnsafe("PRAGMA foreign_keys = ON");
    } else {
      await prisma.$queryRawUnsafe("SELECT 1");
    }
  } catch (error) {
    throw new HostError("unavailable:db", `cannot open ${displayUrl(url)}: ${messageOf(error)}`, undefined, { cause: error });
  }
  return {
    prisma,
    store: createStore(prisma, { gate, provider }),
    url,
    provider,
    exclusive: (fn, about = { capability: "db", what: "database" }) => gate.run(async () => {
      try {
        return await fn(prisma);
      } catch (error) {
        throw toHostError(error, about);
      }
    }),
  };
}

/**
 * The PostgreSQL client: generated from the same schema for the postgresql provider (prisma/postgres), so
 * its models and methods are those of the SQLite client; loaded only when a postgres:// URL is used.
 */
async function postgresClient(url: string): Promise<PrismaClient> {
  const [{ PrismaClient: PgPrismaClient }, { PrismaPg }] = await Promise.all([
    import("../generated/prisma-pg/client.js"),
    import("@prisma/adapter-pg"),
  ]);
  return new PgPrismaClient({ adapter: new PrismaPg(pgConfig(url)) }) as unknown as PrismaClient;
}
