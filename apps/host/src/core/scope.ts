/**
 * Scopes own teardown (CORE-10). Every registration returns a disposer and is adopted by the
 * narrowest scope that outlives it; disposing a scope runs its disposers once, last-in first-out,
 * all of them even when some fail, and reports the failures together.
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

interface Entry { label: string; dispose: Disposer }

/** Removes an `add` entry from the list without running it (the child disposes itself). */
const detachers = new WeakMap<Disposer, Entry>();
function detach(disposer: Disposer, entries: Entry[]): Disposer {
  const entry = detachers.get(disposer);
  return () => {
    const i = entry ? entries.indexOf(entry) : -1;
    if (i >= 0) entries.splice(i, 1);
  };
}

export function createScope(label: string, detachFromParent?: () => Disposer): Scope {
  const entries: Entry[] = [];
  const controller = new AbortController();
  let disposing: Promise<void> | undefined;

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
      const child = createScope(`${label}/${childLabel}`, () => remove);
      remove = detach(scope.add(() => child.dispose(), childLabel), entries);
      return child;
    },
    dispose() {
      disposing ??= (async () => {
        detachFromParent?.()();
        controller.abort(new Error(`scope "${label}" disposed`));
        const failures: { label: string; error: unknown }[] = [];
        while (entries.length) await runOne(entries.pop()!, failures);
        if (failures.length) throw new DisposeError(label, failures);
      })();
      return disposing;
    },
    [Symbol.asyncDispose]() { return scope.dispose(); },
  };
  return scope;
}
