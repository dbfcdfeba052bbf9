import type { McpPromptResult, McpReadResult, McpResourceContent } from "@seam/shared";
import { formatBytes, renderContent } from "./results.js";

/** Characters of one attached resource, and of all of a message's attachments, the model is given (MCP-9). */
export const ATTACHMENT_LIMITS = { perResource: 20_000, total: 60_000 };

const attr = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
/** Keeps a resource's text from closing its own block early. */
const guard = (text: string) => text.replace(/<\/(mcp_resource|mcp_prompt)/gi, "<\\/$1");

/** A blob as a short placeholder: its payload never enters the model's context (as for tool results, MCP-6). */
function placeholder(c: McpResourceContent): string {
  const kind = c.mimeType?.startsWith("image/") ? "image" : c.mimeType?.startsWith("audio/") ? "audio" : "blob";
  return `[${kind}: ${[c.mimeType, formatBytes(c.size)].filter(Boolean).join(", ")}]`;
}

/** read_mcp_resource's text for the model: text contents joined, blobs as placeholders, cut text marked. */
export function renderRead(result: McpReadResult): string {
  const parts = result.contents.map((c) => {
    if (c.kind === "blob") return placeholder(c);
    const head = result.contents.length > 1 ? `(${c.uri}${c.mimeType ? `, ${c.mimeType}` : ""})\n` : "";
    return `${head}${c.text ?? ""}${c.truncated ? `\n(cut: the resource has ${formatBytes(c.size)})` : ""}`;
  });
  return parts.join("\n") || "(the resource is empty)";
}

/** One attached resource as a delimited block, its text cut at `maxChars`. */
export function attachmentBlock(result: McpReadResult, maxChars: number): string {
  let text = renderRead(result);
  if (text.length > maxChars) text = `${text.slice(0, maxChars)}\n(cut at ${maxChars.toLocaleString("en-US")} characters)`;
  const mime = result.contents[0]?.mimeType;
  return `<mcp_resource server="${attr(result.server)}" uri="${attr(result.uri)}"${mime ? ` mimeType="${attr(mime)}"` : ""}>\n${guard(text)}\n</mcp_resource>`;
}

/** The blocks of a message's attachments, in order, within the total budget (later ones cut to what is left). */
export function attachmentsText(results: McpReadResult[], limits = ATTACHMENT_LIMITS): string {
  let left = limits.total;
  const blocks = results.map((r) => {
    const block = attachmentBlock(r, Math.max(200, Math.min(limits.perResource, left)));
    left -= block.length;
    return block;
  });
  const what = results.length === 1 ? "this MCP resource" : `these ${results.length} MCP resources`;
  return `<mcp_resources>\nThe user attached ${what} to the message above as context.\n${blocks.join("\n")}\n</mcp_resources>`;
}

/** One prompt content block for a user turn: text as is, an embedded resource as a block, anything else as a placeholder. */
function promptBlock(server: string, block: unknown): string {
  const b = block as { type?: unknown; text?: unknown; resource?: { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown } };
  // Each piece of server text is guarded on its own, so the blocks built here stay whole.
  if (b?.type === "text" && typeof b.text === "string") return guard(b.text);
  if (b?.type === "resource" && b.resource && typeof b.resource.uri === "string" && typeof b.resource.text === "string") {
    const mime = typeof b.resource.mimeType === "string" ? b.resource.mimeType : null;
    const text = b.resource.text.length > ATTACHMENT_LIMITS.perResource ? `${b.resource.text.slice(0, ATTACHMENT_LIMITS.perResource)}\n(cut)` : b.resource.text;
    return `<mcp_resource server="${attr(server)}" uri="${attr(b.resource.uri)}"${mime ? ` mimeType="${attr(mime)}"` : ""}>\n${guard(text)}\n</mcp_resource>`;
  }
  return guard(renderContent([block]));
}

/** Each message of a prompt as plain text (for the timeline and the model). */
export function promptMessagesText(result: McpPromptResult): { role: "user" | "assistant"; text: string }[] {
  return result.messages.map((m) => ({ role: m.role, text: promptBlock(result.server, m.content) }));
}

/** The user turn a prompt becomes: marked as coming from the prompt, its messages in order. */
export function promptTurnText(result: McpPromptResult, args: Record<string, string>): string {
  const shown = Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ");
  const messages = promptMessagesText(result);
  const single = messages.length === 1 && messages[0]!.role === "user";
  const body = single ? messages[0]!.text : messages.map((m) => `[${m.role}]\n${m.text}`).join("\n\n");
  return `The user ran the prompt "${attr(result.prompt)}" of the MCP server "${attr(result.server)}"${shown ? ` with ${shown}` : ""}. Treat what follows as the user's message.\n<mcp_prompt server="${attr(result.server)}" prompt="${attr(result.prompt)}">\n${body}\n</mcp_prompt>`;
}
