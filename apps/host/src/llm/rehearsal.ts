/**
 * A model step's answer made up in memory, in each provider's streaming wire format, for the host's warm-up
 * (#17 item 2): `warmProvider` runs one real step (the adapter's request building, SSE parsing, response
 * schemas and Seam's event mapping) against it, so turn 1 does not pay for compiling that code. Nothing
 * goes to the network: the adapter is given a `fetch` that returns this answer.
 */
import type { ModelSettings } from "@seam/shared";

/** The answer: a text delta "ok", one call of the tool `warm_up` with `{}`, and the step's end (tool calls). */
const OPENAI_STREAM = [
  { choices: [{ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null }] },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "call_warm_up", type: "function", function: { name: "warm_up", arguments: "{}" } }] }, finish_reason: null }] },
  { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
].map((chunk) => `data: ${JSON.stringify({ id: "warm-up", object: "chat.completion.chunk", created: 0, model: "warm-up", ...chunk })}\n\n`).join("") + "data: [DONE]\n\n";

const ANTHROPIC_STREAM = ([
  ["message_start", { message: { id: "msg_warm_up", type: "message", role: "assistant", model: "warm-up", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } }],
  ["content_block_start", { index: 0, content_block: { type: "text", text: "" } }],
  ["content_block_delta", { index: 0, delta: { type: "text_delta", text: "ok" } }],
  ["content_block_stop", { index: 0 }],
  ["content_block_start", { index: 1, content_block: { type: "tool_use", id: "toolu_warm_up", name: "warm_up", input: {} } }],
  ["content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: "{}" } }],
  ["content_block_stop", { index: 1 }],
  ["message_delta", { delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 1 } }],
  ["message_stop", {}],
] as const).map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`).join("");

/** The tool the rehearsal offers (its call is only mapped, never run). */
export const REHEARSAL_TOOL = { name: "warm_up", description: "Warm-up only.", inputSchema: { type: "object", properties: {} } };

/** A `fetch` that answers every request with the provider's made-up stream and never touches the network. */
export function rehearsalFetch(provider: Exclude<ModelSettings["provider"], "none">): typeof fetch {
  const body = provider === "anthropic" ? ANTHROPIC_STREAM : OPENAI_STREAM;
  return async () => new Response(body, { headers: { "content-type": "text/event-stream" } });
}
