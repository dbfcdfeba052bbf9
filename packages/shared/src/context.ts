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
  /** Deferred tools that `tool_search` loaded and the next request sends, by name (sorted); empty while nothing is deferred. */
  loaded: z.array(z.string()),
  history: z.number().int(),
  total: z.number().int(),
  /** The model's context window in tokens, or null when unknown (no model, or a local server without a setting). */
  window: z.number().int().nullable(),
  windowSource: ContextWindowSource,
  /** `total / window` in percent (one decimal), or null without a window. */
  percent: z.number().nullable(),
  /** Input tokens the provider reported for the session's last model step, if known. */
  lastReported: z.number().int().nullable(),
});
export type ContextUsage = z.infer<typeof ContextUsage>;
