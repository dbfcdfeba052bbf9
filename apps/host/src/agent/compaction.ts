import {
  COMPACTION_FACT, COMPACTION_FAILED_FACT, CONTEXT_PRUNED_FACT,
  type CompactionFailedPayload, type CompactionPayload, type CompactionTrigger, type ContextPrunedPayload, type FactItem, type TimelineItem,
} from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import type { ChatMessage, LlmModel } from "../llm/llm.js";
import type { Store } from "../persistence/store.js";
import { messageTokens, type ContextMeter } from "./context.js";
import { prunedStub, viewMessages } from "./history.js";
import type { ModelViews, ViewSnapshot } from "./model-view.js";
import { countText, MESSAGE_OVERHEAD } from "./tokens.js";

/** Tool results above this many tokens, outside the recent turns, are pruned first (CTX-2). */
export const PRUNE_MIN_TOKENS = 2_000;
/** Turns kept verbatim after a compaction (fewer when they do not fit in `KEEP_SHARE` of the window). */
export const KEEP_TURNS = 2;
export const KEEP_SHARE = 0.3;
/** The first words of the model-visible summary fact. */
export const SUMMARY_PREFIX = "Summary of the earlier conversation:";
/** The first words of the summary request's user message (the scripted model in tests matches on them). */
export const SUMMARY_REQUEST = "Summarize the conversation below";

export const SUMMARY_SYSTEM = [
  "You summarize a conversation between a user and Seam, a coding agent working in the user's workspace, so the work can continue from your summary alone.",
  "Keep: the user's goals and requests, decisions made, files read or changed (with paths), commands run and their important results, errors met, and what remains to be done.",
  "Leave out pleasantries and tool output that no longer matters. Write plain Markdown, concise, in the past tense for what happened and a short list of next steps.",
].join("\n");

export interface CompactRequest {
  sessionId: string;
  workspace: string;
  turnId: string;
  signal: AbortSignal;
  model: LlmModel;
  trigger: CompactionTrigger;
  /** What the user asked the summary to focus on (`/compact <focus>`). */
  focus: string | null;
  /** Auto: compact when the next request reaches this percent of the window. */
  compactAt: number;
  emitItem(item: TimelineItem): void;
}

export type CompactOutcome =
  | { kind: "none"; reason: string }
  | { kind: "pruned"; fact: FactItem }
  /** `stillOver`: even the compacted request is at or above the threshold (e.g. the tool specs alone nearly fill the window). */
  | { kind: "compacted"; fact: FactItem; stillOver: boolean }
  | { kind: "failed"; fact: FactItem; reason: string };

export interface Compactor {
  /** Auto: prunes and/or summarizes when the next request is at or above the threshold. Manual: always summarizes. */
  compact(req: CompactRequest): Promise<CompactOutcome>;
}

/** Where the verbatim tail starts: the last `KEEP_TURNS` turns, fewer when they exceed `budget` tokens; never inside a step's tool calls. */
function keepStart(view: ViewSnapshot, tokens: number[], first: number, budget: number, skipTurn: string | null): { keep: number; recent: number } {
  const { items } = view;
  const starts: number[] = [];
  let prev: string | null = null;
  for (let i = first; i < items.length; i++) {
    const turn = (items[i] as TimelineItem).turnId;
    if (turn && turn !== prev && turn !== skipTurn) starts.push(i);
    if (turn) prev = turn;
  }
  const recent = starts.length >= KEEP_TURNS ? (starts[starts.length - KEEP_TURNS] as number) : first;
  let keep = recent;
  let tail = 0;
  for (let i = keep; i < items.length; i++) tail += tokens[i] as number;
  while (keep < items.length && tail > budget) {
    tail -= tokens[keep] as number;
    keep++;
    // A tool call stays with the assistant text before it.
    while (keep < items.length && (items[keep] as TimelineItem).kind === "tool_call") tail -= tokens[keep++] as number;
  }
  return { keep, recent };
}

/** A tool result in the summary request is cut to this many characters (the summary needs its gist, not all of it). */
export const TRANSCRIPT_RESULT_MAX = 4_000;

/** The compacted part as one readable transcript for the summary request. */
function transcript(messages: ChatMessage[]): string {
  const parts: string[] = [];
  const cut = (text: string) =>
    text.length <= TRANSCRIPT_RESULT_MAX ? text : `${text.slice(0, TRANSCRIPT_RESULT_MAX)}\n[… ${(text.length - TRANSCRIPT_RESULT_MAX).toLocaleString("en-US")} more characters]`;
  for (const m of messages) {
    if (m.role === "user") parts.push(`User:\n${m.text}`);
    else if (m.role === "tool") parts.push(`Result of ${m.name}${m.isError ? " (error)" : ""}:\n${cut(m.output)}`);
    else {
      if (m.text) parts.push(`Assistant:\n${m.text}`);
      for (const c of m.toolCalls) parts.push(`Assistant called ${c.name} with ${JSON.stringify(c.args ?? {})}`);
    }
  }
  return parts.join("\n\n");
}

