/**
 * Scopes own teardown (CORE-10). Every registration returns a disposer and is adopted by the
 * narrowest scope that outlives it; disposing a scope runs its disposers once, last-in first-out,
 * all of them even when some fail, and reports the failures together. A dispose that is still
 * running after 10 s (configurable) is reported once, naming the teardowns still pending.
 */
export type Disposer = () => void | Promise<void>;

export class DisposeError extends AggregateError {
  constructor(readonly scope: string, readonly failures: { label: string; error: unknown }[]) {
    super(failures.map((f) => f.error), `${failures.length} teardown(s) failed in scope "${scope}": ${failures.map((f) => f.label).join(", ")}`);
    this.name = "DisposeError";
  }
}

export interface Scope extends AsyncDisposable {
  readonly label: string;
  readonly disposed: boolean;
  /** Aborted when the scope starts disposing. */
  readonly signal: AbortSignal;
  /** Adopt an existing teardown. The returned disposer runs it early (once) and forgets it. */
  add(dispose: Disposer, label: string): Disposer;
  /** Acquire and release in one place. */
  effect(setup: () => Disposer | Promise<Disposer>, label: string): Promise<Disposer>;
  /** A child scope, disposed with (before the earlier entries of) this one. */
  child(label: string): Scope;
  /** LIFO, idempotent; rejects with DisposeError after every teardown ran if any failed. */
  dispose(): Promise<void>;
}

/** What a slow-dispose warning reports: the scope, what it is still waiting for, and for how long. */
export type SlowDispose = { scope: string; pending: string[]; elapsedMs: number };

export interface ScopeOptions {
  /**
   * Warn once when dispose() has not finished after this many milliseconds (default 10 s, per STYLE);
   * `Infinity` turns the warning off. Child scopes inherit this and `warn`.
   */
  slowDisposeMs?: number;
  /** Receives the slow-dispose warning (default: console.error of the message). Compatible with Log.warn. */
  warn?: (message: string, data: SlowDispose) => void;
}

export const SLOW_DISPOSE_MS = 10_000;

interface Settings { slowDisposeMs: number; warn: (message: string, data: SlowDispose) => void }
interface Entry {
  label: string;
  dispose: Disposer;
  /** For a child scope's entry: what the child is still disposing. */
  pending?: () => string[];
}
/** What a parent needs from a child beyond the public Scope. */
interface Inner {
  /** Labels still to dispose, the running one first (a running child expands to its own pending). */
  pending(): string[];
  /** Disposes; `watch` false when a parent disposes it, so only the outermost scope warns. */
  dispose(watch: boolean): Promise<void>;
}

/** Removes an `add` entry from the list without running it (the child disposes itself). */
const detachers = new WeakMap<Disposer, Entry>();
function detach(disposer: Disposer, entries: Entry[]): Disposer {
  const entry = detachers.get(disposer);
  return () => {
    const i = entry ? entries.indexOf(entry) : -1;
    if (i >= 0) entries.splice(i, 1);
  };
}

export function createScope(label: string, options: ScopeOptions = {}): Scope {
  const settings: Settings = {
    slowDisposeMs: options.slowDisposeMs ?? SLOW_DISPOSE_MS,
    warn: options.warn ?? ((message) => console.error(message)),
  };
  return build(label, settings)[0];
}

function build(label: string, settings: Settings, detachFromParent?: () => Disposer): [Scope, Inner] {
  const entries: Entry[] = [];
  const controller = new AbortController();
  let disposing: Promise<void> | undefined;
  let running: Entry | undefined;

  const pending = (): string[] => {
    const expand = (entry: Entry) => {
      const inner = entry.pending?.() ?? [];
      return inner.length ? inner.map((l) => `${entry.label}/${l}`) : [entry.label];
    };
    return [...(running ? expand(running) : []), ...entries.toReversed().map((e) => e.label)];
  };

  /** Warns once if disposal outlives the threshold; returns the stop function. */
  const watchSlowDispose = (): (() => void) => {
    const ms = settings.slowDisposeMs;
    if (!(ms >= 0 && Number.isFinite(ms))) return () => {};
    const started = Date.now();
    const timer = setTimeout(() => {
      const data: SlowDispose = { scope: label, pending: pending(), elapsedMs: Date.now() - started };
      try {
        settings.warn(`scope "${label}" is still disposing after ${formatMs(data.elapsedMs)}; pending: ${data.pending.join(", ") || "(none)"}`, data);
      } catch {
        // A broken logger must not turn a slow teardown into a crash.
      }
    }, ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  };

  const runOne = async (entry: Entry, failures: { label: string; error: unknown }[]) => {
    try {
      await entry.dispose();
    } catch (error) {
      if (error instanceof DisposeError) failures.push(...error.failures.map((f) => ({ label: `${entry.label}/${f.label}`, error: f.error })));
      else failures.push({ label: entry.label, error });
    }
  };

  const scope: Scope = {
    label,
    get disposed() { return disposing !== undefined; },
    signal: controller.signal,
    add(dispose, entryLabel) {
      if (disposing) throw new Error(`scope "${label}" is disposed; cannot add "${entryLabel}"`);
      const entry: Entry = { label: entryLabel, dispose };
      entries.push(entry);
      let done: Promise<void> | undefined;
      entry.dispose = () => (done ??= Promise.resolve().then(dispose));
      const early: Disposer = async () => {
        const i = entries.indexOf(entry);
        if (i >= 0) entries.splice(i, 1);
        const failures: { label: string; error: unknown }[] = [];
        await runOne(entry, failures);
        if (failures.length) throw new DisposeError(label, failures);
      };
      detachers.set(early, entry);
      return early;
    },
    async effect(setup, entryLabel) {
      if (disposing) throw new Error(`scope "${label}" is disposed; cannot start "${entryLabel}"`);
      const dispose = await setup();
      if (disposing) {
        // Release what was acquired too late; a failing release is kept as the cause, not lost.
        const cause = await Promise.resolve().then(dispose).then(() => undefined, (error: unknown) => error);
        throw new Error(`scope "${label}" was disposed while "${entryLabel}" started`, cause === undefined ? undefined : { cause });
      }
      return scope.add(dispose, entryLabel);
    },
    child(childLabel) {
      if (disposing) throw new Error(`scope "${label}" is disposed; cannot create child "${childLabel}"`);
      let remove: Disposer = () => {};
      const [child, inner] = build(`${label}/${childLabel}`, settings, () => remove);
      const early = scope.add(() => inner.dispose(false), childLabel);
      detachers.get(early)!.pending = inner.pending;
      remove = detach(early, entries);
      return child;
    },
    dispose() {
      return dispose(true);
    },
    [Symbol.asyncDispose]() { return scope.dispose(); },
  };

  const dispose = (watch: boolean) => {
    disposing ??= (async () => {
      detachFromParent?.()();
      controller.abort(new Error(`scope "${label}" disposed`));
      const stopWatch = watch ? watchSlowDispose() : () => {};
      const failures: { label: string; error: unknown }[] = [];
      try {
        while (entries.length) {
          running = entries.pop()!;
          await runOne(running, failures);
        }
      } finally {
        running = undefined;
        stopWatch();
      }
      if (failures.length) throw new DisposeError(label, failures);
    })();
    return disposing;
  };
  return [scope, { pending, dispose }];
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
