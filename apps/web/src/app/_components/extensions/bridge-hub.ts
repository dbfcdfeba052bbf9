/**
 * Host → browser messages inside one tab, by run. Frames listen by run id; the tab holds one bridge
 * stream (see `useLiveExtensions`) while at least one frame listens, so frames don't each take one of
 * the browser's six connections to the host, and a tab showing no frame takes none.
 */
const listeners = new Map<string, Set<(message: unknown) => void>>();
const countWatchers = new Set<() => void>();
let count = 0;

const setCount = (n: number) => {
  count = n;
  for (const fn of [...countWatchers]) fn();
};

export function listenBridge(runId: string, fn: (message: unknown) => void): () => void {
  let set = listeners.get(runId);
  if (!set) listeners.set(runId, (set = new Set()));
  set.add(fn);
  setCount(count + 1);
  let live = true;
  return () => {
    if (!live) return;
    live = false;
    set.delete(fn);
    if (set.size === 0 && listeners.get(runId) === set) listeners.delete(runId);
    setCount(count - 1);
  };
}

export function dispatchBridge(runId: string, message: unknown): void {
  for (const fn of [...(listeners.get(runId) ?? [])]) fn(message);
}

/** For useSyncExternalStore: how many frames of this tab listen. */
export const bridgeListenerCount = () => count;
export function watchBridgeListenerCount(fn: () => void): () => void {
  countWatchers.add(fn);
  return () => void countWatchers.delete(fn);
}
