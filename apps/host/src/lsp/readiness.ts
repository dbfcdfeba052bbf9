import type { LspClient } from "./client.js";
import { untilAborted } from "./workspace-queue.js";

/** How long a query waits for a server that may still be indexing (LSP-8). */
export interface ReadinessOptions {
  /** An empty answer from a server younger than this may only mean it is still indexing: it is asked again (default 10 s). */
  warmupMs: number;
  /** Time spent asking again after empty answers, in all, with backoff (default 6 s). */
  retryMs: number;
  /** Longest wait for open `$/progress` work to end, per query (default 20 s). */
  progressMs: number;
}

export const DEFAULT_READINESS: ReadinessOptions = { warmupMs: 10_000, retryMs: 6_000, progressMs: 20_000 };

/** The server's answer, and whether it may be incomplete because the server may still have been indexing. */
export interface Answer { raw: unknown; mayBeIncomplete: boolean }

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 1_000;
/** Re-asks because progress was open when an answer came; a bound against servers that report progress forever. */
const MAX_PROGRESS_REASKS = 3;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export interface ReadyRequest {
  client: LspClient;
  method: string;
  params: unknown;
  /** Whether an answer holds nothing (no locations, no hover text). */
  empty(raw: unknown): boolean;
  signal: AbortSignal;
  options: ReadinessOptions;
  /** Reports each wait (`wait` events); the pool adds who and where. */
  waiting(why: "progress" | "empty", ms: number): void;
}

/**
 * Asks once the server is quiet: open work-done progress (project loading, indexing) is waited for, up to a
 * bound; an answer that arrives while progress is open is asked again once it ended; an empty answer from a
 * server in its first seconds is asked again with backoff. A warm, quiet server costs exactly one request.
 */
export async function askWhenReady(r: ReadyRequest): Promise<Answer> {
  const { client, options: o, signal } = r;
  const progressDeadline = Date.now() + o.progressMs;
  let retryLeft = o.retryMs;
  let delay = FIRST_RETRY_MS;
  let reasks = 0;
  let mayBeIncomplete = false;
  for (;;) {
    if (client.progress.open > 0) {
      const ms = Math.max(0, progressDeadline - Date.now());
      r.waiting("progress", ms);
      if (!(await client.progress.quiet(ms, signal))) mayBeIncomplete = true;
    }
    const raw = await client.request<unknown>(r.method, r.params, signal);
    if (client.progress.open > 0) {
      // The answer may predate the work in progress (a syntax-only answer while the project loads).
      if (reasks++ < MAX_PROGRESS_REASKS && Date.now() < progressDeadline) continue;
      return { raw, mayBeIncomplete: true };
    }
    if (!r.empty(raw) || Date.now() - client.spawnedAt >= o.warmupMs) return { raw, mayBeIncomplete };
    if (retryLeft <= 0) return { raw, mayBeIncomplete: true };
    const wait = Math.min(delay, retryLeft);
    r.waiting("empty", wait);
    await untilAborted(sleep(wait), signal);
    retryLeft -= wait;
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  }
}
