import { DEFER_TOOLS_DEFAULT, TOOL_SEARCH } from "@seam/shared";
import type { ToolSpec } from "../llm/llm.js";
import type { LoadedTools } from "./loaded-tools.js";
import type { ToolRegistry } from "./registry.js";
import type { ToolDef } from "./tool.js";
import { toolSpec } from "./tool-specs.js";
import { cachedToolTokens } from "./tool-tokens.js";

/** The deferral budget in force (CTX-3): either limit passed defers; a null window leaves only the count. */
export interface ToolBudget {
  maxTools: number;
  maxPercent: number;
  window: number | null;
}

export const DEFAULT_BUDGET: ToolBudget = { ...DEFER_TOOLS_DEFAULT, window: null };

/** What a session's next model request sends as its tools. */
export interface ToolSelection {
  /** In request order: the tools always sent, sorted by name, then the loaded deferred tools in the order they were loaded. */
  tools: ToolDef[];
  /** `tools` as the model gets them. */
  specs: ToolSpec[];
  /** Tokens of `specs` (name, description with guidance, JSON schema). */
  tokens: number;
  /** Deferrable tools left out of the request (0 while the tools fit the budget). */
  deferred: number;
  /** The loaded deferred tools the request sends, in load order (empty while nothing is deferred). */
  loaded: string[];
}

/** One answer to "which tool specs does this session send on its next step" (CTX-3), for the loop and the context meter. */
export interface ToolSet {
  next(sessionId: string): Promise<ToolSelection>;
  /** The deferrable tools the session can see now, sorted by name: what tool_search searches. */
  searchable(sessionId: string): ToolDef[];
  /** Makes tools part of every later request of the session (tool_search's matches). */
  load(sessionId: string, names: readonly string[]): Promise<void>;
  forget(sessionId: string): void;
}

export interface ToolSetDeps {
  registry: Pick<ToolRegistry, "visible" | "get">;
  loaded: LoadedTools;
  /** The budget and the model's window, read at every step (settings may change between steps). */
  budget(): Promise<ToolBudget>;
}

const byName = (a: ToolDef, b: ToolDef) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const selection = (tools: ToolDef[], deferred: number, loaded: string[]): ToolSelection => {
  let tokens = 0;
  for (const t of tools) tokens += cachedToolTokens(t);
  return { tools, specs: tools.map(toolSpec), tokens, deferred, loaded };
};

/** True when the visible tools (without tool_search itself) pass either limit of the budget. */
export function overBudget(tools: readonly ToolDef[], budget: ToolBudget): boolean {
  if (tools.length > budget.maxTools) return true;
  if (budget.window === null) return false;
  let tokens = 0;
  for (const t of tools) tokens += cachedToolTokens(t);
  return tokens > (budget.window * budget.maxPercent) / 100;
}

/**
 * Under the budget every visible tool is sent and tool_search is not. Past it, deferrable tools are left out
 * except those tool_search loaded in the session; tool_search joins the tools always sent. The order is
 * byte-stable for prompt caching: it changes only when a tool comes, goes or is loaded. Deferral needs the
 * tool_search tool to be registered; without it every tool is sent.
 */
export function createToolSet(deps: ToolSetDeps): ToolSet {
  return {
    async next(sessionId) {
      const visible = deps.registry.visible(sessionId);
      const search = visible.find((t) => t.name === TOOL_SEARCH);
      const others = search ? visible.filter((t) => t !== search) : visible;
      const deferrable = others.filter((t) => t.deferrable);
      if (!search || deferrable.length === 0 || !overBudget(others, await deps.budget())) return selection(others, 0, []);
      const names = await deps.loaded.get(sessionId);
      const always = [...others.filter((t) => !t.deferrable), search].sort(byName);
      // Load order (durable: the order of the tool_search results), so a load only appends to the request's tools.
      const present = new Map(deferrable.map((t) => [t.name, t]));
      const loaded = [...names].flatMap((name) => present.get(name) ?? []);
      return selection([...always, ...loaded], deferrable.length - loaded.length, loaded.map((t) => t.name));
    },
    searchable(sessionId) {
      return deps.registry.visible(sessionId).filter((t) => t.deferrable && t.name !== TOOL_SEARCH).sort(byName);
    },
    load: (sessionId, names) => deps.loaded.add(sessionId, names),
    forget: (sessionId) => deps.loaded.forget(sessionId),
  };
}
