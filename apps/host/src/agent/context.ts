import { COMPACT_AT_DEFAULT, type ContextUsage, type ContextWindowSource, type TimelineItem, type TurnInfo } from "@seam/shared";
import type { ChatMessage } from "../llm/llm.js";
import { viewMessages, type HistoryShape } from "./history.js";
import { isSettled, type ViewSnapshot } from "./model-view.js";
import { systemPrompt } from "./prompt.js";
import type { ToolSet } from "./tool-set.js";
import { countText, MESSAGE_OVERHEAD } from "./tokens.js";

export { toolTokens } from "./tool-tokens.js";

/** The model's context window and the compaction threshold in force (percent; absent: the default). */
export interface ContextWindowInfo { value: number | null; source: ContextWindowSource; compactAt?: number }

export interface ContextMeterDeps {
  /** What the model sees of the session now (CTX-4): the meter never reads the whole timeline. */
  view(sessionId: string): Promise<ViewSnapshot>;
  /** The session's last finished model turn (its usage tells the last request's size after a restart). */
  lastModelTurn(sessionId: string): Promise<TurnInfo | null>;
  /** Which tools the next request sends (CTX-3). */
  toolSet: Pick<ToolSet, "next">;
  /** The configured model's context window (null value in direct mode or when unknown). */
  window(): Promise<ContextWindowInfo>;
  /** What capabilities add to the system prompt now (MCP-8); counted in the system part. */
  systemExtra?(): string;
}

/** The size of a session's next model request (CTX-1). */
export interface ContextMeter {
  /** System prompt + the tool specs the next step sends + history, estimated with a tokenizer; unchanged items are not re-counted. */
  measure(sessionId: string, workspace: string): Promise<ContextUsage>;
  /** Records what the provider reported as the input of the session's last model step. */
  reported(sessionId: string, inputTokens: number | undefined): void;
  /** The history part of a view's request, counted afresh (CTX-2: what a compaction leaves). */
  historyTokens(view: ViewSnapshot): Promise<number>;
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

export function createContextMeter(deps: ContextMeterDeps): ContextMeter {
  const perSession = new Map<string, Map<string, number>>();
  const lastInput = new Map<string, number>();
  const systemCache = new Map<string, number>();

  const itemsCache = (sessionId: string) => {
    let cache = perSession.get(sessionId);
    if (cache) perSession.delete(sessionId); // re-inserted below: Map order is the LRU order
    else cache = new Map();
    perSession.set(sessionId, cache);
    if (perSession.size > SESSIONS_MAX) perSession.delete(perSession.keys().next().value as string);
    return cache;
  };

  /** One item's share of the history: what `viewMessages` makes of it alone (content only; overhead is per message). */
  const itemTokens = (item: TimelineItem, shape: HistoryShape, cache: Map<string, number>) => {
    const done = isSettled(item);
    // A pruned result is a stub: its count is kept apart from the full one.
    const key = shape.pruned?.has(item.id) ? `${item.id}:pruned` : item.id;
    const hit = done ? cache.get(key) : undefined;
    if (hit !== undefined) return hit;
    let n = 0;
    for (const m of viewMessages([item], shape)) n += messageTokens(m);
    if (done) cache.set(key, n);
    return n;
  };

  const systemTokens = (workspace: string) => {
    const extra = deps.systemExtra?.() ?? "";
    const key = extra ? `${workspace}\0${extra}` : workspace;
    let n = systemCache.get(key);
    if (n === undefined) {
      n = countText(systemPrompt(workspace, extra));
      if (systemCache.size >= SESSIONS_MAX) systemCache.clear();
      systemCache.set(key, n);
    }
    return n;
  };

  const reportedFromTurns = async (sessionId: string): Promise<number | null> => {
    // A turn records usage summed over its steps: only a one-step turn tells the size of its (last) request.
    const last = await deps.lastModelTurn(sessionId);
    return last && last.steps === 1 && last.inputTokens !== null ? last.inputTokens : null;
  };

  /** Per session: the summed shares of a view's settled items, so a reading adds only what is new. */
  const settledSums = new Map<string, { generation: number; counted: number; sum: number }>();

  /** The history part: each item's cached share plus the per-message overhead. A cold count yields now and then. */
  const historyTokens = async (view: ViewSnapshot, cache: Map<string, number>, sessionId?: string) => {
    const known = sessionId === undefined ? undefined : settledSums.get(sessionId);
    const start = known && known.generation === view.generation && known.counted <= view.settledCount ? known : { generation: view.generation, counted: 0, sum: 0 };
    let content = 0;
    let sliceStart = performance.now();
    const count = async (from: number, to: number) => {
      let n = 0;
      for (let i = from; i < to; i++) {
        n += itemTokens(view.items[i] as TimelineItem, view.shape, cache);
        if (performance.now() - sliceStart > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
      return n;
    };
    const settledSum = start.sum + (await count(start.counted, view.settledCount));
    if (sessionId !== undefined) {
      settledSums.delete(sessionId);
      settledSums.set(sessionId, { generation: view.generation, counted: view.settledCount, sum: settledSum });
      if (settledSums.size > SESSIONS_MAX) settledSums.delete(settledSums.keys().next().value as string);
    }
    content = settledSum + (await count(view.settledCount, view.items.length));
    return content + MESSAGE_OVERHEAD * view.messages().length;
  };

  return {
    historyTokens: (view) => historyTokens(view, new Map()),
    async measure(sessionId, workspace) {
      const [view, window] = await Promise.all([deps.view(sessionId), deps.window()]);
      const cache = itemsCache(sessionId);
      const history = await historyTokens(view, cache, sessionId);
      if (cache.size > 2 * view.items.length + 64) {
        // Items compacted away (or deleted) leave the cache.
        const keep = new Set(view.items.flatMap((i) => [i.id, `${i.id}:pruned`]));
        for (const id of cache.keys()) if (!keep.has(id)) cache.delete(id);
      }

      const sent = await deps.toolSet.next(sessionId);
      const tools = sent.tokens;
      const system = systemTokens(workspace);
      const total = system + tools + history;
      const percent = window.value ? Math.round((total / window.value) * 1000) / 10 : null;
      return {
        system, tools, toolCount: sent.tools.length, deferred: sent.deferred, loaded: sent.loaded, history, total,
        window: window.value, windowSource: window.source, compactAt: window.compactAt ?? COMPACT_AT_DEFAULT, percent,
        lastReported: lastInput.get(sessionId) ?? (await reportedFromTurns(sessionId)),
      };
    },
    reported(sessionId, inputTokens) {
      if (inputTokens !== undefined) lastInput.set(sessionId, inputTokens);
    },
    forget(sessionId) {
      perSession.delete(sessionId);
      settledSums.delete(sessionId);
      lastInput.delete(sessionId);
    },
  };
}
