/**
 * Session leases and the host registry on PostgreSQL (SCALE-2). Every time comparison uses the database's
 * clock (`now()`), so hosts with skewed clocks still agree on who holds what. Taking a lease is one
 * statement: an upsert that only overwrites a lapsed lease (or our own), so of two hosts racing for a
 * session exactly one gets it.
 */
import type pg from "pg";

export interface LeaseHolder { hostId: string; label: string | null }

export interface Leases {
  /** Records this host (id, label) as alive. */
  register(label: string): Promise<void>;
  /**
   * Takes the session's lease; `{ taken: true }` with the host whose lapsed lease it replaced (null when
   * there was none or it was this host's), else who holds it.
   */
  take(sessionId: string): Promise<{ taken: true; from: string | null } | { taken: false; holder: LeaseHolder }>;
  release(sessionId: string): Promise<void>;
  /**
   * Renews every lease of this host and its heartbeat; returns the sessions it still holds. A lease that
   * lapsed but that nobody took yet is still this host's (row locks order a renewal and a take).
   */
  renew(): Promise<Set<string>>;
  /** Sessions with a running turn and no live lease: their host died (or never took one). */
  orphans(): Promise<string[]>;
  /** Sessions whose live lease another host holds. */
  heldElsewhere(): Promise<Set<string>>;
  /** Drops the leases an earlier run of this host left (it was killed); returns their sessions. */
  forgetEarlierRun(): Promise<string[]>;
  /** Drops this host's leases and marks it stopped (a clean shutdown). */
  retire(): Promise<void>;
}

export function createLeases(pool: pg.Pool, opts: { hostId: string; leaseMs: number }): Leases {
  const { hostId } = opts;
  const ttl = `${Math.max(1, Math.round(opts.leaseMs))} milliseconds`;
  return {
    async register(label) {
      await pool.query(
        `INSERT INTO "Host" ("id", "label", "startedAt", "heartbeatAt") VALUES ($1, $2, now(), now())
         ON CONFLICT ("id") DO UPDATE SET "heartbeatAt" = now(), "stoppedAt" = NULL`,
        [hostId, label],
      );
    },
    async take(sessionId) {
      // The CTE reads the row as it was before this statement: whose lapsed lease is being replaced.
      const taken = await pool.query<{ previous: string | null }>(
        `WITH before AS (SELECT "hostId" FROM "SessionLease" WHERE "sessionId" = $1)
         INSERT INTO "SessionLease" ("sessionId", "hostId", "takenAt", "expiresAt") VALUES ($1, $2, now(), now() + $3::interval)
         ON CONFLICT ("sessionId") DO UPDATE SET "hostId" = EXCLUDED."hostId", "takenAt" = now(), "expiresAt" = EXCLUDED."expiresAt"
         WHERE "SessionLease"."expiresAt" < now() OR "SessionLease"."hostId" = EXCLUDED."hostId"
         RETURNING (SELECT "hostId" FROM before) AS previous`,
        [sessionId, hostId, ttl],
      );
      if (taken.rowCount) {
        const previous = taken.rows[0]?.previous ?? null;
        return { taken: true, from: previous !== null && previous !== hostId ? previous : null };
      }
      const held = await pool.query<{ hostId: string; label: string | null }>(
        `SELECT l."hostId", h."label" FROM "SessionLease" l LEFT JOIN "Host" h ON h."id" = l."hostId" WHERE l."sessionId" = $1`,
        [sessionId],
      );
      // Released between the two statements: report it as held by nobody known; the caller may retry.
      return { taken: false, holder: held.rows[0] ?? { hostId: "", label: null } };
    },
    async release(sessionId) {
      await pool.query(`DELETE FROM "SessionLease" WHERE "sessionId" = $1 AND "hostId" = $2`, [sessionId, hostId]);
    },
    async renew() {
      await pool.query(`UPDATE "Host" SET "heartbeatAt" = now() WHERE "id" = $1`, [hostId]);
      const { rows } = await pool.query<{ sessionId: string }>(
        `UPDATE "SessionLease" SET "expiresAt" = now() + $2::interval WHERE "hostId" = $1 RETURNING "sessionId"`,
        [hostId, ttl],
      );
      return new Set(rows.map((r) => r.sessionId));
    },
    async orphans() {
      const { rows } = await pool.query<{ sessionId: string }>(
        `SELECT DISTINCT t."sessionId" FROM "Turn" t
          WHERE t."status" = 'running'
            AND NOT EXISTS (SELECT 1 FROM "SessionLease" l WHERE l."sessionId" = t."sessionId" AND l."expiresAt" >= now())`,
      );
      return rows.map((r) => r.sessionId);
    },
    async heldElsewhere() {
      const { rows } = await pool.query<{ sessionId: string }>(
        `SELECT "sessionId" FROM "SessionLease" WHERE "hostId" <> $1 AND "expiresAt" >= now()`,
        [hostId],
      );
      return new Set(rows.map((r) => r.sessionId));
    },
    async forgetEarlierRun() {
      const { rows } = await pool.query<{ sessionId: string }>(`DELETE FROM "SessionLease" WHERE "hostId" = $1 RETURNING "sessionId"`, [hostId]);
      return rows.map((r) => r.sessionId);
    },
    async retire() {
      await pool.query(`DELETE FROM "SessionLease" WHERE "hostId" = $1`, [hostId]);
      await pool.query(`UPDATE "Host" SET "stoppedAt" = now() WHERE "id" = $1`, [hostId]);
    },
  };
}
