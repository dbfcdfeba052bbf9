import type { ContextUsage, ContextWindowSource, TimelineItem, TurnInfo } from "@seam/shared";
import type { ChatMessage } from "../llm/llm.js";
import type { Store } from "../persistence/store.js";
import { toChatMessages } from "./history.js";
import { systemPrompt } from "./prompt.js";
import { createLoadedTools } from "./loaded-tools.js";
import type { ToolRegistry } from "./registry.js";
import { createToolSet, DEFAULT_BUDGET, type ToolSet } from "./tool-set.js";
import { countText, MESSAGE_OVERHEAD } from "./tokens.js";

export { toolTokens } from "./tool-tokens.js";

export interface ContextWindowInfo { value: number | null; source: ContextWindowSource }

export interface ContextMeterDeps {
  store: Store;
  registry: ToolRegistry;
  /** The configured model's context window (null value in direct mode or when unknown). */
  window(): Promise<ContextWindowInfo>;
  /** Which tools the next request sends (CTX-3); without it, the registry's tools under the default budget. */
  toolSet?: Pick<ToolSet, "next">;
}

/** The size of a session's next model request (CTX-1). */
export interface ContextMeter {
  /** System prompt + the tool specs the next step sends + history, estimated with a tokenizer; unchanged items are not re-counted. */
  measure(sessionId: string, workspace: string): Promise<ContextUsage>;
  /** Records what the provider reported as the input of the session's last model step. */
  reported(sessionId: string, inputTokens: number | undefined): void;
  /** Drops a session's cached counts (e.g. when it is deleted). */
  forget(sessionId: string): void;
}

/** Sessions whose per-item counts are kept; the least recently measured one is dropped beyond this. */
const SESSIONS_MAX = 64;
/** A cold count (first reading after a start) yields to the event loop this often, so it never stalls the host. */
const SLICE_MS = 10;

/** Tokens of one message's content: text, each tool call's name and JSON arguments, a tool result's output. */
export function messageTokens(m: ChatMessage): number {
  if (m.role === "user") return countText(m.text);
  if (m.role === "tool") return countText(m.output);
  let n = countText(m.text);
  for (const c of m.toolCalls) n += countText(c.name) + countText(JSON.stringify(c.args ?? {}));
  return n;
}

/** A finished item never changes; a streaming message or running call is counted afresh each time. */
const settled = (item: TimelineItem) =>
  item.kind === "fact" || (item.kind === "message" ? item.state !== "streaming" : item.status !== "running");

export function createContextMeter(deps: ContextMeterDeps): ContextMeter {
  const perSession = new Map<string, Map<string, number>>();
  const lastInput = new Map<string, number>();
  const toolSet = deps.toolSet ?? createToolSet({
    registry: deps.registry, loaded: createLoadedTools({ items: deps.store.items }), budget: async () => ({ ...DEFAULT_BUDGET, window: (await deps.window()).value }),
  });
  const systemCache = new Map<string, number>();

  const itemsCache = (sessionId: string) => {
    let cache = perSession.get(sessionId);
    if (cache) perSession.delete(sessionId); // re-inserted below: Map order is the LRU order
    else cache = new Map();
    perSession.set(sessionId, cache);
    if (perSession.size > SESSIONS_MAX) perSession.delete(perSession.keys().next().value as string);
    return cache;
  };

  /** One item's share of the history: what `toChatMessages` makes of it alone (content only; overhead is per message). */
  const itemTokens = (item: TimelineItem, turns: TurnInfo[], cache: Map<string, number>) => {
    const done = settled(item);
    const hit = done ? cache.get(item.id) : undefined;
    if (hit !== undefined) return hit;
    let n = 0;
    for (const m of toChatMessages([item], turns)) n += messageTokens(m);
    if (done) cache.set(item.id, n);
    return n;
  };

  const systemTokens = (workspace: string) => {
    let n = systemCache.get(workspace);
    if (n === undefined) {
      n = countText(systemPrompt(workspace));
      if (systemCache.size >= SESSIONS_MAX) systemCache.clear();
      systemCache.set(workspace, n);
    }
    return n;
  };

  const reportedFromTurns = (turns: TurnInfo[]): number | null => {
    // A turn records usage summed over its steps: only a one-step turn tells the size of its (last) request.
    const last = turns.filter((t) => t.mode === "model" && t.status !== "running").at(-1);
    return last && last.steps === 1 && last.inputTokens !== null ? last.inputTokens : null;
  };

  return {
    async measure(sessionId, workspace) {
      const [items, turns, window] = await Promise.all([deps.store.items.list(sessionId), deps.store.turns.list(sessionId), deps.window()]);
      const cache = itemsCache(sessionId);
      const model = new Set(turns.filter((t) => t.mode === "model").map((t) => t.id));
      // Only the turn of each item matters to `toChatMessages` (direct or not); pass just that.
      const direct = turns.filter((t) => t.mode === "direct");
      let content = 0;
      const seen = new Set<string>();
      let sliceStart = performance.now();
      for (const item of items) {
        seen.add(item.id);
        content += itemTokens(item, item.turnId && !model.has(item.turnId) ? direct : [], cache);
        if (performance.now() - sliceStart > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
      for (const id of cache.keys()) if (!seen.has(id)) cache.delete(id);
      const history = content + MESSAGE_OVERHEAD * toChatMessages(items, turns).length;

      const sent = await toolSet.next(sessionId);
      const tools = sent.tokens;
      const system = systemTokens(workspace);
      const total = system + tools + history;
      const percent = window.value ? Math.round((total / window.value) * 1000) / 10 : null;
      return {
        system, tools, toolCount: sent.tools.length, deferred: sent.deferred, loaded: sent.loaded, history, total,
        window: window.value, windowSource: window.source, percent,
        lastReported: lastInput.get(sessionId) ?? reportedFromTurns(turns),
      };
    },
    reported(sessionId, inputTokens) {
      if (inputTokens !== undefined) lastInput.set(sessionId, inputTokens);
    },
    forget(sessionId) {
      perSession.delete(sessionId);
      lastInput.delete(sessionId);
    },
  };
}
