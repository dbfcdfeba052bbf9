import { watch as watchFolder } from "node:fs";
import { stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import { isInside, nearestExisting } from "./roots.js";

export interface WatchHandle { close(): Promise<void> }

export interface WatchRequest {
  path: string;
  /**
   * `root`: a skills root with its skill folders' entries (two levels: `<root>/<skill>/SKILL.md`); `ancestor`: the
   * nearest existing ancestor of a missing root, only for an entry of it to come or go.
   */
  kind: "root" | "ancestor";
  ignored(path: string): boolean;
  onEvent(event: string, path: string): void;
  /** A failure after the watcher became ready. */
  onError(error: unknown): void;
}

/** Starts a watcher; resolves once it is ready, rejects if it cannot start. Injectable for tests. */
export type WatcherFactory = (request: WatchRequest) => Promise<WatchHandle>;

/** chokidar loads with the host's warm-up or the first watched root (the first list of a workspace), not at host start. */
export const loadChokidar = () => import("chokidar");

export const chokidarWatcher: WatcherFactory = async (request) => {
  if (request.kind === "ancestor") return entryWatcher(request);
  const { watch } = await loadChokidar();
  return startWatcher(watch, request);
};

/**
 * A folder watched only for an entry of it to come or go (an `ancestor` request: the nearest existing ancestor of a
 * missing root, often the workspace or the home folder): one `fs.watch`, whose events name the entry. chokidar lists the whole
 * folder again (a readdir and an lstat per entry) on every change in it, which a database or a shell history
 * written there makes many times a second. An event without a name reports the folder itself.
 */
const entryWatcher = (request: WatchRequest) => new Promise<WatchHandle>((resolve, reject) => {
  try {
    const watcher = watchFolder(request.path, (event, name) => {
      const path = name ? join(request.path, name.toString()) : request.path;
      if (!request.ignored(path)) request.onEvent(event, path);
    });
    watcher.on("error", (error) => request.onError(error));
    resolve({ close: async () => watcher.close() });
  } catch (error) {
    reject(error);
  }
});

const startWatcher = (watch: typeof import("chokidar").watch, request: WatchRequest) => new Promise<WatchHandle>((resolve, reject) => {
  const watcher = watch(request.path, { ignoreInitial: true, depth: 1, ignored: (p: string) => request.ignored(p) });
  let ready = false;
  watcher.on("all", (event, path) => request.onEvent(event, path));
  watcher.on("error", (error) => {
    if (ready) return request.onError(error);
    ready = true;
    void watcher.close().finally(() => reject(error));
  });
  watcher.on("ready", () => {
    if (ready) return;
    ready = true;
    resolve({ close: () => watcher.close() });
  });
});

export type WatchState = "idle" | "ok" | "failed";

/** Keeps one root under watch (SKL-4): the root itself, or its nearest existing ancestor until the root appears. */
export interface RootWatch {
  readonly state: WatchState;
  /** Arms (or re-arms after a failure); true when the root is reliably watched. */
  ensure(): Promise<boolean>;
  close(): Promise<void>;
}

const segments = (root: string, path: string) => relative(root, path).split(sep).filter(Boolean);

/** Paths under a root that matter to the catalog: entries, and SKILL.md one level down. Resource files do not. */
function watchedPath(root: string, path: string): boolean {
  if (!isInside(root, path)) return false;
  const parts = segments(root, path);
  if (parts.some((p) => p.startsWith("."))) return false;
  return parts.length <= 1 || (parts.length === 2 && parts[1] === "SKILL.md");
}

function relevantEvent(root: string, event: string, path: string): boolean {
  if (!watchedPath(root, path)) return false;
  const parts = segments(root, path);
  if (parts.length === 2) return true;
  if (parts.length === 1) return event === "addDir" || event === "unlinkDir" || parts[0]!.endsWith(".md");
  return false;
}

export function watchRoot(root: string, opts: { factory: WatcherFactory; onChange(reason: string): void; log?: Log }): RootWatch {
  let handle: WatchHandle | null = null;
  let inflight: Promise<boolean> | null = null;
  let state: WatchState = "idle";
  let generation = 0;
  let closed = false;

  const fail = (error: unknown, when: string) => {
    state = "failed";
    opts.log?.warn(`skills watcher on ${root} ${when}; the catalog keeps its last good view until it recovers`, { error: messageOf(error) });
  };

  const follow = (reason: string): Promise<boolean> => {
    const next = arm();
    opts.onChange(reason);
    return next;
  };

  const arm = (): Promise<boolean> => {
    const gen = ++generation;
    const run = (async () => {
      const old = handle;
      handle = null;
      await old?.close().catch(() => {});
      const target = await nearestExisting(root);
      const atRoot = target === root;
      const current = () => gen === generation && !closed;
      const onEvent = (event: string, path: string) => {
        if (!current()) return;
        if (atRoot) {
          if (path === root && event === "unlinkDir") return follow(`root removed: ${root}`);
          if (relevantEvent(root, event, path)) opts.onChange(`${event} ${path}`);
          // Not every platform reports the root itself going away; check after removals.
          if (event.startsWith("unlink")) void stat(root).catch(() => current() && follow(`root removed: ${root}`));
          return;
        }
        if (path !== target && isInside(path, root)) follow(`${event} ${path}`); // a step toward the root appeared
        // The folder itself (an event that named no entry): look again whether a step toward the root is there.
        else if (path === target) void nearestExisting(root).then((now) => now !== target && current() && follow(`appeared: ${root}`), () => {});
      };
      const onError = (error: unknown) => {
        if (!current()) return;
        fail(error, "failed");
        opts.onChange(`watcher failed: ${root}`);
      };
      try {
        const h = await opts.factory({
          path: target,
          kind: atRoot ? "root" : "ancestor",
          ignored: atRoot ? (p) => !watchedPath(root, p) : (p) => !(p === target || isInside(p, root)),
          onEvent,
          onError,
        });
        if (!current()) {
          await h.close().catch(() => {});
          return false;
        }
        handle = h;
        state = "ok";
        // A deeper step (or the root) may have appeared while the watcher started: follow it now.
        if ((await nearestExisting(root)) !== target && current()) return follow(`appeared: ${root}`);
        return true;
      } catch (error) {
        if (current()) fail(error, "could not start");
        return false;
      }
    })();
    inflight = run;
    void run.finally(() => { if (inflight === run) inflight = null; });
    return run;
  };

  return {
    get state() { return state; },
    async ensure() {
      // Wait for the latest arming (an event may re-arm while an earlier one is in flight).
      while (inflight && !closed) {
        const pending = inflight;
        const ok = await pending;
        if (inflight === null || inflight === pending) return ok && state === "ok" && !closed;
      }
      if (closed) return false;
      return state === "ok" ? true : arm();
    },
    async close() {
      closed = true;
      generation += 1;
      const h = handle;
      handle = null;
      await inflight?.catch(() => false);
      await h?.close().catch(() => {});
    },
  };
}
