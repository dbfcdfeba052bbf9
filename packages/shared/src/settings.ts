import { z } from "zod";
import { CompactAt, ContextWindow, ContextWindowSource } from "./context.js";
import { DeferTools } from "./deferred-tools.js";
import { envVarName, URL_MAX } from "./limits.js";

export const ModelProvider = z.enum(["none", "openai-compatible", "anthropic"]);
export type ModelProvider = z.infer<typeof ModelProvider>;

const envName = envVarName("DEEPSEEK_API_KEY", { trim: true });

/** Model settings as stored: never the key itself, only where to find it. */
export const ModelSettings = z.object({
  provider: ModelProvider,
  baseURL: z.url({ protocol: /^https?$/, error: "Base URL must be an http(s) URL" }).max(URL_MAX).optional(),
  model: z.string().trim().max(200).optional(),
  /** Name of the env var (or secrets-file key) holding the API key. */
  apiKeyEnv: envName.optional(),
  maxSteps: z.number().int().min(1).max(200).default(25),
  /** The model's context window in tokens; absent means the preset's or the model's documented window (CTX-1). */
  contextWindow: ContextWindow.optional(),
  /** When tools are deferred behind `tool_search` (CTX-3); absent means the defaults (40 tools or 10 % of the window). */
  deferTools: DeferTools.optional(),
  /** Compact the history before a step whose request reaches this percent of the window (CTX-2); absent means `COMPACT_AT_DEFAULT`. */
  compactAt: CompactAt.optional(),
}).superRefine((v, ctx) => {
  if (v.provider !== "none" && !v.model) ctx.addIssue({ code: "custom", path: ["model"], message: "Model id is required" });
});
export type ModelSettings = z.infer<typeof ModelSettings>;

export const ModelStatus = z.object({
  settings: ModelSettings,
  /** `direct` when no model is configured: the user runs tools by hand. */
  mode: z.enum(["model", "direct"]),
  /** Where the key comes from, e.g. "env DEEPSEEK_API_KEY", or null when none was found. */
  keySource: z.string().nullable(),
  problem: z.string().nullable(),
  /** The context window in use and the one Seam would use without the setting (CTX-1). */
  window: z.object({ value: z.number().int().nullable(), source: ContextWindowSource, default: z.number().int().nullable() }).optional(),
});
export type ModelStatus = z.infer<typeof ModelStatus>;

export const CapabilityRow = z.object({
  id: z.string(),
  title: z.string(),
  codePresent: z.boolean(),
  configured: z.boolean(),
  visible: z.boolean(),
  ready: z.boolean(),
  /** Why a flag is false, in words. */
  note: z.string().nullable(),
  tools: z.array(z.string()),
});
export type CapabilityRow = z.infer<typeof CapabilityRow>;
