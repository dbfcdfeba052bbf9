import { ModelSettings, type ModelProvider, type ModelStatus } from "@seam/shared";

export interface ModelDraft {
  provider: ModelProvider;
  baseURL: string;
  model: string;
  apiKeyEnv: string;
  maxSteps: string;
  /** Tokens; empty means the model's or preset's documented window (CTX-1). */
  contextWindow: string;
  /** Deferral budget (CTX-3); empty means the default (40 tools, 10 % of the window). */
  deferMaxTools: string;
  deferMaxPercent: string;
  /** Percent of the window at which the history is compacted (CTX-2); empty means the default 80. */
  compactAt: string;
}

export type DraftErrors = Partial<Record<keyof ModelDraft, string>>;

export function draftFrom(status: ModelStatus): ModelDraft {
  const s = status.settings;
  return {
    provider: s.provider,
    baseURL: s.baseURL ?? "",
    model: s.model ?? "",
    apiKeyEnv: s.apiKeyEnv ?? "",
    maxSteps: String(s.maxSteps ?? 25),
    contextWindow: s.contextWindow === undefined ? "" : String(s.contextWindow),
    deferMaxTools: s.deferTools === undefined ? "" : String(s.deferTools.maxTools),
    deferMaxPercent: s.deferTools === undefined ? "" : String(s.deferTools.maxPercent),
    compactAt: s.compactAt === undefined ? "" : String(s.compactAt),
  };
}

/** Validates the draft with the shared zod schema; returns the settings to send or per-field errors. */
export function parseDraft(d: ModelDraft): { ok: true; value: ModelSettings } | { ok: false; errors: DraftErrors } {
  const opt = (v: string) => (v.trim() ? v.trim() : undefined);
  const steps = d.maxSteps.trim() === "" ? undefined : Number(d.maxSteps);
  // "128,000" and "128_000" are read as 128000; anything else that is not a number is refused by the schema.
  const windowText = d.contextWindow.trim().replace(/[,_\s]/g, "");
  const contextWindow = windowText === "" ? undefined : Number(windowText);
  // Both empty: the defaults (no setting stored); one empty: that limit's default.
  const maxTools = d.deferMaxTools.trim() === "" ? undefined : Number(d.deferMaxTools.trim().replace(/[,_\s]/g, ""));
  const maxPercent = d.deferMaxPercent.trim() === "" ? undefined : Number(d.deferMaxPercent.trim().replace(/\s*%$/, ""));
  const deferTools = maxTools === undefined && maxPercent === undefined ? undefined : { maxTools, maxPercent };
  // "80" and "80 %" are read as 80.
  const compactText = d.compactAt.trim().replace(/\s*%$/, "");
  const compactAt = compactText === "" ? undefined : Number(compactText);
  const candidate = {
    provider: d.provider,
    baseURL: opt(d.baseURL),
    model: opt(d.model),
    apiKeyEnv: opt(d.apiKeyEnv),
    maxSteps: steps,
    contextWindow,
    deferTools,
    compactAt,
  };
  const parsed = ModelSettings.safeParse(candidate);
  if (parsed.success) {
    if (d.provider === "openai-compatible" && !candidate.baseURL) return { ok: false, errors: { baseURL: "Base URL is required" } };
    return { ok: true, value: parsed.data };
  }
  const errors: DraftErrors = {};
  for (const issue of parsed.error.issues) {
    const key = deferKey(issue.path) ?? (issue.path[0] as keyof ModelDraft | undefined);
    if (key && !errors[key]) errors[key] = key === "maxSteps" ? "Max steps must be a whole number from 1 to 200" : issue.message;
  }
  return { ok: false, errors };
}

/** A deferTools issue belongs to the field of the limit it names. */
function deferKey(path: PropertyKey[]): keyof ModelDraft | undefined {
  if (path[0] !== "deferTools") return undefined;
  return path[1] === "maxPercent" ? "deferMaxPercent" : "deferMaxTools";
}
