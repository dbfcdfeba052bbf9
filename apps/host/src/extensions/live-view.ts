import type { ApprovalRequestView, ExtensionPackageView, ExtensionSettings, ExtensionsSnapshot } from "@seam/shared";
import type { ToolRegistry } from "../agent/registry.js";
import { createChanges } from "../core/changes.js";
import type { Scope } from "../core/scope.js";
import { runView, type Run } from "./runs.js";
import type { ExtensionStore } from "./store.js";

export interface LiveViewDeps {
  extStore: ExtensionStore;
  registry: ToolRegistry;
  runs: readonly Run[];
  pendingApprovals(): ApprovalRequestView[];
  getSettings(): Promise<ExtensionSettings>;
}

export type LiveView = ReturnType<typeof liveView>;

/**
 * What the extensions page sees (EXT-6): a snapshot of packages, runs, pending approvals and settings,
 * announced after each burst of changes. The package list is cached until a change says it moved;
 * logs are not announced line by line: once a second the view refreshes if any log grew.
 */
export function liveView(scope: Scope, d: LiveViewDeps) {
  let packagesCache: ExtensionPackageView[] | null = null;
  let watchers = 0;

  const snapshot = async (): Promise<ExtensionsSnapshot> => {
    packagesCache ??= await d.extStore.listAll();
    return { packages: packagesCache, runs: [...d.runs].reverse().map(runView), approvals: d.pendingApprovals(), settings: await d.getSettings() };
  };
  const changes = createChanges(snapshot, { throttleMs: 50 });
  const changed = (packagesToo = false) => {
    if (packagesToo) packagesCache = null;
    changes.changed();
  };
  scope.add(d.registry.onChange(() => changed()), "registry-listener");
  scope.add(() => changes.close(), "changes");
  let loggedBefore = 0;
  const ticker = setInterval(() => {
    if (watchers === 0) return;
    const logged = d.runs.reduce((sum, r) => sum + (r.half?.logCount() ?? 0), 0);
    if (logged !== loggedBefore) changed();
    loggedBefore = logged;
  }, 1_000);
  ticker.unref?.();
  scope.add(() => clearInterval(ticker), "ticker");

  return {
    snapshot,
    changed,
    watchers: () => watchers,
    /** The snapshot now, then after each burst of changes; counts the page as watching while it listens. */
    events(signal: AbortSignal): AsyncIterable<ExtensionsSnapshot> {
      const source = changes.snapshots(signal);
      return (async function* () {
        watchers++;
        try {
          yield* source;
        } finally {
          watchers--;
        }
      })();
    },
  };
}
