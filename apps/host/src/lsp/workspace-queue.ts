import { HostError, isHostError } from "../core/errors.js";

/**
 * One serial queue per canonical workspace (LSP-4): a job runs once every job queued before it on the
 * same root settled. Waiting in the queue ends early when the caller's signal aborts.
 */
export function workspaceQueues() {
  const queues = new Map<string, Promise<void>>();
  return async <T>(root: string, signal: AbortSignal | undefined, job: () => Promise<T>): Promise<T> => {
    const previous = queues.get(root) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => { release = r; });
    const idle = !queues.has(root);
    const tail = previous.then(() => mine);
    queues.set(root, tail);
    try {
      // An idle queue runs the job at once (the warm path: no listener, no extra turn).
      if (!idle) await untilAborted(previous, signal);
      return await job();
    } finally {
      release();
      if (queues.get(root) === tail) queues.delete(root);
    }
  };
}

export type Serialized = ReturnType<typeof workspaceQueues>;

/**
 * A signal that aborts after `ms` (with a `timeout:lsp` HostError) or when `outer` aborts; `done()` releases the
 * timer and the listener. One controller and one timer: cheaper than AbortSignal.timeout + AbortSignal.any on
 * the warm path.
 */
export function deadline(ms: number, outer?: AbortSignal): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  if (outer?.aborted) {
    controller.abort(outer.reason);
    return { signal: controller.signal, done: () => {} };
  }
  const onAbort = () => controller.abort(outer!.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new HostError("timeout:lsp", "The language server did not answer in time.", { reason: "timeout" })), ms);
  timer.unref();
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}

/** Waits for `promise`, or rejects as soon as `signal` aborts (the promise keeps running). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => { signal.removeEventListener("abort", onAbort); resolve(v); },
      (e: unknown) => { signal.removeEventListener("abort", onAbort); reject(e); },
    );
  });
}

function abortReason(signal: AbortSignal): HostError {
  const reason: unknown = signal.reason;
  if (isHostError(reason)) return reason;
  if (reason instanceof Error && reason.name === "TimeoutError") return new HostError("timeout:lsp", "The language server did not answer in time.", { reason: "timeout" });
  return new HostError("closed:lsp", "The request was cancelled.", { reason: "cancelled" });
}
