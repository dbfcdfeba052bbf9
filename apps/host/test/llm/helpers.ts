import type { ModelSettings } from "@seam/shared";
import type { LlmEvent } from "../../src/llm/llm.js";
import type { SecretSource } from "../../src/llm/secrets.js";

// The testkit is imported from source so these tests need no build step.
export { startScriptedModel } from "../../../../packages/testkit/src/index.js";
export type { ScriptedModel, ScriptInput } from "../../../../packages/testkit/src/index.js";

export const TEST_KEY = "sk-test-0123456789abcdef";

export function secretsOf(values: Record<string, string>): SecretSource {
  return { get: (name) => (values[name] ? { value: values[name], source: `test ${name}` } : undefined) };
}

export function settings(provider: "openai-compatible" | "anthropic", baseURL: string, model = "scripted"): ModelSettings {
  return { provider, baseURL, model, apiKeyEnv: "SCRIPTED_API_KEY", maxSteps: 25 };
}

export async function collect(events: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
  const out: LlmEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

export async function failureOf(events: AsyncIterable<LlmEvent>): Promise<unknown> {
  try {
    await collect(events);
  } catch (e) {
    return e;
  }
  throw new Error("expected the stream to fail");
}

export const textOf = (events: LlmEvent[]) => events.flatMap((e) => (e.type === "text" ? [e.delta] : []));
