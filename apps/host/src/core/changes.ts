import type { Disposer } from "./scope.js";

/**
 * A change signal with throttled snapshots: `changed()` marks the state dirty; `snapshots` yields
 * `read()` now and then once per burst of changes (after `throttleMs` of quiet collection), until
 * `signal` aborts or `close()` is called. The UI subscriptions of the capabilities use it.
 */
export interface Changes<T> {
  changed(): void;
  /** Runs `fn` on every change (synchronously, without throttling). */
  on(fn: () => void): Disposer;
  snapshots(signal: AbortSignal): AsyncGenerator<T>;
  close(): void;
}

export function createChanges<T>(
  read: () => T | Promise<T>,
  opts: { throttleMs?: number; onListenerError?: (error: unknown) => void } = {},
): Changes<T> {
  const throttleMs = opts.throttleMs ?? 50;
  const listeners = new Set<{ fn: () => void }>();
  let closed = false;
  const notify = () => {
    for (const l of [...listeners]) {
      try {
        l.fn();
      } catch (error) {
        opts.onListenerError?.(error);
      }
    }
  };

  return {
    changed: notify,
    on(fn) {
      const entry = { fn };
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
    close() {
      closed = true;
      notify();
    },
    async *snapshots(signal) {
      let dirty = false;
      let wake: (() => void) | null = null;
      let cutShort: (() => void) | null = null;
      const entry = { fn: () => { dirty = true; wake?.(); if (closed) cutShort?.(); } };
      const onAbort = () => { wake?.(); cutShort?.(); };
      listeners.add(entry);
      signal.addEventListener("abort", onAbort);
      const over = () => signal.aborted || closed;
      try {
        yield await read();
        while (!over()) {
          if (!dirty) await new Promise<void>((r) => { wake = r; });
          wake = null;
          if (over()) return;
          // Let the rest of a burst arrive, then send one snapshot for all of it.
          await new Promise<void>((r) => {
            const t = setTimeout(r, throttleMs);
            cutShort = () => { clearTimeout(t); r(); };
          });
          cutShort = null;
          if (over()) return;
          dirty = false;
          yield await read();
        }
      } finally {
        listeners.delete(entry);
        signal.removeEventListener("abort", onAbort);
      }
    },
  };
}
