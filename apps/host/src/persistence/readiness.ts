/**
 * Readiness of the host's database (SCALE-4, `GET /readyz`): reachable, and every committed migration
 * applied. Each check asks the database again (nothing is cached that could hide a lost database); a
 * database that does not answer within `timeoutMs` makes the check fail rather than hang, and checks that
 * arrive while one is still waiting share it, so a hung database never piles up probe queries.
 */
import { messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import type { Database } from "./db.js";
import { prismaPaths, readMigrations } from "./migrate.js";

/** What a failed check says: fixed phrases, never a path, URL, name or count. */
export const NOT_READY = {
  stopping: "shutting down",
  unreachable: "database unreachable",
  slow: "database did not answer in time",
  migrations: "database migrations not applied",
} as const;
export type NotReadyReason = (typeof NOT_READY)[keyof typeof NOT_READY];
export type Readiness = { ok: true } | { ok: false; reason: NotReadyReason };

export const READY_TIMEOUT_MS = 2_000;

export interface ReadinessOptions {
  db: Pick<Database, "exclusive"> & Partial<Pick<Database, "provider">>;
  /** The committed migrations folder (default: the one of `db.provider`, from `prismaPaths`). */
  migrationsDir?: string;
  /** How long a check waits for the database. Default READY_TIMEOUT_MS (2 s). */
  timeoutMs?: number;
  /** Aborted when the host starts shutting down: checks then fail with "shutting down". */
  stopping?: AbortSignal;
  /** Gets one line when readiness changes (lost, with the cause; regained). */
  log?: Log;
}

export interface ReadinessCheck {
  check(): Promise<Readiness>;
}

/** Finished, not rolled back: plain SQL that SQLite and PostgreSQL both read. */
const APPLIED_SQL = `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;

type Outcome = { ready: Readiness; detail?: string };

export function createReadiness(opts: ReadinessOptions): ReadinessCheck {
  const timeoutMs = opts.timeoutMs ?? READY_TIMEOUT_MS;
  let committed: string[] | undefined;
  let inflight: Promise<Outcome> | undefined;
  let lastOk: boolean | undefined;

  /** The code's own migrations: what this build needs, read once (it does not change while the host runs). */
  const committedNames = () => (committed ??= readMigrations(opts.migrationsDir ?? prismaPaths(undefined, opts.db.provider ?? "sqlite").migrationsDir).migrationDirectories.map((d) => d.path));

  const probe = async (): Promise<Outcome> => {
    let names: string[];
    try {
      names = committedNames();
    } catch (error) {
      committed = undefined;
      return { ready: { ok: false, reason: NOT_READY.migrations }, detail: `cannot read the committed migrations: ${messageOf(error)}` };
    }
    return opts.db.exclusive(async (prisma) => {
      try {
        await prisma.$queryRawUnsafe("SELECT 1");
      } catch (error) {
        return { ready: { ok: false, reason: NOT_READY.unreachable }, detail: messageOf(error) } satisfies Outcome;
      }
      let rows: { migration_name: string }[];
      try {
        rows = await prisma.$queryRawUnsafe<{ migration_name: string }[]>(APPLIED_SQL);
      } catch (error) {
        return { ready: { ok: false, reason: NOT_READY.migrations }, detail: `cannot read _prisma_migrations: ${messageOf(error)}` } satisfies Outcome;
      }
      const applied = new Set(rows.map((r) => r.migration_name));
      const missing = names.filter((n) => !applied.has(n));
      return missing.length
        ? { ready: { ok: false, reason: NOT_READY.migrations }, detail: `not applied: ${missing.join(", ")}` } satisfies Outcome
        : { ready: { ok: true } } satisfies Outcome;
    }).catch((error: unknown): Outcome => ({ ready: { ok: false, reason: NOT_READY.unreachable }, detail: messageOf(error) }));
  };

  const within = (work: Promise<Outcome>): Promise<Outcome> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve({ ready: { ok: false, reason: NOT_READY.slow }, detail: `no answer within ${timeoutMs} ms` }), timeoutMs);
      timer.unref?.();
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  };

  /** One line per change (the first check only when it fails): probes come every few seconds. */
  const report = ({ ready, detail }: Outcome) => {
    const changed = ready.ok !== (lastOk ?? true);
    lastOk = ready.ok;
    if (!changed) return;
    if (ready.ok) opts.log?.info("ready again: the database answers and its migrations are applied");
    else opts.log?.warn(`not ready: ${ready.reason}`, { detail });
  };

  return {
    async check() {
      if (opts.stopping?.aborted) return { ok: false, reason: NOT_READY.stopping };
      const work = (inflight ??= probe().finally(() => (inflight = undefined)));
      const outcome = await within(work);
      if (opts.stopping?.aborted) return { ok: false, reason: NOT_READY.stopping };
      report(outcome);
      return outcome.ready;
    },
  };
}
