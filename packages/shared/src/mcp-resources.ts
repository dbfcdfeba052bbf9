import { z } from "zod";
import { boundedJsonObject } from "./limits.js";
import { McpServerName } from "./mcp.js";

/*
 * MCP resources and prompts (MCP-9): what the server page browses, what a message carries as an
 * attachment, and the prompt commands of the composer. Inputs are validated here; outputs are Seam's
 * own shapes (the host maps the wire results into them).
 */

/** A resource URI as servers send them (any scheme); bounded so a bad input cannot grow the request. */
export const McpResourceUri = z.string().trim().min(1, "Enter a resource URI").max(4096, "A resource URI may have at most 4,096 characters");

/** A list cursor exactly as the server sent it (opaque). */
export const McpCursor = z.string().min(1).max(4096);

export const McpResourcesInput = z.object({ name: McpServerName, cursor: McpCursor.optional() });
export type McpResourcesInput = z.infer<typeof McpResourcesInput>;

export const McpReadResourceInput = z.object({ name: McpServerName, uri: McpResourceUri });
export type McpReadResourceInput = z.infer<typeof McpReadResourceInput>;

/** Prompt argument values are strings on the wire (MCP `prompts/get`). */
export const McpPromptArguments = z.record(z.string().min(1).max(200), z.string().max(20_000)).superRefine((r, ctx) => {
  if (Object.keys(r).length > 50) ctx.addIssue({ code: "custom", message: "At most 50 prompt arguments" });
});

export const McpGetPromptInput = z.object({ name: McpServerName, prompt: z.string().min(1).max(500), arguments: McpPromptArguments.default({}) });
export type McpGetPromptInput = z.input<typeof McpGetPromptInput>;

/** The user calling one tool from the server page (raw tool name), enabled for the model or not. */
export const McpTryToolInput = z.object({ name: McpServerName, tool: z.string().min(1).max(500), args: boundedJsonObject({ maxChars: 200_000 }) });
export type McpTryToolInput = z.infer<typeof McpTryToolInput>;

export interface McpResourceInfo {
  uri: string;
  name: string;
  title: string | null;
  description: string | null;
  mimeType: string | null;
  /** Bytes, when the server says. */
  size: number | null;
}

export interface McpResourcesPage {
  resources: McpResourceInfo[];
  /** Pass it back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface McpResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  title: string | null;
  description: string | null;
  mimeType: string | null;
  /** The `{variables}` of the URI template, in order (RFC 6570 operators stripped). */
  variables: string[];
}

/** One content item of a read resource: text, or a blob as base64 (left out past the size cap). */
export interface McpResourceContent {
  uri: string;
  mimeType: string | null;
  kind: "text" | "blob";
  /** The text (kind text), cut at the cap when `truncated`. */
  text: string | null;
  /** The base64 payload (kind blob); null when it was over the cap. */
  blob: string | null;
  /** Bytes of the whole content as the server sent it (UTF-8 text, decoded blob). */
  size: number;
  truncated: boolean;
}

export interface McpReadResult {
  server: string;
  uri: string;
  contents: McpResourceContent[];
}

export interface McpPromptArgumentInfo { name: string; description: string | null; required: boolean }

export interface McpPromptInfo {
  name: string;
  title: string | null;
  description: string | null;
  arguments: McpPromptArgumentInfo[];
}

/** A prompt's messages, each content block rendered for a user turn (text; resources and images as blocks). */
export interface McpPromptMessage {
  role: "user" | "assistant";
  /** The content block as received (text, image, audio, resource, resource_link). */
  content: unknown;
}

export interface McpPromptResult {
  server: string;
  prompt: string;
  description: string | null;
  messages: McpPromptMessage[];
}

/** A ready server's prompt as a composer command: `/mcp__<server>__<prompt>`. */
export interface McpPromptCommand {
  command: string;
  server: string;
  prompt: McpPromptInfo;
}

/** A resource attached to a user message (read by the host when the message is sent). */
export const McpResourceAttachment = z.object({ server: McpServerName, uri: McpResourceUri });
export type McpResourceAttachment = z.infer<typeof McpResourceAttachment>;

/** At most this many resources on one message. */
export const MCP_ATTACHMENTS_MAX = 8;
export const McpResourceAttachments = z.array(McpResourceAttachment).max(MCP_ATTACHMENTS_MAX, `At most ${MCP_ATTACHMENTS_MAX} resources can be attached to one message`);

/** The fact that carries a message's attached resources to the model (its text) and the timeline (its payload). */
export const MCP_RESOURCES_FACT = "mcp_resources";
export const McpResourcesFactPayload = z.object({
  attachments: z.array(z.object({
    server: z.string(), uri: z.string(), mimeType: z.string().nullable(), size: z.number(), truncated: z.boolean(), kind: z.enum(["text", "blob"]),
  })),
});
export type McpResourcesFactPayload = z.infer<typeof McpResourcesFactPayload>;

/** The fact that carries an MCP prompt's messages as the user's turn (MCP-9, slash commands). */
export const MCP_PROMPT_FACT = "mcp_prompt";
export const McpPromptFactPayload = z.object({
  server: z.string(),
  prompt: z.string(),
  arguments: z.record(z.string(), z.string()),
  messages: z.array(z.object({ role: z.enum(["user", "assistant"]), text: z.string() })),
});
export type McpPromptFactPayload = z.infer<typeof McpPromptFactPayload>;

/** `/mcp__server__prompt a=1 b="two words"` → arguments; null when the text is not `key=value` pairs. */
export function parsePromptArguments(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  const re = /\s*([A-Za-z0-9_.-]+)=(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S*))/y;
  let rest = text.trim();
  while (rest.length > 0) {
    re.lastIndex = 0;
    const m = re.exec(rest);
    if (!m) return null;
    out[m[1]!] = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : (m[3] ?? m[4] ?? "");
    rest = rest.slice(m[0].length).trimStart();
  }
  return out;
}

/** Formats arguments back into the command line form (quoted when needed). */
export function formatPromptArguments(args: Record<string, string>): string {
  return Object.entries(args)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => (/^[^\s"'\\]+$/.test(v) ? `${k}=${v}` : `${k}="${v.replace(/["\\]/g, "\\$&")}"`))
    .join(" ");
}

/** The `{var}` names of an RFC 6570 URI template (`{+path}`, `{?a,b}` → path, a, b). */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const m of template.matchAll(/\{([+#./;?&]?)([^}]*)\}/g)) {
    for (const part of m[2]!.split(",")) {
      const name = part.replace(/[*]$/, "").replace(/:\d+$/, "").trim();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** Expands a URI template with simple string expansion (each value percent-encoded, `{+x}` reserved kept). */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^}]*)\}/g, (_all, op: string, body: string) => {
    const names = body.split(",").map((p) => p.replace(/[*]$/, "").replace(/:\d+$/, "").trim()).filter(Boolean);
    const enc = (v: string) => (op === "+" || op === "#" ? encodeURI(v) : encodeURIComponent(v));
    const present = names.filter((n) => values[n] !== undefined && values[n] !== "");
    if (present.length === 0) return "";
    switch (op) {
      case "?": case "&": return (op) + present.map((n) => `${n}=${enc(values[n]!)}`).join("&");
      case "/": return present.map((n) => `/${enc(values[n]!)}`).join("");
      case ".": return present.map((n) => `.${enc(values[n]!)}`).join("");
      case ";": return present.map((n) => `;${n}=${enc(values[n]!)}`).join("");
      case "#": return `#${present.map((n) => enc(values[n]!)).join(",")}`;
      default: return present.map((n) => enc(values[n]!)).join(",");
    }
  });
}
