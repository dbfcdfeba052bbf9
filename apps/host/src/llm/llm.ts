import type { createAnthropic } from "@ai-sdk/anthropic";
import type { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ModelSettings } from "@seam/shared";
import { HostError } from "../core/errors.js";
import { aborted, loadFailureClasses, toLlmError, type FailureContext } from "./failure.js";
import { toModelPrompt, type ModelPrompt } from "./messages.js";
import { REHEARSAL_TOOL, rehearsalFetch } from "./rehearsal.js";
import { keyEnvFor } from "./presets.js";
import { missingKeyMessage, type SecretSource } from "./secrets.js";

export type { ChatMessage } from "./messages.js";
import type { ChatMessage } from "./messages.js";

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export type FinishKind = "stop" | "tool_calls" | "length" | "error" | "other";

export type LlmEvent =
  | { type: "text"; delta: string }
  | { type: "tool_call"; id: string; name: string; args: unknown }
  | { type: "finish"; reason: FinishKind; usage?: { inputTokens?: number; outputTokens?: number } };

export interface StreamRequest {
  system?: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
}

/**
 * One configured chat model. `stream()` runs exactly one model step: it yields text deltas and the
 * tool calls the model asked for (never executing them), then one `finish` event.
 *
 * Failures are thrown as HostError: `unavailable:llm` (endpoint refused, unreachable, or sent
 * garbage; the message says what to do and never contains the key), `bad_input:llm` (no key
 * found). When `signal` aborts, the HTTP request is cancelled and the iterator throws
 * `HostError("closed:llm", …, { reason: "aborted" })` promptly. Breaking out of the loop early also
 * cancels the request.
 */
export interface LlmModel {
  /** e.g. "deepseek-chat @ api.deepseek.com" (no secrets). */
  readonly label: string;
  stream(req: StreamRequest): AsyncIterable<LlmEvent>;
  /** Builds what the first step needs (the provider's model, its response schemas) without a request: the warm-up. */
  prepare?(): Promise<void>;
}

const ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";

