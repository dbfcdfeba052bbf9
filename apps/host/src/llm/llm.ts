import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ModelSettings } from "@seam/shared";
import { jsonSchema, stepCountIs, streamText, type FinishReason, type JSONSchema7, type LanguageModel, type LanguageModelUsage, type ToolSet } from "ai";
import { HostError } from "../core/errors.js";
import { aborted, toLlmError, type FailureContext } from "./failure.js";
import { toModelMessages, type ChatMessage } from "./messages.js";
import { keyEnvFor } from "./presets.js";
import { missingKeyMessage, type SecretSource } from "./secrets.js";

export type { ChatMessage } from "./messages.js";

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
}

const ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";

const FINISH: Record<FinishReason, FinishKind> = {
  stop: "stop",
  "tool-calls": "tool_calls",
  length: "length",
  error: "error",
  "content-filter": "other",
  other: "other",
};

function toToolSet(tools: ToolSpec[]): ToolSet {
  // No `execute`: the host's loop runs tools itself (approvals, timeouts, recording; CORE-12).
  return Object.fromEntries(
    tools.map((t) => [t.name, { description: t.description, inputSchema: jsonSchema(t.inputSchema as JSONSchema7) }]),
  );
}

function usageOf(u: LanguageModelUsage): { inputTokens?: number; outputTokens?: number } | undefined {
  if (u.inputTokens === undefined && u.outputTokens === undefined) return undefined;
  return { inputTokens: u.inputTokens, outputTokens: u.outputTokens };
}

function languageModel(settings: ModelSettings, model: string, baseURL: string, key: string | undefined): LanguageModel {
  if (settings.provider === "anthropic") return createAnthropic({ baseURL, apiKey: key ?? "" })(model);
  return createOpenAICompatible({ name: "openai-compatible", baseURL, apiKey: key, includeUsage: true })(model);
}

async function* streamStep(settings: ModelSettings, ctx: FailureContext, secrets: SecretSource, req: StreamRequest): AsyncGenerator<LlmEvent> {
  if (req.signal.aborted) throw aborted();
  // The key is looked up per call so a rotated key or an edited secrets file applies at once.
  const secret = ctx.keyEnv ? secrets.get(ctx.keyEnv) : undefined;
  if (ctx.keyEnv && !secret) throw new HostError("bad_input:llm", missingKeyMessage(ctx.keyEnv, secrets.file), { reason: "model_key_missing" });
  const failure: FailureContext = { ...ctx, key: secret?.value };

  const local = new AbortController();
  const forward = () => local.abort(req.signal.reason);
  req.signal.addEventListener("abort", forward, { once: true });
  try {
    const result = streamText({
      model: languageModel(settings, ctx.model, ctx.baseURL, secret?.value),
      system: req.system,
      messages: toModelMessages(req.messages),
      tools: req.tools.length > 0 ? toToolSet(req.tools) : undefined,
      stopWhen: stepCountIs(1),
      maxRetries: 0,
      abortSignal: local.signal,
      // Errors are read from the stream below; the default handler would print request bodies.
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      switch (part.type) {
        case "text-delta":
          if (part.text) yield { type: "text", delta: part.text };
          break;
        case "tool-call":
          yield { type: "tool_call", id: part.toolCallId, name: part.toolName, args: part.input };
          break;
        case "finish":
          yield { type: "finish", reason: FINISH[part.finishReason], usage: usageOf(part.totalUsage) };
          break;
        case "error":
          throw toLlmError(part.error, failure, req.signal);
        case "abort":
          throw aborted();
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
  };
}

export { MODEL_PRESETS, keyEnvFor, presetById, settingsFromPreset } from "./presets.js";
export type { ModelPreset, PresetId } from "./presets.js";
export { createSecretSource, keyStatus } from "./secrets.js";
export type { KeyStatus, Secret, SecretSource, Secrets } from "./secrets.js";
