import { TOOL_SEARCH, ToolSearchResult } from "@seam/shared";
import type { Store } from "../persistence/store.js";

/**
 * The tools `tool_search` loaded in each session (CTX-3). Durable without a record of its own: the names are
 * the `loaded` of the session's successful tool_search results, read once per session after a start (a fork
 * or an import inherits them with the copied calls) and kept in memory from then on.
 */
export interface LoadedTools {
  /** The session's loaded names (never shrinks: a tool that went away is simply not sent). */
  get(sessionId: string): Promise<ReadonlySet<string>>;
  /** Adds names for the rest of the session; a later rebuild finds them in the tool_search call's result. */
  add(sessionId: string, names: readonly string[]): Promise<void>;
  /** Drops a session's set from memory (e.g. when it is deleted). */
  forget(sessionId: string): void;
}

/** Sessions kept in memory; the least recently used beyond this is rebuilt from the database when asked again. */
const SESSIONS_MAX = 256;

/** The names one session's tool_search results loaded, oldest call first. */
export async function loadedFromHistory(items: Pick<Store["items"], "list">, sessionId: string): Promise<Set<string>> {
  const names = new Set<string>();
  for (const item of await items.list(sessionId)) {
    if (item.kind !== "tool_call" || item.name !== TOOL_SEARCH || item.status !== "ok") continue;
    const result = ToolSearchResult.safeParse(item.canonical);
    if (result.success) for (const name of result.data.loaded) names.add(name);
  }
  return names;
}

export function createLoadedTools(deps: { items: Pick<Store["items"], "list"> }): LoadedTools {
  const sets = new Map<string, Promise<Set<string>>>();

  const setOf = (sessionId: string): Promise<Set<string>> => {
    let set = sets.get(sessionId);
    if (set) sets.delete(sessionId); // re-inserted below: Map order is the LRU order
    else set = loadedFromHistory(deps.items, sessionId);
    sets.set(sessionId, set);
    // A failed read is not kept: the next step tries again.
    set.catch(() => sets.get(sessionId) === set && sets.delete(sessionId));
    if (sets.size > SESSIONS_MAX) sets.delete(sets.keys().next().value as string);
    return set;
  };

  return {
    get: (sessionId) => setOf(sessionId),
    async add(sessionId, names) {
      const set = await setOf(sessionId);
      for (const name of names) set.add(name);
    },
    forget(sessionId) {
      sets.delete(sessionId);
    },
  };
}
