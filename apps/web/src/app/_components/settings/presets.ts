import type { ModelProvider } from "@seam/shared";

export interface Preset {
  id: string;
  label: string;
  provider: Exclude<ModelProvider, "none">;
  baseURL: string;
  model?: string;
  apiKeyEnv?: string;
  note?: string;
}

export const PRESETS: Preset[] = [
  { id: "deepseek", label: "DeepSeek", provider: "openai-compatible", baseURL: "https://api.deepseek.com/v1", model: "deepseek-chat", apiKeyEnv: "DEEPSEEK_API_KEY" },
  { id: "openai", label: "OpenAI", provider: "openai-compatible", baseURL: "https://api.openai.com/v1", apiKeyEnv: "OPENAI_API_KEY" },
  { id: "ollama", label: "Ollama", provider: "openai-compatible", baseURL: "http://127.0.0.1:11434/v1", note: "Local; no key needed." },
  { id: "vllm", label: "vLLM", provider: "openai-compatible", baseURL: "http://127.0.0.1:8000/v1", note: "Local; no key unless you started it with --api-key." },
  { id: "llamacpp", label: "llama.cpp", provider: "openai-compatible", baseURL: "http://127.0.0.1:8080/v1", note: "Local llama-server; no key needed." },
  { id: "anthropic", label: "Anthropic", provider: "anthropic", baseURL: "https://api.anthropic.com/v1", apiKeyEnv: "ANTHROPIC_API_KEY" },
];

export const PROVIDER_LABELS: Record<ModelProvider, string> = {
  none: "None — direct mode",
  "openai-compatible": "OpenAI-compatible",
  anthropic: "Anthropic-compatible",
};
