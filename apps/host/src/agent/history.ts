import type { TimelineItem, ToolCallItem, TurnInfo } from "@seam/shared";
import type { ChatMessage } from "../llm/llm.js";

/** `/compact [focus]`: a manual compaction (CTX-2). Its line is a command to Seam, never shown to the model. */
export const COMPACT_COMMAND = /^\/compact(?:\s+([\s\S]*))?$/;

/** What the model sees instead of a pruned tool result (CTX-2); the database keeps the full result. */
export function prunedStub(call: ToolCallItem): string {
  return `[Result pruned to save context: ${call.name} returned ${resultText(call).length} characters; run the tool again if you need it]`;
}

export const resultText = (call: ToolCallItem): string => {
  if (call.rendered !== null) return call.rendered;
  if (call.error) return `Error [${call.error.code}]: ${call.error.message}`;
  return "Error [interrupted]: the call did not finish.";
};

/** Which turns are direct-mode turns and which tool results are pruned from the model's view. */
export interface HistoryShape {
  direct: ReadonlySet<string>;
  pruned?: ReadonlySet<string>;
}

/**
 * Turns the durable timeline into the model's history. The timeline and the model's view are the same
 * ordered list (CORE-13): assistant text and the tool calls that follow it form one assistant message,
 * then one tool message per call. Tools the user ran by hand (direct mode) are told as user context,
 * never as something the model did.
 */
export function toChatMessages(items: readonly TimelineItem[], turns: readonly TurnInfo[], pruned?: ReadonlySet<string>): ChatMessage[] {
  return viewMessages(items, { direct: new Set(turns.filter((t) => t.mode === "direct").map((t) => t.id)), pruned });
}

/** `toChatMessages` with the turn modes and pruned results already known (the model view, CTX-4). */
export function viewMessages(items: readonly TimelineItem[], shape: HistoryShape): ChatMessage[] {
  const { direct, pruned } = shape;
  const out: ChatMessage[] = [];
  let assistant: Extract<ChatMessage, { role: "assistant" }> | null = null;
  let results: ChatMessage[] = [];
  const flush = () => {
    out.push(...results);
    results = [];
    assistant = null;
  };
  const result = (call: ToolCallItem) => (pruned?.has(call.id) ? prunedStub(call) : resultText(call));

  for (const item of items) {
    if (item.kind === "tool_call" && item.turnId && direct.has(item.turnId)) {
      flush();
      out.push({ role: "user", text: `[I ran the tool ${item.name} with ${JSON.stringify(item.args)}]\n${result(item)}` });
      continue;
    }
    if (item.kind === "tool_call") {
      if (!assistant) {
        assistant = { role: "assistant", text: "", toolCalls: [] };
        out.push(assistant);
      }
      assistant.toolCalls.push({ id: item.callId, name: item.name, args: item.args });
      results.push({ role: "tool", callId: item.callId, name: item.name, output: result(item), isError: item.status !== "ok" });
      continue;
    }
    if (item.kind === "fact") {
      // A fact without text (e.g. an auxiliary request record) is invisible to the model and must not split a step.
      if (!item.text) continue;
      flush();
      out.push({ role: "user", text: item.text });
      continue;
    }
    flush();
    if (item.role === "user") {
      // A `/call` line is folded into its result above; a `/compact` line is a command to Seam; other
      // direct-mode messages (e.g. `/skill args`) stay.
      if (item.turnId && direct.has(item.turnId)) {
        const line = item.text.trimStart();
        if (line.startsWith("/call") || COMPACT_COMMAND.test(line.trimEnd())) continue;
      }
      out.push({ role: "user", text: item.text });
      continue;
    }
    if (!item.text) continue;
    assistant = { role: "assistant", text: item.text, toolCalls: [] };
    out.push(assistant);
  }
  flush();
  return out;
}
