import type { createOpenAICompatible } from "@ai-sdk/openai-compatible";

/** The provider-level prompt (the AI SDK's language-model specification v3), taken from the provider's own types. */
export type ModelPrompt = Parameters<ReturnType<ReturnType<typeof createOpenAICompatible>>["doStream"]>[0]["prompt"];
type PromptMessage = ModelPrompt[number];
type AssistantPart = Extract<PromptMessage, { role: "assistant" }>["content"][number];
type ToolResultPart = Extract<Extract<PromptMessage, { role: "tool" }>["content"][number], { type: "tool-result" }>;

/** The history as Seam keeps it for a model turn; adapters turn it into their provider's messages. */
export type ChatMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; toolCalls: { id: string; name: string; args: unknown }[] }
  | { role: "tool"; callId: string; name: string; output: string; isError: boolean };

export const INTERRUPTED_RESULT = "No result: the tool call was interrupted before it finished.";

/**
 * Converts the system prompt and Seam's history to the provider prompt, which the provider adapters
 * turn into their wire format. Consecutive tool results become one tool message. Providers reject a
 * history where a tool call has no result (a stopped or crashed turn), so such calls get an error
 * result; results without a preceding call are dropped. Built directly (not through `streamText`'s
 * prompt checks, which cost ~1 s per step at 6,000 messages): the cost of a step stays the cost of
 * encoding the request.
 */
export function toModelPrompt(system: string | undefined, history: ChatMessage[]): ModelPrompt {
  const out: PromptMessage[] = system ? [{ role: "system", content: system }] : [];
  const open = new Map<string, string>();
  const issued = new Set<string>();

  const addResult = (part: ToolResultPart) => {
    const last = out.at(-1);
    if (last?.role === "tool") last.content.push(part);
    else out.push({ role: "tool", content: [part] });
  };
  const closeOpen = () => {
    for (const [toolCallId, toolName] of open) addResult({ type: "tool-result", toolCallId, toolName, output: { type: "error-text", value: INTERRUPTED_RESULT } });
    open.clear();
  };

  for (const m of history) {
    if (m.role === "tool") {
      if (!open.has(m.callId)) continue;
      open.delete(m.callId);
      addResult({
        type: "tool-result",
        toolCallId: m.callId,
        toolName: m.name,
        output: m.isError ? { type: "error-text", value: m.output } : { type: "text", value: m.output },
      });
      continue;
    }
    closeOpen();
    if (m.role === "user") {
      out.push({ role: "user", content: [{ type: "text", text: m.text }] });
      continue;
    }
    const calls = m.toolCalls.filter((c) => !issued.has(c.id));
    const parts: AssistantPart[] = m.text ? [{ type: "text", text: m.text }] : [];
    for (const c of calls) {
      parts.push({ type: "tool-call", toolCallId: c.id, toolName: c.name, input: c.args ?? {} });
      issued.add(c.id);
      open.set(c.id, c.name);
    }
    // An empty assistant message (e.g. stopped before the first delta) is not sent: providers reject it.
    if (parts.length > 0) out.push({ role: "assistant", content: parts });
  }
  closeOpen();
  return out;
}
