/** What the scripted server needs to know about a request, read from either API's body. */
export interface Conversation {
  model: string | undefined;
  stream: boolean;
  includeUsage: boolean;
  /** Text of the latest user message that carries the user's own text (tool results and injected context are not). */
  userText: string;
  /** Assistant messages after that user message: the step index to serve. */
  assistantsAfter: number;
  /** Assistant messages in the whole history (used for deterministic ids). */
  assistantsTotal: number;
  /** Output of the most recent tool result in the history, for `{{tool_result}}` in script text. */
  lastToolResult: string;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Text of a message `content`: a string, or the `text` parts of an array (both APIs use `type: "text"`). */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content.filter((p): p is Json => isObject(p) && p.type === "text" && typeof p.text === "string");
  return parts.length > 0 ? parts.map((p) => p.text as string).join("\n") : undefined;
}

/** Context the host injects as user-role text (catalog reminders, invoked skills, attached MCP resources): not what the user typed. */
const INJECTED = /^\s*<(system-reminder|skill_content|mcp_resources)[\s>]/;

/** The user's own words in a message: its text minus injected context parts, or undefined if none remain. */
function userWordsOf(content: unknown): string | undefined {
  if (typeof content === "string") return INJECTED.test(content) ? undefined : content;
  if (!Array.isArray(content)) return undefined;
  const own = content.filter((p) => !(isObject(p) && typeof p.text === "string" && INJECTED.test(p.text)));
  return textOf(own);
}

/** OpenAI: `{role: "tool", content}`. Anthropic: a user message with `tool_result` blocks. */
function toolResultOf(m: Json): string | undefined {
  if (m.role === "tool") return textOf(m.content);
  if (m.role !== "user" || !Array.isArray(m.content)) return undefined;
  const results = m.content.filter((b): b is Json => isObject(b) && b.type === "tool_result");
  const last = results.at(-1);
  return last ? textOf(last.content) : undefined;
}

export function readConversation(body: unknown): Conversation | string {
  if (!isObject(body)) return "request body must be a JSON object";
  const messages = body.messages;
  if (!Array.isArray(messages)) return "request body needs a `messages` array";
  let lastUser = -1;
  let userText = "";
  let lastToolResult = "";
  for (const [i, m] of messages.entries()) {
    if (!isObject(m)) continue;
    lastToolResult = toolResultOf(m) ?? lastToolResult;
    if (m.role !== "user") continue;
    const text = userWordsOf(m.content);
    if (text === undefined) continue;
    lastUser = i;
    userText = text;
  }
  const isAssistant = (m: unknown) => isObject(m) && m.role === "assistant";
  const streamOptions = isObject(body.stream_options) ? body.stream_options : {};
  return {
    model: typeof body.model === "string" ? body.model : undefined,
    stream: body.stream === true,
    includeUsage: streamOptions.include_usage === true,
    userText,
    assistantsAfter: messages.slice(lastUser + 1).filter(isAssistant).length,
    assistantsTotal: messages.filter(isAssistant).length,
    lastToolResult,
  };
}
