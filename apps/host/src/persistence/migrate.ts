/**
 * Prisma migrations without the native schema engine (CORE-16, STACK §7). The Prisma CLI cannot
 * download its engine offline, so this drives the same engine compiled to WASM
 * (@prisma/schema-engine-wasm, same commit as prisma 7.10.0) through the better-sqlite3 adapter.
 * Migrations stay in Prisma's format and `_prisma_migrations` is written by Prisma's own code,
 * so `prisma migrate deploy` sees the same history.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import {
  bindMigrationAwareSqlAdapterFactory,
  type ErrorRegistry,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from "@prisma/driver-adapter-utils";
import BetterSqlite3 from "better-sqlite3";
import type { DiagnoseMigrationHistoryOutput, MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm/schema_engine_bg";
import { HostError, messageOf } from "../core/errors.js";
import type { MigrationRow } from "./migrate-pg.js";
import { pgConfig } from "./pg-config.js";
import { providerOf, type Provider } from "./provider.js";
import { seedSqlite } from "./seed.js";

/** pg and its Prisma adapter (~0.2 s of imports) load only for a PostgreSQL database, never on SQLite. */
const loadPg = async () => {
  const [{ PrismaPg }, parts] = await Promise.all([import("@prisma/adapter-pg"), import("./migrate-pg.js")]);
  return { PrismaPg, ...parts };
};

export interface MigrateOptions {
  /**
   * `file:/abs/path.db` or `postgres://…/db`. Only `deploy` and `check` (history) touch the database; on
   * PostgreSQL `create` and `check` also make (and drop) a scratch shadow database on that server.
   */
  url: string;
  migrationsDir: string;
  schemaPath: string;
  /** Receives the engine's log lines (JSON). Default: dropped unless SEAM_DEBUG_MIGRATE is set. */
  log?: (line: string) => void;
  /** Loads the WASM schema engine (default `loadEngine`, once per process); tests count the loads. */
  loadEngine?: EngineLoader;
}

export interface CreateMigrationOptions extends Omit<MigrateOptions, "url"> {
  name: string;
  /** PostgreSQL: a server for the shadow database the diff replays the history in (required there). */
  url?: string;
  /** Timestamp of the migration folder name; default now. */
  now?: Date;
}

export interface CreatedMigration {
  /** `<YYYYMMDDHHMMSS>_<name>`, or null when the schema has no changes to migrate. */
  name: string | null;
  dir: string | null;
  sql: string;
}

export interface MigrationCheck {
  /** True when schema.prisma has changes that no migration covers. */
  drift: boolean;
  /** The SQL a new migration would contain (empty when `drift` is false). */
  pendingSql: string;
  /** The database's history against the folder, when `url` was given. */
  history: DiagnoseMigrationHistoryOutput | null;
  /** Problems that make the database disagree with the folder (unapplied, edited, failed, diverged). */
  problems: string[];
}

const LOCK_FILE = "migration_lock.toml";
const EMPTY_MIGRATION = "-- This is an empty migration.";
/**
 * Tables that migrations create by hand and Prisma must not manage: the FTS5 search index (CTX-5,
 * migration `*_search_fts`) and the shadow tables FTS5 makes for it. Without this, Prisma's
 * introspection sees them as ordinary tables missing from schema.prisma and a diff would drop them.
 * Triggers are not introspected on SQLite, so they need no entry.
 */
export const SEARCH_TABLES = ["SearchIndex", ...["config", "content", "data", "docsize", "idx"].map((s) => `SearchIndex_${s}`)];
/** The same for PostgreSQL: the search table (a tsvector column with a GIN index, `*_search`) in `public`. */
export const PG_SEARCH_TABLES = ["public.SearchIndex"];
const filters = (provider: Provider) => ({ externalTables: provider === "sqlite" ? SEARCH_TABLES : PG_SEARCH_TABLES, externalEnums: [] });

