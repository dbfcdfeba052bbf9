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
