import type { Disposer } from "./scope.js";

export type Listener<P> = (payload: P) => void | Promise<void>;

export interface BusOptions {
  /** Called when a listener throws or rejects; emit never fails because of a listener. */
  onError?: (error: unknown, type: string) => void;
}

/** A typed in-process event bus. `M` maps event type (`capability.noun.verb`) to payload. */
export interface Bus<M extends Record<string, unknown>> {
  on<K extends keyof M & string>(type: K, fn: Listener<M[K]>): Disposer;
  emit<K extends keyof M & string>(type: K, payload: M[K]): void;
  /**
   * Events of one type as an async iterable, subscribed from the moment of this call. Events are
   * buffered while the consumer awaits; iteration ends (and the listener is removed) when `signal`
   * aborts or the consumer stops early. Single-use, like a generator.
   */
  iterate<K extends keyof M & string>(type: K, signal: AbortSignal): AsyncIterableIterator<M[K]>;
  listenerCount(type: keyof M & string): number;
}

interface Registration<P> { fn: Listener<P> }

export function createBus<M extends Record<string, unknown>>(options: BusOptions = {}): Bus<M> {
  const listeners = new Map<string, Set<Registration<never>>>();

  const report = (error: unknown, type: string) => {
    try {
      options.onError?.(error, type);
    } catch {
      // An error reporter that throws has nowhere left to report to.
    }
  };

  const bus: Bus<M> = {
    on(type, fn) {
      const registration: Registration<M[typeof type]> = { fn };
      let set = listeners.get(type);
      if (!set) listeners.set(type, (set = new Set()));
      set.add(registration as Registration<never>);
      return () => {
        const current = listeners.get(type);
        if (!current?.delete(registration as Registration<never>)) return;
        if (current.size === 0) listeners.delete(type);
      };
    },
    emit(type, payload) {
      const set = listeners.get(type);
      if (!set) return;
      // Snapshot: listeners added or removed during emit take effect from the next emit.
      for (const { fn } of [...set] as Registration<M[typeof type]>[]) {
        try {
          const result = fn(payload);
          if (result instanceof Promise) result.catch((error: unknown) => report(error, type));
        } catch (error) {
          report(error, type);
        }
      }
    },
    iterate(type, signal) {
      return iterateEvents((fn) => bus.on(type, fn), signal);
    },
    listenerCount(type) {
      return listeners.get(type)?.size ?? 0;
    },
  };
  return bus;
}

/**
 * What a listener receives, as an async iterable: `subscribe` is called now, values are buffered while
 * the consumer awaits (at most `maxBuffered`, oldest dropped first), and iteration ends when `signal`
 * aborts or the consumer stops early.
 */
export function iterateEvents<P>(subscribe: (fn: Listener<P>) => Disposer, signal: AbortSignal, maxBuffered = Number.POSITIVE_INFINITY): AsyncIterableIterator<P> {
  const buffer: P[] = [];
  let waiters: (() => void)[] = [];
  const wake = () => {
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  let ended = false;
  let unsubscribe: Disposer = () => {};

  const end = () => {
    if (ended) return;
    ended = true;
    buffer.length = 0;
    void unsubscribe();
    signal.removeEventListener("abort", end);
    wake();
  };

  if (signal.aborted) ended = true;
  else {
    unsubscribe = subscribe((payload) => {
      buffer.push(payload);
      if (buffer.length > maxBuffered) buffer.shift();
      wake();
    });
    signal.addEventListener("abort", end, { once: true });
  }

  const iterator: AsyncIterableIterator<P> = {
    async next(): Promise<IteratorResult<P>> {
      while (!ended) {
        if (buffer.length > 0) return { value: buffer.shift() as P, done: false };
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
      return { value: undefined, done: true };
    },
    async return(): Promise<IteratorResult<P>> {
      end();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