/** The host's lib settings carry no WebAssembly types (they live in lib.dom); this is all we use. */
interface WasmApi {
  instantiate(bytes: Uint8Array, imports: Record<string, object>): Promise<{ instance: { exports: Record<string, unknown> } }>;
}
const wasmApi = () => (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The wasm-bindgen glue of the schema engine, ready to use. */
export type EngineModule = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");
export type EngineLoader = () => Promise<EngineModule>;

// Node 20 cannot `import` a .wasm file, so the package's main entry is unusable; instantiate the
// module once per process and hand it to the wasm-bindgen glue. Loaded only when a migration has to
// run or be checked (~0.5 s and tens of MB): an up-to-date database never loads it (see `deployMigrations`).
let wasmReady: Promise<EngineModule> | undefined;
export const loadEngine: EngineLoader = () => {
  wasmReady ??= (async () => {
    const bg = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    const glue = fileURLToPath(import.meta.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
    const bytes = await readFile(join(dirname(glue), "schema_engine_bg.wasm"));
    const { instance } = await wasmApi().instantiate(bytes, { "./schema_engine_bg.js": bg });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg;
  })();
  wasmReady.catch(() => { wasmReady = undefined; });
  return wasmReady;
};

/** better-sqlite3 runs one statement per `prepare`; whole migration scripts must go through `exec`. */
function scriptAware(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (q) => adapter.queryRaw(q),
    executeRaw: async (q) => {
      if (q.args.length > 0) return adapter.executeRaw(q);
      await adapter.executeScript(q.sql);
      return 0;
    },
    executeScript: (s) => adapter.executeScript(s),
    startTransaction: (level) => adapter.startTransaction(level),
    getConnectionInfo: adapter.getConnectionInfo ? () => adapter.getConnectionInfo!() : undefined,
    dispose: () => adapter.dispose(),
  };
}

/**
 * The pg adapter runs a script by splitting it at every ";", which cuts function bodies ($$ … $$) and
 * strings apart. A parameterless query goes through pg's simple protocol, which takes many statements at
 * once and runs them as one implicit transaction, so a migration applies whole or not at all.
 */
function pgScriptWhole(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (q) => adapter.queryRaw(q),
    executeRaw: (q) => adapter.executeRaw(q),
    executeScript: async (script) => { await adapter.executeRaw({ sql: script, args: [], argTypes: [] }); },
    startTransaction: (level) => adapter.startTransaction(level),
    getConnectionInfo: adapter.getConnectionInfo ? () => adapter.getConnectionInfo!() : undefined,
    dispose: () => adapter.dispose(),
  };
}

/**
 * A scratch database on the server of `url` for the engine to replay the history in, dropped on dispose.
 * (The pg adapter's own shadow database drops it before closing its pool, which PostgreSQL refuses.)
 */
