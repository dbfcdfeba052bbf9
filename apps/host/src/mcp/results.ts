import type { ToolResult } from "../agent/tool.js";
import type { Validator } from "./schema.js";

/**
 * What a call returns for programs and the UI (MCP-6): every content block exactly as received, the
 * structured content and whether it matched the advertised output schema.
 */
export interface McpCanonicalResult {
  type: "mcp";
  server: string;
  /** The raw tool name on the wire. */
  tool: string;
  content: unknown[];
  structuredContent: Record<string, unknown> | null;
  /** `valid`/`invalid` against the output schema; `unvalidated` when none or unsupported; `absent` when none was sent. */
  structured: "valid" | "invalid" | "unvalidated" | "absent";
  isError: boolean;
  _meta?: Record<string, unknown>;
}

export interface ResultContext {
  server: string;
  rawName: string;
  /** The tool advertised an output schema. */
  hasOutputSchema: boolean;
  /** Its compiled validator, or null when the schema is unsupported. */
  validateOutput: Validator | null;
}

const MAX_ERROR_MESSAGE = 2_000;

/** Turns a tools/call result from the wire into a ToolResult: canonical JSON plus the lossy model rendering. */
export function toToolResult(wire: unknown, ctx: ResultContext): ToolResult {
  // Hand-written checks, not zod: this runs on every call (see bench/mcp-echo.bench.ts).
  if (!isWireResult(wire)) {
    const message = `${ctx.rawName} returned a result that is not a valid MCP tool result.`;
    return { canonical: { type: "mcp", server: ctx.server, tool: ctx.rawName, invalid: wire ?? null }, rendered: `Error [mcp_invalid_result]: ${message}`, error: { code: "mcp_invalid_result", message } };
  }
  const r = wire;
  const content = r.content ?? [];
  const isError = r.isError === true;
  const structuredContent = isPlainObject(r.structuredContent) ? r.structuredContent : null;

  const canonical: McpCanonicalResult = {
    type: "mcp",
    server: ctx.server,
    tool: ctx.rawName,
    content,
    structuredContent,
    structured: structuredContent ? "unvalidated" : "absent",
    isError,
    ...(r._meta ? { _meta: r._meta } : {}),
  };
  let text = renderContent(content);
  if (!text && structuredContent) text = JSON.stringify(structuredContent);

  if (isError) {
    const message = (text || `${ctx.rawName} reported an error without a message.`).slice(0, MAX_ERROR_MESSAGE);
    return { canonical, rendered: `Error [mcp_tool_error]: ${text || message}`, error: { code: "mcp_tool_error", message } };
  }
  const invalid = checkStructured(r.structuredContent, structuredContent, ctx, canonical);
  if (invalid) return { canonical, rendered: `Error [mcp_output_invalid]: ${invalid}`, error: { code: "mcp_output_invalid", message: invalid } };
  return { canonical, rendered: text || "(the tool returned no content)" };
}

/** Sets `canonical.structured`; returns why the output breaks the tool's contract, if it does. */
function checkStructured(sent: unknown, structured: Record<string, unknown> | null, ctx: ResultContext, canonical: McpCanonicalResult): string | undefined {
  if (sent !== undefined && !structured) {
    canonical.structured = "invalid";
    return `${ctx.rawName} returned structuredContent that is not a JSON object.`;
  }
  if (!ctx.hasOutputSchema) return undefined;
  if (!structured) {
    canonical.structured = "absent";
    return `${ctx.rawName} advertises an output schema but returned no structuredContent.`;
  }
  if (!ctx.validateOutput) return undefined;
  const problem = ctx.validateOutput(structured);
  canonical.structured = problem ? "invalid" : "valid";
  return problem ? `${ctx.rawName} returned structuredContent that does not match its output schema: ${problem}` : undefined;
}

/** Text blocks joined by newlines; everything else as a short placeholder (MCP-6). */
export function renderContent(blocks: unknown[]): string {
  return blocks.map(renderBlock).join("\n");
}

function renderBlock(block: unknown): string {
  if (!isPlainObject(block)) return "[invalid content block]";
  const b = block;
  switch (b.type) {
    case "text":
      if (isString(b.text)) return b.text;
      break;
    case "image":
    case "audio":
      if (isString(b.data) && isString(b.mimeType)) return `[${b.type}: ${b.mimeType}, ${formatBytes(base64Bytes(b.data))}]`;
      break;
    case "resource": {
      const r = b.resource;
      if (!isPlainObject(r) || !isString(r.uri) || !optionalString(r.mimeType)) break;
      const size = isString(r.text) ? Buffer.byteLength(r.text) : isString(r.blob) ? base64Bytes(r.blob) : undefined;
      if (size === undefined) break;
      return `[resource: ${r.uri} (${[r.mimeType, formatBytes(size)].filter(Boolean).join(", ")})]`;
    }
    case "resource_link":
      if (isString(b.uri) && isString(b.name) && optionalString(b.mimeType)) return `[resource link: ${b.name}, ${b.uri}${b.mimeType ? ` (${b.mimeType})` : ""}]`;
      break;
  }
  return isString(b.type) ? `[${b.type.slice(0, 40)} content]` : "[invalid content block]";
}

interface WireResult { content?: unknown[]; structuredContent?: unknown; isError?: boolean; _meta?: Record<string, unknown> }

function isWireResult(v: unknown): v is WireResult {
  return isPlainObject(v)
    && (v.content === undefined || Array.isArray(v.content))
    && (v.isError === undefined || typeof v.isError === "boolean")
    && (v._meta === undefined || isPlainObject(v._meta));
}

const isString = (v: unknown): v is string => typeof v === "string";
const optionalString = (v: unknown): v is string | undefined => v === undefined || typeof v === "string";

/** Decoded size of a base64 string, without decoding it. */
export function base64Bytes(data: string): number {
  const trimmed = data.replace(/\s+/g, "");
  const padding = trimmed.endsWith("==") ? 2 : trimmed.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((trimmed.length * 3) / 4) - padding);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
