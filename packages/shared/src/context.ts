import { z } from "zod";

/** Smallest and largest context window a model setting may name, in tokens. */
export const CONTEXT_WINDOW_MIN = 1_024;
export const CONTEXT_WINDOW_MAX = 10_000_000;

export const ContextWindow = z
  .number({ error: "Context window must be a number of tokens" })
  .int("Context window must be a whole number of tokens")
  .min(CONTEXT_WINDOW_MIN, `Context window must be at least ${CONTEXT_WINDOW_MIN.toLocaleString("en-US")} tokens`)
  .max(CONTEXT_WINDOW_MAX, `Context window must be at most ${CONTEXT_WINDOW_MAX.toLocaleString("en-US")} tokens`);

/** Where the window in use comes from: the user's setting, the model id's documented window, the preset's, or unknown. */
export const ContextWindowSource = z.enum(["setting", "model", "preset", "unknown"]);
export type ContextWindowSource = z.infer<typeof ContextWindowSource>;

/**
 * The size of a session's next model request (CTX-1), estimated with a tokenizer, part by part:
 * system prompt + the tool specs the model sees + the history. `lastReported` is what the provider
 * said the last request's input was, when it said so.
 */
export const ContextUsage = z.object({
  system: z.number().int(),
  tools: z.number().int(),
  /** How many tool specs `tools` counts (the ones the next request sends). */
  toolCount: z.number().int(),
  /** Deferrable tools left out of the next request (CTX-3); 0 while the tools fit the budget. */
  deferred: z.number().int(),
  /** Deferred tools that `tool_search` loaded and the next request sends, by name in load order; empty while nothing is deferred. */
  loaded: z.array(z.string()),
  history: z.number().int(),
  total: z.number().int(),
  /** The model's context window in tokens, or null when unknown (no model, or a local server without a setting). */
  window: z.number().int().nullable(),
  windowSource: ContextWindowSource,
  /** The compaction threshold in force, in percent of the window (CTX-2): the meter warns from here on. */
  compactAt: z.number().int(),
  /** `total / window` in percent (one decimal), or null without a window. */
  percent: z.number().nullable(),
  /** Input tokens the provider reported for the session's last model step, if known. */
  lastReported: z.number().int().nullable(),
});
export type ContextUsage = z.infer<typeof ContextUsage>;

/** Compaction threshold (CTX-2): compact before a step whose request would reach this percent of the window. */
export const COMPACT_AT_MIN = 50;
export const COMPACT_AT_MAX = 95;
export const COMPACT_AT_DEFAULT = 80;
export const CompactAt = z
  .number({ error: "Compact at must be a percentage" })
  .int("Compact at must be a whole percentage")
  .min(COMPACT_AT_MIN, `Compact at must be at least ${COMPACT_AT_MIN} %`)
  .max(COMPACT_AT_MAX, `Compact at must be at most ${COMPACT_AT_MAX} %`);

/** Fact kinds of compaction (CTX-2): the summary the model sees, a failed attempt, and pruned tool results. */
export const COMPACTION_FAILED_FACT = "compaction_failed";
export const CONTEXT_PRUNED_FACT = "context_pruned";

export const CompactionTrigger = z.enum(["auto", "manual"]);
export type CompactionTrigger = z.infer<typeof CompactionTrigger>;

/**
 * A `compaction` fact's payload. Its text is what the model sees in place of every item up to `upToSeq`
 * (and any earlier summary); items after it follow verbatim.
 */
export const CompactionPayload = z.object({
  /** The last compacted item's seq. */
  upToSeq: z.number().int(),
  itemsCompacted: z.number().int(),
  tokensBefore: z.number().int(),
  tokensAfter: z.number().int(),
  trigger: CompactionTrigger,
  focus: z.string().nullable(),
});
export type CompactionPayload = z.infer<typeof CompactionPayload>;

/** A `compaction_failed` fact (no model-visible text): what went wrong; the history is unchanged. */
export const CompactionFailedPayload = z.object({
  trigger: CompactionTrigger,
  reason: z.string(),
  focus: z.string().nullable(),
});
export type CompactionFailedPayload = z.infer<typeof CompactionFailedPayload>;

/** A `context_pruned` fact (no model-visible text): these tool results are stubs in the model's view from now on. */
export const ContextPrunedPayload = z.object({
  itemIds: z.array(z.string()),
  tokensBefore: z.number().int(),
  tokensAfter: z.number().int(),
  trigger: CompactionTrigger,
});
export type ContextPrunedPayload = z.infer<typeof ContextPrunedPayload>;
