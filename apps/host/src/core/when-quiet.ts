import type { EventEmitter } from "node:events";

export interface QuietOptions {
  /** How long no new request must arrive (default 100 ms). */
  quietMs?: number;
  /** The latest start, however busy the server is (default 2000 ms). */
  maxMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * Runs `fn` once `server` (an HTTP server: its `request` events) has had no new request for `quietMs`, or after `maxMs` at the latest. The host's
 * warm-up (#17 item 2) starts this way: its loads are synchronous in parts (the tokenizer's tables, ~0.2 s),
 * and the first requests, a health check or the page's first queries, should not wait behind them.
 * Returns a disposer that cancels a run that has not started.
 */
export function whenQuiet(server: Pick<EventEmitter, "on" | "off">, fn: () => void, opts: QuietOptions = {}): () => void {
  const quietMs = opts.quietMs ?? 100;
  const maxMs = opts.maxMs ?? 2000;
  const now = opts.now ?? Date.now;
  const start = now();
  let last = start;
  const seen = () => { last = now(); };
  server.on("request", seen);
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    clearTimeout(timer);
    server.off("request", seen);
  };
  const check = () => {
    const t = now();
    const wait = Math.min(last + quietMs, start + maxMs) - t;
    if (wait > 0) {
      timer = setTimeout(check, wait).unref();
      return;
    }
    stop();
    fn();
  };
  timer = setTimeout(check, quietMs).unref();
  return stop;
}