async function pgShadowDb(url: string): Promise<SqlDriverAdapter> {
  const name = `seam_shadow_${randomUUID().replaceAll("-", "")}`;
  const { PrismaPg, enginePool, withPgClient } = await loadPg();
  await withPgClient(url, (c) => c.query(`CREATE DATABASE "${name}"`));
  const adapter = await new PrismaPg(enginePool(pgConfig(url, { database: name })), { disposeExternalPool: true }).connect();
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (q) => adapter.queryRaw(q),
    executeRaw: (q) => adapter.executeRaw(q),
    executeScript: (sc) => adapter.executeScript(sc),
    startTransaction: (level) => adapter.startTransaction(level),
    getConnectionInfo: adapter.getConnectionInfo ? () => adapter.getConnectionInfo!() : undefined,
    dispose: async () => {
      await adapter.dispose();
      await withPgClient(url, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/**
 * An adapter factory that remembers every connection the engine opens: `engine.free()` does not
 * close them, and a leftover connection holds a lock that stalls the next writer (SQLITE_BUSY).
 */
async function trackedFactory(url: string, provider: Provider) {
  const inner = provider === "sqlite" ? new PrismaBetterSqlite3({ url }) : await loadPg().then((p) => new p.PrismaPg(p.enginePool(pgConfig(url)), { disposeExternalPool: true }));
  const open: SqlDriverAdapter[] = [];
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => {
      const a = await inner.connect();
      open.push(a);
      return provider === "sqlite" ? a : pgScriptWhole(a);
    },
    connectToShadowDb: async () => {
      const a = provider === "sqlite" ? await inner.connectToShadowDb() : await pgShadowDb(url);
      open.push(a);
      return provider === "sqlite" ? scriptAware(a) : pgScriptWhole(a);
    },
  };
  const disposeAll = async () => {
    for (const a of open.splice(0)) await a.dispose().catch(() => {});
  };
  return { factory, disposeAll };
}

/** Runs `fn` against a fresh engine and releases the engine and every connection it opened. */
async function withEngine<T>(
  opts: { url: string; provider?: Provider; schemaPath: string; log?: (line: string) => void; loadEngine?: EngineLoader },
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const bg = await (opts.loadEngine ?? loadEngine)();
  const schema = readSchema(opts.schemaPath);
  const { factory, disposeAll } = await trackedFactory(opts.url, opts.provider ?? providerOf(opts.url));
  const bound = bindMigrationAwareSqlAdapterFactory(factory);
  const log = opts.log ?? (process.env.SEAM_DEBUG_MIGRATE ? (l: string) => process.stderr.write(`[migrate] ${l}\n`) : () => {});
  let engine: SchemaEngine | undefined;
  try {
    engine = await bg.SchemaEngine.new({ datamodels: [[schema.path, schema.content]] }, log, bound);
    return await fn(engine);
  } catch (error) {
    throw engineError(error, bound.errorRegistry);
  } finally {
    engine?.free();
    await disposeAll();
  }
}

/** Engine errors only say `External error id#N`; the adapter's registry holds the real cause. */
function engineError(error: unknown, registry: ErrorRegistry): HostError {
  if (error instanceof HostError) return error;
  const text = messageOf(error);
  const causes: unknown[] = [];
  for (const m of text.matchAll(/External error id#(\d+)/g)) {
    const record = registry.consumeError(Number(m[1]));
    if (record) causes.push(record.error);
  }
  const detail = causes.map((c) => messageOf(c)).join("; ");
  return new HostError("internal:db", `migration engine: ${text}${detail ? ` (cause: ${detail})` : ""}`, undefined, {
    cause: causes[0] ?? error,
  });
}

function readSchema(schemaPath: string) {
  const path = resolve(schemaPath);
  if (!existsSync(path)) throw new HostError("not_found:db", `schema not found: ${path}`);
  return { path, content: readFileSync(path, "utf8") };
}

/** The migrations folder in the shape the engine expects (directories sorted by name). */
export function readMigrations(migrationsDir: string): MigrationList {
  const baseDir = resolve(migrationsDir);
  const lockPath = join(baseDir, LOCK_FILE);
  const dirs = existsSync(baseDir)
    ? readdirSync(baseDir).filter((d) => statSync(join(baseDir, d)).isDirectory()).sort()
    : [];
  return {
    baseDir,
    lockfile: { path: LOCK_FILE, content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((d) => {
      const file = join(baseDir, d, "migration.sql");
      let content: { tag: "ok"; value: string } | { tag: "error"; value: string };
      try {
        content = { tag: "ok", value: readFileSync(file, "utf8") };
      } catch (e) {
        content = { tag: "error", value: messageOf(e) };
      }
      return { path: d, migrationFile: { path: "migration.sql", content } };
    }),
  };
}

function ensureDbDir(url: string) {
  if (providerOf(url) !== "sqlite") return;
  const path = url.slice("file:".length);
  if (path !== ":memory:") mkdirSync(dirname(resolve(path)), { recursive: true });
}

/**
 * Applies every migration not yet recorded in `_prisma_migrations`. Returns the names applied now.
 * When the database already records exactly the committed migrations (`upToDate`), the schema engine
 * is not loaded at all; anything else (pending, edited, failed, rolled back, unknown, no database yet)
 * goes through the engine, which applies or reports it as `prisma migrate deploy` would.
 */
export async function deployMigrations(opts: MigrateOptions): Promise<{ applied: string[] }> {
  ensureDbDir(opts.url);
  readSchema(opts.schemaPath);
  const provider = providerOf(opts.url);
  const migrationsList = readMigrations(opts.migrationsDir);
  const apply = async () => {
    if (await isUpToDate(opts.url, migrationsList)) return { applied: [] };
    const out = await withEngine(opts, (e) => e.applyMigrations({ migrationsList, filters: filters(provider) }));
    return { applied: out.appliedMigrationNames };
  };
  if (provider === "sqlite") return apply();
  // PostgreSQL: several hosts may start together; one applies while the others wait, then find it done.
  const { ensurePgDatabase, withPgMigrationLock } = await loadPg();
  await ensurePgDatabase(opts.url);
  return withPgMigrationLock(opts.url, apply);
}

/**
 * `deployMigrations` for the host's start: a SQLite database that does not exist yet starts as a copy of the
 * build's seed when that records exactly these migrations (`seed.ts`); an up-to-date database is answered here
 * without the engine; otherwise the engine runs in a worker thread that ends afterwards, so its ~50 MB of WASM
 * memory do not stay with the host. Errors are the same HostErrors (code, message, data). From sources
 * (vitest), where there is no built worker file nor seed, it runs in this thread.
 */
export async function deployIsolated(opts: Omit<MigrateOptions, "log" | "loadEngine"> & { seed?: string }): Promise<{ applied: string[] }> {
  ensureDbDir(opts.url);
  readSchema(opts.schemaPath);
  const list = readMigrations(opts.migrationsDir);
  if (providerOf(opts.url) === "sqlite" && seedSqlite(opts.url, (seedUrl) => upToDate(seedUrl, list), opts.seed)) {
    return { applied: list.migrationDirectories.map((d) => d.path) };
  }
  if (await isUpToDate(opts.url, list)) return { applied: [] };
  const file = new URL("./migrate-worker.js", import.meta.url);
  if (!existsSync(fileURLToPath(file))) return deployMigrations(opts);
  const { Worker } = await import("node:worker_threads");
  type Answer = { ok: true; applied: string[] } | { ok: false; code: HostError["code"]; message: string; data?: HostError["data"] };
  const answer = await new Promise<Answer>((resolve, reject) => {
    const worker = new Worker(file, { workerData: { url: opts.url, schemaPath: opts.schemaPath, migrationsDir: opts.migrationsDir } });
    let settled = false;
    worker.once("message", (m: Answer) => { settled = true; resolve(m); });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      if (!settled) reject(new HostError("internal:db", `the migration worker exited (${code}) without an answer`));
    });
  });
  if (!answer.ok) throw new HostError(answer.code, answer.message, answer.data);
  return { applied: answer.applied };
}

/** `upToDate` for either provider; PostgreSQL's history is read with pg (no engine either). */
export async function isUpToDate(url: string, list: MigrationList): Promise<boolean> {
  if (providerOf(url) === "sqlite") return upToDate(url, list);
  if (!lockProviderIs(list, "postgresql")) return false;
  const rows = await (await loadPg()).pgMigrationRows(url);
  return rows !== null && rowsMatch(rows, list);
}

function lockProviderIs(list: MigrationList, provider: Provider): boolean {
  return list.lockfile.content === null || new RegExp(`^\\s*provider\\s*=\\s*"${provider}"\\s*$`, "m").test(list.lockfile.content);
}

/** One finished, not rolled back row per committed migration, with the sha256 of its migration.sql, and nothing else. */
function rowsMatch(rows: MigrationRow[], list: MigrationList): boolean {
  if (rows.length !== list.migrationDirectories.length) return false;
  const byName = new Map(rows.map((r) => [r.migration_name, r]));
  if (byName.size !== rows.length) return false;
  return list.migrationDirectories.every((dir) => {
    const row = byName.get(dir.path);
    if (!row || dir.migrationFile.content.tag !== "ok") return false;
    if (row.finished_at === null || row.rolled_back_at !== null) return false;
    return row.checksum === createHash("sha256").update(dir.migrationFile.content.value).digest("hex");
  });
}

/**
 * True only when `_prisma_migrations` holds one finished, not rolled back row per committed migration,
 * with the sha256 of its migration.sql as checksum, and nothing else. Read with better-sqlite3 (read-only,
 * the file must exist); any doubt (no file, no table, unreadable folder, other lock provider) is false.
 */
export function upToDate(url: string, list: MigrationList): boolean {
  const path = url.slice("file:".length);
  if (path === ":memory:" || !existsSync(path)) return false;
  if (!lockProviderIs(list, "sqlite")) return false;
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return false;
    return rowsMatch(db.prepare("SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations").all() as MigrationRow[], list);
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/** The provider a schema file's `datasource db` names. */
export function schemaProvider(schemaPath: string): Provider {
  const m = /datasource\s+db\s*\{[^}]*?provider\s*=\s*"(\w+)"/.exec(readSchema(schemaPath).content);
  if (m?.[1] === "sqlite" || m?.[1] === "postgresql") return m[1];
  throw new HostError("bad_input:db", `${schemaPath}: datasource db must use provider "sqlite" or "postgresql"`);
}

/**
 * The SQL that takes the migration history to the schema, replayed in a shadow database: in memory for
 * SQLite; on PostgreSQL a scratch database the adapter creates (and drops) on the server `url` names.
 */
async function pendingSql(opts: Omit<MigrateOptions, "url"> & { url?: string }): Promise<string> {
  const migrationsList = readMigrations(opts.migrationsDir);
  const schema = readSchema(opts.schemaPath);
  const provider = schemaProvider(opts.schemaPath);
  const from = migrationsList.migrationDirectories.length ? { tag: "migrations" as const, ...migrationsList } : { tag: "empty" as const };
  const url = provider === "sqlite" ? ":memory:" : opts.url;
  if (!url || (provider === "postgresql" && providerOf(url) !== "postgresql")) {
    throw new HostError("bad_input:db", "diffing the PostgreSQL migrations needs a PostgreSQL server for the shadow database: set SEAM_DATABASE_URL=postgres://…");
  }
  const out = await withEngine({ ...opts, url, provider }, (e) =>
    e.diff({ from, to: { tag: "schemaDatamodel", files: [schema] }, script: true, exitCode: null, filters: filters(provider) }),
  );
  const sql = (out.stdout ?? "").trim();
  return sql === EMPTY_MIGRATION ? "" : sql;
}

/**
 * Writes `<migrationsDir>/<timestamp>_<name>/migration.sql` with what schema.prisma adds to the
 * history (`createMigration` of the engine cannot reach a SQLite shadow DB, `diff` can).
 */
export async function createMigration(opts: CreateMigrationOptions): Promise<CreatedMigration> {
  const slug = opts.name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  if (!slug) throw new HostError("bad_input:db", `migration name "${opts.name}" has no letters or digits`);
  const sql = await pendingSql(opts);
  if (!sql) return { name: null, dir: null, sql: "" };
  const name = `${timestamp(opts.now ?? new Date())}_${slug}`;
  const base = resolve(opts.migrationsDir);
  const dir = join(base, name);
  if (existsSync(dir)) throw new HostError("conflict:db", `migration ${name} already exists`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "migration.sql"), `${sql}\n`);
  const lock = join(base, LOCK_FILE);
  if (!existsSync(lock)) {
    writeFileSync(lock, `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${schemaProvider(opts.schemaPath)}"\n`);
  }
  return { name, dir, sql };
}

/**
 * Drift check: schema.prisma must be fully covered by the committed migrations and, when `url`
 * is given, that database's `_prisma_migrations` must agree with the folder.
 */
export async function checkMigrations(opts: Omit<MigrateOptions, "url"> & { url?: string; shadowUrl?: string }): Promise<MigrationCheck> {
  const sql = await pendingSql({ ...opts, url: opts.shadowUrl ?? opts.url });
  const problems: string[] = [];
  if (sql) problems.push("schema.prisma has changes that no migration covers (run db:migrate:create)");
  let history: DiagnoseMigrationHistoryOutput | null = null;
  if (opts.url) {
    ensureDbDir(opts.url);
    const migrationsList = readMigrations(opts.migrationsDir);
    history = await withEngine({ ...opts, url: opts.url }, (e) =>
      e.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: filters(providerOf(opts.url!)) }),
    );
    if (history.editedMigrationNames.length) problems.push(`edited after being applied: ${history.editedMigrationNames.join(", ")}`);
    if (history.failedMigrationNames.length) problems.push(`failed: ${history.failedMigrationNames.join(", ")}`);
    const h = history.history;
    if (h?.diagnostic === "databaseIsBehind") problems.push(`not applied yet: ${h.unappliedMigrationNames.join(", ")}`);
    if (h?.diagnostic === "migrationsDirectoryIsBehind") problems.push(`applied but missing from the folder: ${h.unpersistedMigrationNames.join(", ")}`);
    if (h?.diagnostic === "historiesDiverge") problems.push(`history diverges after ${h.lastCommonMigrationName ?? "the start"}`);
  }
  return { drift: sql !== "", pendingSql: sql, history, problems };
}

function timestamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/**
 * The folder holding schema.prisma and migrations/: `SEAM_PRISMA_DIR`, else the nearest `prisma/`
 * above this file (works from src/ under vitest and from dist/ after a build).
 */
export function findPrismaDir(from: string = dirname(fileURLToPath(import.meta.url))): string {
  const fromEnv = process.env.SEAM_PRISMA_DIR;
  if (fromEnv) return resolve(fromEnv);
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "prisma", "schema.prisma"))) return join(dir, "prisma");
    if (dirname(dir) === dir) throw new HostError("not_found:db", `no prisma/schema.prisma above ${from}; set SEAM_PRISMA_DIR`);
  }
}

/**
 * Paths of the committed schema and migrations of a provider: `prisma/` for SQLite (the schema source),
 * `prisma/postgres/` for PostgreSQL (its schema generated from the source by `npm run generate`).
 */
export function prismaPaths(prismaDir = findPrismaDir(), provider: Provider = "sqlite") {
  const dir = provider === "sqlite" ? prismaDir : join(prismaDir, "postgres");
  return { prismaDir, schemaPath: join(dir, "schema.prisma"), migrationsDir: join(dir, "migrations") };
}
