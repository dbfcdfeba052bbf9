import { z } from "zod";
import { formatIssues, type ErrorInfo, type ToolEffect } from "@seam/shared";

export type JsonSchema = Record<string, unknown>;

export interface ToolContext {
  /** Aborted on stop, timeout or session dispose. */
  signal: AbortSignal;
  sessionId: string;
  /** Canonical absolute workspace directory of the calling session. */
  workspace: string;
  callId: string;
  /** Live output for the tool card (e.g. a command's stdout/stderr as it arrives); not what the model sees. */
  output?(chunk: string): void;
  /** Progress of the call for its card (e.g. MCP `notifications/progress`); with `maxTimeoutMs` it also restarts the deadline. */
  progress?(update: { progress: number; total: number | null; message: string | null }): void;
  /** Stops the deadline while the call waits for a person (e.g. an MCP elicitation form); call the result to resume it. */
  pauseDeadline?(): () => void;
}

/** What a tool returns: the canonical JSON for programs and the UI, and the text the model sees. */
export interface ToolResult {
  canonical: unknown;
  rendered: string;
  /** A tool-reported failure (e.g. MCP `isError`): recorded as a failed call, still shown to the model. */
  error?: ErrorInfo;
}

/** What an approval card shows before the call runs (PERM-3); computed from validated arguments, nothing changed. */
export interface CallPreview {
  /** One line: "Run `npm test` in ~/app", "Edit src/a.ts (+3 −1)". */
  summary: string;
  command?: { text: string; cwd: string };
  diff?: { path: string; patch: string; added: number; removed: number };
}

export type ParseResult = { ok: true; value: unknown } | { ok: false; message: string };

/** A model-facing tool (CORE-11). */
export interface ToolDef {
  name: string;
  description: string;
  /** Which capability owns it ("workspace", "web", "mcp", …). */
  capability: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** Extra prompt guidance, appended to the description the model sees. */
  guidance?: string;
  timeoutMs?: number;
  /** Set: each progress report restarts the `timeoutMs` deadline, up to this total run time (time waiting for a person excluded). */
  maxTimeoutMs?: number;
  /** Cap on the rendered text the model sees, when the tool needs another than the runtime's default. */
  maxRenderedChars?: number;
  /** What running it does to the world (PERM-1); decides whether the session's mode lets it run or asks. */
  effect: ToolEffect;
  /**
   * `ask`: its owner's setting asks a person before every call (MCP-8), whatever the mode's default; deny rules
   * and plan mode still refuse it, and an allow rule (the card's "Always allow") lets it run. Absent: the mode decides.
   */
  approval?: "ask";
  /** May be left out of the model's request behind `tool_search` when the tools pass the budget (CTX-3; MCP tools are). */
  deferrable?: boolean;
  /** Where the tool comes from, as `tool_search` names it (e.g. the MCP server's name). */
  source?: string;
  /** Validates model-supplied arguments; the message is shown to the model. */
  parse(args: unknown): ParseResult;
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** The approval card's content; a throw is the error the call would fail with, so nobody is asked about it. */
  preview?(args: unknown, ctx: ToolContext): Promise<CallPreview>;
}

/** Defines a tool from a zod schema: JSON schema for the model, zod for validation. */
export function defineTool<S extends z.ZodType>(def: {
  name: string;
  description: string;
  capability: string;
  input: S;
  guidance?: string;
  timeoutMs?: number;
  maxRenderedChars?: number;
  /** Default `read`. */
  effect?: ToolEffect;
  deferrable?: boolean;
  source?: string;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
  preview?(args: z.output<S>, ctx: ToolContext): Promise<CallPreview>;
}): ToolDef {
  const inputSchema = z.toJSONSchema(def.input, { io: "input" }) as JsonSchema;
  delete inputSchema.$schema;
  return {
    name: def.name,
    description: def.description,
    capability: def.capability,
    inputSchema,
    guidance: def.guidance,
    timeoutMs: def.timeoutMs,
    maxRenderedChars: def.maxRenderedChars,
    effect: def.effect ?? "read",
    ...(def.deferrable ? { deferrable: true } : {}),
    ...(def.source ? { source: def.source } : {}),
    parse(args) {
      const r = def.input.safeParse(args);
      return r.success ? { ok: true, value: r.data } : { ok: false, message: formatIssues(r.error, { root: "(arguments)" }) };
    },
    run: (args, ctx) => def.run(args as z.output<S>, ctx),
    ...(def.preview ? { preview: (args: unknown, ctx: ToolContext) => def.preview!(args as z.output<S>, ctx) } : {}),
  };
}
