import type { ContextWindowSource, ModelSettings } from "@seam/shared";

export type PresetId = "deepseek" | "openai" | "anthropic" | "ollama" | "vllm" | "llama.cpp";

export interface ModelPreset {
  id: PresetId;
  label: string;
  provider: Exclude<ModelSettings["provider"], "none">;
  baseURL: string;
  /** A suggested model id; the user can type any other. */
  model?: string;
  /** Env var (or secrets-file key) holding the API key; absent for local servers that need none. */
  apiKeyEnv?: string;
  /** The documented context window (tokens) of the endpoint's models; absent where it depends on the model or server flags. */
  contextWindow?: number;
}

/** Endpoints the settings page offers. Local servers listen on their documented default ports. */
export const MODEL_PRESETS: readonly ModelPreset[] = [
  { id: "deepseek", label: "DeepSeek", provider: "openai-compatible", baseURL: "https://api.deepseek.com/v1", model: "deepseek-chat", apiKeyEnv: "DEEPSEEK_API_KEY", contextWindow: 128_000 },
  { id: "openai", label: "OpenAI", provider: "openai-compatible", baseURL: "https://api.openai.com/v1", apiKeyEnv: "OPENAI_API_KEY", contextWindow: 128_000 },
  { id: "anthropic", label: "Anthropic", provider: "anthropic", baseURL: "https://api.anthropic.com/v1", apiKeyEnv: "ANTHROPIC_API_KEY", contextWindow: 200_000 },
  { id: "ollama", label: "Ollama (local)", provider: "openai-compatible", baseURL: "http://127.0.0.1:11434/v1" },
  { id: "vllm", label: "vLLM (local)", provider: "openai-compatible", baseURL: "http://127.0.0.1:8000/v1" },
  { id: "llama.cpp", label: "llama.cpp server (local)", provider: "openai-compatible", baseURL: "http://127.0.0.1:8080/v1" },
];

export function presetById(id: string): ModelPreset | undefined {
  return MODEL_PRESETS.find((p) => p.id === id);
}

/** Settings pre-filled from a preset (the user may still change every field). */
export function settingsFromPreset(id: PresetId, maxSteps = 25): ModelSettings {
  const preset = presetById(id);
  if (!preset) throw new Error(`unknown model preset ${id}`);
  return { provider: preset.provider, baseURL: preset.baseURL, model: preset.model, apiKeyEnv: preset.apiKeyEnv, maxSteps };
}

const sameOrigin = (a: string, b: string) => {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/**
 * The key name to look up: the configured one, else the matching hosted preset's (so a DeepSeek base
 * URL without a key name still finds DEEPSEEK_API_KEY), else ANTHROPIC_API_KEY for Anthropic (its
 * API always needs one). Undefined means "send no key" (local OpenAI-compatible servers).
 */
export function keyEnvFor(settings: ModelSettings): string | undefined {
  if (settings.apiKeyEnv) return settings.apiKeyEnv;
  if (settings.provider === "none") return undefined;
  const hosted = MODEL_PRESETS.find((p) => p.apiKeyEnv && settings.baseURL && sameOrigin(p.baseURL, settings.baseURL));
  if (hosted) return hosted.apiKeyEnv;
  return settings.provider === "anthropic" ? "ANTHROPIC_API_KEY" : undefined;
}

/**
 * Documented context windows by model-id prefix (the longest matching prefix wins). They refine a
 * preset's window where one endpoint serves models of different sizes (CTX-1).
 */
export const MODEL_WINDOWS: readonly { prefix: string; window: number }[] = [
  { prefix: "deepseek-chat", window: 128_000 },
  { prefix: "deepseek-reasoner", window: 128_000 },
  { prefix: "gpt-4o", window: 128_000 },
  { prefix: "gpt-4.1", window: 1_047_576 },
  { prefix: "claude-", window: 200_000 },
];

export interface WindowInfo {
  /** The window in use, or null when neither the setting nor a preset knows it. */
  value: number | null;
  source: ContextWindowSource;
  /** What Seam would use without the setting. */
  default: number | null;
}

/** The context window for model settings: the user's setting, else the model id's, else the matching preset's. */
export function contextWindowFor(settings: ModelSettings): WindowInfo {
  const known = defaultWindow(settings);
  if (settings.contextWindow !== undefined) return { value: settings.contextWindow, source: "setting", default: known?.value ?? null };
  return known ? { value: known.value, source: known.source, default: known.value } : { value: null, source: "unknown", default: null };
}

function defaultWindow(settings: ModelSettings): { value: number; source: "model" | "preset" } | null {
  if (settings.provider === "none") return null;
  const id = settings.model?.toLowerCase() ?? "";
  let best: { prefix: string; window: number } | undefined;
  for (const entry of MODEL_WINDOWS) if (id.startsWith(entry.prefix) && (!best || entry.prefix.length > best.prefix.length)) best = entry;
  if (best) return { value: best.window, source: "model" };
  const preset = MODEL_PRESETS.find((p) => p.contextWindow && p.provider === settings.provider && settings.baseURL && sameOrigin(p.baseURL, settings.baseURL));
  return preset?.contextWindow ? { value: preset.contextWindow, source: "preset" } : null;
}
