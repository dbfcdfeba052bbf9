/** What one streamed reply contains, independent of the wire format. */
export interface Plan {
  model: string;
  /** Deterministic per conversation: the number of assistant messages already in the history. */
  seq: number;
  text: Iterable<string>;
  toolCalls: { id: string; name: string; argsJson: string }[];
  finish: "stop" | "tool_calls" | "length";
  usage: { inputTokens: number; outputTokens: number };
  includeUsage: boolean;
}

/** One SSE frame; `content` marks frames that carry model output (a `hang` step stops after the first). */
export interface Frame {
  data: string;
  content: boolean;
  /** The text delta this frame carries, if any. */
  text?: string;
}

/** Splits tool-call argument JSON into up to three pieces so clients must reassemble it. */
export function splitArgs(json: string): string[] {
  if (json.length < 3) return [json];
  const a = Math.floor(json.length / 3);
  const b = Math.floor((2 * json.length) / 3);
  return [json.slice(0, a), json.slice(a, b), json.slice(b)];
}

export function* openaiFrames(plan: Plan): Generator<Frame> {
  const base = { id: `chatcmpl-scripted-${plan.seq}`, object: "chat.completion.chunk", created: 1_700_000_000, model: plan.model };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, content = true): Frame => ({
    data: `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] })}\n\n`,
    content,
  });
  yield chunk({ role: "assistant", content: "" }, null, false);
  for (const text of plan.text) yield { ...chunk({ content: text }), text };
  for (const [index, call] of plan.toolCalls.entries()) {
    yield chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] });
    for (const piece of splitArgs(call.argsJson)) yield chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  }
  yield chunk({}, plan.finish, false);
  if (plan.includeUsage) {
    const { inputTokens, outputTokens } = plan.usage;
    const usage = { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
    yield { data: `data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`, content: false };
  }
  yield { data: "data: [DONE]\n\n", content: false };
}

const STOP_REASON = { stop: "end_turn", tool_calls: "tool_use", length: "max_tokens" } as const;

export function* anthropicFrames(plan: Plan): Generator<Frame> {
  const event = (type: string, body: Record<string, unknown>, content = false): Frame => ({
    data: `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`,
    content,
  });
  yield event("message_start", {
    message: {
      id: `msg_scripted_${plan.seq}`, type: "message", role: "assistant", model: plan.model, content: [],
      stop_reason: null, stop_sequence: null, usage: { input_tokens: plan.usage.inputTokens, output_tokens: 1 },
    },
  });
  let index = 0;
  let textOpen = false;
  for (const text of plan.text) {
    if (!textOpen) yield event("content_block_start", { index, content_block: { type: "text", text: "" } });
    textOpen = true;
    yield { ...event("content_block_delta", { index, delta: { type: "text_delta", text } }, true), text };
  }
  if (textOpen) yield event("content_block_stop", { index: index++ });
  for (const call of plan.toolCalls) {
    yield event("content_block_start", { index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } }, true);
    for (const piece of splitArgs(call.argsJson)) {
      yield event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } }, true);
    }
    yield event("content_block_stop", { index: index++ });
  }
  yield event("message_delta", {
    delta: { stop_reason: STOP_REASON[plan.finish], stop_sequence: null },
    usage: { output_tokens: plan.usage.outputTokens },
  });
  yield event("message_stop", {});
}

/** Default JSON error bodies, shaped like each API's own. */
export function errorBody(api: "openai" | "anthropic", status: number, message: string): unknown {
  if (api === "anthropic") {
    const type = status === 401 ? "authentication_error" : status === 404 ? "not_found_error" : status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error";
    return { type: "error", error: { type, message } };
  }
  const code = status === 401 ? "invalid_api_key" : status === 429 ? "rate_limit_exceeded" : null;
  return { error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", code } };
}
