import type { ModelMessage, ToolCallPart, ToolModelMessage, ToolResultPart } from "ai";

/** The history as Seam keeps it for a model turn; adapters turn it into their provider's messages. */
export type ChatMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; toolCalls: { id: string; name: string; args: unknown }[] }
  | { role: "tool"; callId: string; name: string; output: string; isError: boolean };

export const INTERRUPTED_RESULT = "No result: the tool call was interrupted before it finished.";

/**
 * Converts Seam's history to AI SDK messages. Consecutive tool results become one tool message.
 * Providers reject a history where a tool call has no result (a stopped or crashed turn), so such
 * calls get an error result; results without a preceding call are dropped.
 */
export function toModelMessages(history: ChatMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  const open = new Map<string, string>();
  const issued = new Set<string>();

  const addResult = (part: ToolResultPart) => {
    const last = out.at(-1);
    if (last?.role === "tool") last.content.push(part);
    else out.push({ role: "tool", content: [part] } satisfies ToolModelMessage);
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
      out.push({ role: "user", content: m.text });
      continue;
    }
    const calls = m.toolCalls.filter((c) => !issued.has(c.id));
    const parts: ({ type: "text"; text: string } | ToolCallPart)[] = m.text ? [{ type: "text", text: m.text }] : [];
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