/** A provider's language model (AI SDK specification v3): Seam calls `doStream` itself, one step per call. */
type ProviderModel = ReturnType<ReturnType<typeof createAnthropic>> | ReturnType<ReturnType<typeof createOpenAICompatible>>;
type CallOptions = Parameters<ProviderModel["doStream"]>[0];
type StreamPart = Awaited<ReturnType<ProviderModel["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;
type FinishPart = Extract<StreamPart, { type: "finish" }>;

const FINISH: Record<string, FinishKind> = {
  stop: "stop",
  "tool-calls": "tool_calls",
  length: "length",
  error: "error",
  "content-filter": "other",
  other: "other",
};

function toTools(tools: ToolSpec[]): CallOptions["tools"] {
  // Function tools only, no `execute`: the host's loop runs tools itself (approvals, timeouts, recording; CORE-12).
  return tools.map((t) => ({ type: "function" as const, name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

function usageOf(u: FinishPart["usage"]): { inputTokens?: number; outputTokens?: number } | undefined {
  const inputTokens = u.inputTokens.total;
  const outputTokens = u.outputTokens.total;
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  return { inputTokens, outputTokens };
}

/**
 * A tool call's arguments arrive as JSON text. Text that is not JSON is passed on as it is, so the tool
 * runtime answers the model with `invalid_arguments` instead of the call vanishing.
 */
function parseInput(input: string): unknown {
  if (input.trim() === "") return {};
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/**
 * The provider adapters (AI SDK) load on the first model step of a provider, not at host start. The host's
 * warm-up (`src/warm-up.ts`) calls this after start: it loads the provider's adapter and runs one step
 * through `streamStep` against an answer made up in memory (`rehearsal.ts`; no request leaves the process),
 * so the first real step finds that code compiled. Returns the rehearsal's events (none for "none").
 */
export async function warmProvider(provider: ModelSettings["provider"]): Promise<LlmEvent[]> {
  await loadFailureClasses();
  if (provider === "none") return [];
  const settings: ModelSettings = { provider, model: "warm-up", maxSteps: 1 };
  const ctx: FailureContext = { baseURL: "http://127.0.0.1/warm-up", model: "warm-up", keyEnv: undefined, key: undefined };
  const req: StreamRequest = { system: "warm-up", messages: [{ role: "user", text: "warm-up" }], tools: [REHEARSAL_TOOL], signal: new AbortController().signal };
  const events: LlmEvent[] = [];
  for await (const event of streamStep(settings, ctx, NO_SECRETS, req, rehearsalFetch(provider))) events.push(event);
  return events;
}

const NO_SECRETS: SecretSource = { get: () => undefined };

/**
 * The provider model last built, for the next step with the same provider, model, endpoint and key: building one
 * compiles the adapter's response schemas (~2–4 ms a step). A different key (rotated, edited) builds a new one.
 */
let lastModel: { id: string; model: Promise<ProviderModel> } | undefined;

function cachedLanguageModel(settings: ModelSettings, model: string, baseURL: string, key: string | undefined): Promise<ProviderModel> {
  const id = JSON.stringify([settings.provider, model, baseURL, key ?? null]);
  if (lastModel?.id !== id) {
    const built = languageModel(settings, model, baseURL, key);
    lastModel = { id, model: built };
    built.catch(() => lastModel?.model === built && (lastModel = undefined));
  }
  return lastModel.model;
}

async function languageModel(settings: ModelSettings, model: string, baseURL: string, key: string | undefined, fetch?: typeof globalThis.fetch): Promise<ProviderModel> {
  await loadFailureClasses();
  if (settings.provider === "anthropic") {
    const { createAnthropic } = await import("@ai-sdk/anthropic");
    return createAnthropic({ baseURL, apiKey: key ?? "", fetch })(model);
  }
  const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
  return createOpenAICompatible({ name: "openai-compatible", baseURL, apiKey: key, includeUsage: true, fetch })(model);
}

/** One step; `fetch` replaces the network only for the warm-up's rehearsal. */
async function* streamStep(settings: ModelSettings, ctx: FailureContext, secrets: SecretSource, req: StreamRequest, fetch?: typeof globalThis.fetch): AsyncGenerator<LlmEvent> {
  if (req.signal.aborted) throw aborted();
  // The key is looked up per call so a rotated key or an edited secrets file applies at once.
  const secret = ctx.keyEnv ? secrets.get(ctx.keyEnv) : undefined;
  if (ctx.keyEnv && !secret) throw new HostError("bad_input:llm", missingKeyMessage(ctx.keyEnv, secrets.file), { reason: "model_key_missing" });
  const failure: FailureContext = { ...ctx, key: secret?.value };

  const local = new AbortController();
  const forward = () => local.abort(req.signal.reason);
  req.signal.addEventListener("abort", forward, { once: true });
  try {
    const prompt: ModelPrompt = toModelPrompt(req.system, req.messages);
    const provider = fetch ? languageModel(settings, ctx.model, ctx.baseURL, secret?.value, fetch) : cachedLanguageModel(settings, ctx.model, ctx.baseURL, secret?.value);
    const { stream } = await (await provider).doStream({
      prompt,
      tools: req.tools.length > 0 ? toTools(req.tools) : undefined,
      abortSignal: local.signal,
    });
    for await (const part of stream) {
      switch (part.type) {
        case "text-delta":
          if (part.delta) yield { type: "text", delta: part.delta };
          break;
        case "tool-call":
          yield { type: "tool_call", id: part.toolCallId, name: part.toolName, args: parseInput(part.input) };
          break;
        case "finish":
          yield { type: "finish", reason: FINISH[part.finishReason.unified] ?? "other", usage: usageOf(part.usage) };
          break;
        case "error":
          throw toLlmError(part.error, failure, req.signal);
      }
    }
    if (req.signal.aborted) throw aborted();
  } catch (error) {
    throw toLlmError(error, failure, req.signal);
  } finally {
    req.signal.removeEventListener("abort", forward);
    local.abort();
  }
}

/** Builds the model for these settings (CORE-14). Provider "none" (direct mode) throws `bad_input:llm`. */
export function createModel(settings: ModelSettings, secrets: SecretSource): LlmModel {
  if (settings.provider === "none") {
    throw new HostError("bad_input:llm", "No model is configured: Seam runs in direct mode. Choose a provider in Settings → Model.", { reason: "no_model" });
  }
  const model = settings.model?.trim();
  if (!model) throw new HostError("bad_input:llm", "No model id is set. Enter one in Settings → Model (e.g. deepseek-chat).", { reason: "no_model_id" });
  const baseURL = (settings.baseURL ?? (settings.provider === "anthropic" ? ANTHROPIC_BASE_URL : "")).replace(/\/+$/, "");
  if (!baseURL) {
    throw new HostError("bad_input:llm", "An OpenAI-compatible provider needs a base URL, e.g. https://api.deepseek.com/v1. Pick a preset in Settings → Model.", { reason: "no_base_url" });
  }
  const ctx: FailureContext = { baseURL, model, keyEnv: keyEnvFor(settings), key: undefined };
  return {
    label: `${model} @ ${new URL(baseURL).host}`,
    stream: (req) => streamStep(settings, ctx, secrets, req),
    prepare: async () => {
      const secret = ctx.keyEnv ? secrets.get(ctx.keyEnv) : undefined;
      await cachedLanguageModel(settings, model, baseURL, secret?.value);
    },
  };
}

export { MODEL_PRESETS, keyEnvFor, presetById, settingsFromPreset } from "./presets.js";
export type { ModelPreset, PresetId } from "./presets.js";
export { createSecretSource, keyStatus } from "./secrets.js";
export type { KeyStatus, Secret, SecretSource, Secrets } from "./secrets.js";
