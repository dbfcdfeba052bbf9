import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { McpRoot } from "./surface-types.js";

/** Most roots one `roots/list` answer names (the most recently used workspaces first). */
export const MAX_ROOTS = 50;

/**
 * The roots a server is told (MCP-13): the workspaces of Seam's sessions, most recently used first, each once, as
 * `file://` URIs named after their folder.
 */
export function rootsOf(workspaces: readonly string[]): McpRoot[] {
  const seen = new Set<string>();
  const roots: McpRoot[] = [];
  for (const w of workspaces) {
    if (seen.has(w)) continue;
    seen.add(w);
    roots.push({ uri: pathToFileURL(w).href, name: basename(w) || w });
    if (roots.length >= MAX_ROOTS) break;
  }
  return roots;
}

/** A key that changes exactly when the set of roots does (their order follows use, which does not count as a change). */
export const rootsKey = (roots: readonly McpRoot[]) => roots.map((r) => r.uri).sort().join("\n");

/**
 * Tells the servers when the roots change (MCP-13). `check()` runs at every change of the sessions list: while no
 * connection listens it reads nothing (a connection lists the roots itself when it connects); the first check after
 * one starts listening records the roots it will see, and later checks tell every listener when the set differs.
 * Checks that come while one waits share one read.
 */
export function createRootsWatch(deps: {
  roots(): Promise<McpRoot[]>;
  listening(): boolean;
  changed(): void;
  failed(error: unknown): void;
}): { check(): void } {
  let last: string | null = null;
  let queued = false;
  let chain = Promise.resolve();
  const check = () => {
    if (!deps.listening()) {
      last = null;
      return;
    }
    if (queued) return;
    queued = true;
    chain = chain.then(async () => {
      queued = false;
      const key = rootsKey(await deps.roots());
      if (last !== null && key !== last) deps.changed();
      last = key;
    }).catch(deps.failed);
  };
  return { check };
}
