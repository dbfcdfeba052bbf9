import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";

export type LedgerCheck = "ok" | "file_not_read" | "file_changed_since_read";

/**
 * What each session last saw of each file (CODE-1 read-before-edit): absolute real path → sha256 of
 * the whole file as `read_file` read it or as Seam last wrote it. Bounded per session (LRU).
 */
export interface Ledger {
  /** Notes that `sessionId` has seen the file at `abs` with this content (or this sha256 hex digest). */
  record(sessionId: string, abs: string, seen: Uint8Array | { sha256: string }): void;
  /** Compares what the session saw with the file's content now (`current`, or read from disk). */
  check(sessionId: string, abs: string, current?: Uint8Array): Promise<LedgerCheck>;
  /** Drops everything the session saw (session deletion). */
  forget(sessionId: string): void;
  /** The digest the session saw, if any (for tests and other tools). */
  seen(sessionId: string, abs: string): string | undefined;
}

export interface LedgerLimits {
  /** Paths remembered per session; the least recently used goes first (default 10,000). */
  maxPathsPerSession?: number;
  /** Sessions remembered, in case a deletion is never reported (default 1,000). */
  maxSessions?: number;
}

export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

export function createLedger(limits: LedgerLimits = {}): Ledger {
  const maxPaths = limits.maxPathsPerSession ?? 10_000;
  const maxSessions = limits.maxSessions ?? 1_000;
  const sessions = new Map<string, Map<string, string>>();

  // Map iteration order is insertion order: re-inserting on use makes the first key the least recent.
  const touch = <K, V>(map: Map<K, V>, key: K, value: V, max: number) => {
    map.delete(key);
    map.set(key, value);
    while (map.size > max) map.delete(map.keys().next().value as K);
  };
  const paths = (sessionId: string) => sessions.get(sessionId);

  return {
    record(sessionId, abs, seen) {
      const digest = seen instanceof Uint8Array ? sha256(seen) : seen.sha256;
      const map = paths(sessionId) ?? new Map<string, string>();
      touch(sessions, sessionId, map, maxSessions);
      touch(map, abs, digest, maxPaths);
    },
    async check(sessionId, abs, current) {
      const digest = paths(sessionId)?.get(abs);
      if (digest === undefined) return "file_not_read";
      const now = sha256(current ?? (await readFile(abs)));
      return now === digest ? "ok" : "file_changed_since_read";
    },
    forget(sessionId) {
      sessions.delete(sessionId);
    },
    seen: (sessionId, abs) => paths(sessionId)?.get(abs),
  };
}
