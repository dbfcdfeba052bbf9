import type { McpPromptInfo, McpPromptMessage, McpPromptResult } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { LiveServer } from "./live-server.js";
import { MAX_PAGES, request, requireCapability, str } from "./requests.js";

/** Every page of `prompts/list` (at most MAX_PAGES), with their arguments. */
export async function listPrompts(live: LiveServer): Promise<McpPromptInfo[]> {
  requireCapability(live, "prompts");
  const out: McpPromptInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await request(live, "listing its prompts", (o) => live.connection.client.request({ method: "prompts/list", params: cursor ? { cursor } : {} }, o));
    for (const p of r.prompts) {
      out.push({
        name: p.name, title: str(p.title), description: str(p.description),
        arguments: (p.arguments ?? []).map((a) => ({ name: a.name, description: str(a.description), required: a.required === true })),
      });
    }
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/**
 * `prompts/get` with its arguments, checked first against what the server listed: an unknown prompt, a missing
 * required argument or an argument the prompt does not take is a clear error, and nothing is sent.
 */
export async function getPrompt(live: LiveServer, prompt: string, args: Record<string, string>): Promise<McpPromptResult> {
  const prompts = await listPrompts(live);
  const info = prompts.find((p) => p.name === prompt);
  if (!info) {
    const known = prompts.map((p) => p.name).slice(0, 20).join(", ");
    throw new HostError("not_found:mcp", `The MCP server "${live.name}" has no prompt named "${prompt}".${known ? ` Its prompts: ${known}.` : " It lists no prompts."}`, { reason: "unknown_prompt" });
  }
  const missing = info.arguments.filter((a) => a.required && !(args[a.name] ?? "").trim());
  if (missing.length > 0) {
    const list = missing.map((a) => `"${a.name}"${a.description ? ` (${a.description})` : ""}`).join(", ");
    throw new HostError("bad_input:mcp", `The prompt "${prompt}" of "${live.name}" needs ${missing.length === 1 ? "the argument" : "the arguments"} ${list}. Give ${missing.length === 1 ? "it" : "them"} as name=value.`, {
      reason: "missing_argument", missing: missing.map((a) => a.name),
    });
  }
  const unknown = Object.keys(args).filter((k) => !info.arguments.some((a) => a.name === k));
  if (unknown.length > 0) {
    const takes = info.arguments.map((a) => a.name).join(", ");
    throw new HostError("bad_input:mcp", `The prompt "${prompt}" of "${live.name}" takes no argument ${unknown.map((k) => `"${k}"`).join(", ")}. ${takes ? `It takes: ${takes}.` : "It takes no arguments."}`, {
      reason: "unknown_argument", unknown,
    });
  }
  // Empty optional arguments are left out, so the server applies its own defaults.
  const sent = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== ""));
  const r = await request(live, `getting the prompt "${prompt}"`, (o) =>
    live.connection.client.getPrompt({ name: prompt, ...(Object.keys(sent).length > 0 ? { arguments: sent } : {}) }, o));
  return {
    server: live.name,
    prompt,
    description: str(r.description),
    messages: r.messages.map((m): McpPromptMessage => ({ role: m.role === "assistant" ? "assistant" : "user", content: m.content })),
  };
}