/** One model call, no tools: the summary text, or why there is none. */
async function summarize(req: CompactRequest, text: string): Promise<{ ok: true; summary: string } | { ok: false; reason: string }> {
  const content = `${SUMMARY_REQUEST} so the work can continue from the summary alone.\n\n<conversation>\n${text}\n</conversation>${req.focus ? `\n\nFocus the summary on: ${req.focus}` : ""}`;
  let summary = "";
  try {
    for await (const event of req.model.stream({ system: SUMMARY_SYSTEM, messages: [{ role: "user", text: content }], tools: [], signal: req.signal })) {
      if (event.type === "text") summary += event.delta;
    }
  } catch (error) {
    if (req.signal.aborted) return { ok: false, reason: "The compaction was stopped before the summary was written." };
    return { ok: false, reason: `The summary request failed: ${error instanceof HostError ? error.message : messageOf(error)}` };
  }
  if (req.signal.aborted) return { ok: false, reason: "The compaction was stopped before the summary was written." };
  if (!summary.trim()) return { ok: false, reason: "The model returned an empty summary." };
  return { ok: true, summary: summary.trim() };
}

export function createCompactor(deps: { store: Store; views: ModelViews; meter: ContextMeter }): Compactor {
  const append = async (req: CompactRequest, factKind: string, text: string, payload: unknown) => {
    const fact = await deps.store.items.appendFact(req.sessionId, { turnId: req.turnId, factKind, text, payload });
    req.emitItem(fact);
    deps.views.forget(req.sessionId);
    return fact;
  };
  const failed = async (req: CompactRequest, reason: string): Promise<CompactOutcome> => {
    const payload: CompactionFailedPayload = { trigger: req.trigger, reason, focus: req.focus };
    return { kind: "failed", reason, fact: await append(req, COMPACTION_FAILED_FACT, "", payload) };
  };

  return {
    async compact(req) {
      const usage = await deps.meter.measure(req.sessionId, req.workspace);
      const threshold = usage.window === null ? null : (usage.window * req.compactAt) / 100;
      if (req.trigger === "auto" && (threshold === null || usage.total < threshold)) return { kind: "none", reason: "below the threshold" };

      const view = await deps.views.current(req.sessionId);
      const { items, shape } = view;
      const tokens = items.map((item) => viewMessages([item], shape).reduce((n, m) => n + messageTokens(m) + MESSAGE_OVERHEAD, 0));
      const first = view.compaction ? 1 : 0;
      const budget = usage.window === null ? Number.POSITIVE_INFINITY : usage.window * KEEP_SHARE;
      const { keep, recent } = keepStart(view, tokens, first, budget, req.trigger === "manual" ? req.turnId : null);

      // Prune: large results outside the recent turns become stubs.
      const prune: string[] = [];
      let saved = 0;
      for (let i = first; i < recent; i++) {
        const item = items[i] as TimelineItem;
        if (item.kind !== "tool_call" || shape.pruned.has(item.id) || (tokens[i] as number) <= PRUNE_MIN_TOKENS) continue;
        prune.push(item.id);
        saved += (tokens[i] as number) - countText(prunedStub(item));
      }
      if (req.trigger === "auto" && prune.length > 0 && threshold !== null && usage.total - saved < threshold) {
        const payload: ContextPrunedPayload = { itemIds: prune, tokensBefore: usage.total, tokensAfter: usage.total - saved, trigger: req.trigger };
        return { kind: "pruned", fact: await append(req, CONTEXT_PRUNED_FACT, "", payload) };
      }

      if (keep <= first) {
        const reason = "There is nothing to compact yet: the history is only the most recent turns.";
        return req.trigger === "auto" ? { kind: "none", reason } : failed(req, reason);
      }
      const compacted = items.slice(0, keep);
      const messages = viewMessages(compacted, { direct: shape.direct, pruned: new Set([...shape.pruned, ...prune]) });
      const result = await summarize(req, transcript(messages));
      if (!result.ok) return failed(req, result.reason);

      const text = `${SUMMARY_PREFIX}\n\n${result.summary}`;
      let tail = 0;
      for (let i = keep; i < items.length; i++) tail += tokens[i] as number;
      const payload: CompactionPayload = {
        upToSeq: (items[keep - 1] as TimelineItem).seq,
        itemsCompacted: keep - first,
        tokensBefore: usage.total,
        tokensAfter: usage.system + usage.tools + countText(text) + MESSAGE_OVERHEAD + tail,
        trigger: req.trigger,
        focus: req.focus,
      };
      const stillOver = threshold !== null && payload.tokensAfter >= threshold;
      return { kind: "compacted", fact: await append(req, COMPACTION_FACT, text, payload), stillOver };
    },
  };
}
