import { z } from "zod";
import { McpServerName } from "./mcp.js";

/* The MCP client surface (MCP-12, MCP-13): elicitation requests, server logs and tool-call progress as the UI sees them. */

/** What an elicitation card shows: a form built from `requestedSchema`, or a URL to open (live topic `elicitations`). */
export const McpElicitationView = z.object({
  id: z.string(),
  kind: z.literal("mcp_elicitation"),
  sessionId: z.string(),
  /** The tool call this request belongs to (its card shows the request inline); null when none could be told. */
  callId: z.string().nullable(),
  server: z.string(),
  /** The public name of that tool call's tool. */
  tool: z.string().nullable(),
  mode: z.enum(["form", "url"]),
  message: z.string(),
  /** Form mode: the flat object schema the server asks for (string/number/integer/boolean/enum properties). */
  requestedSchema: z.record(z.string(), z.unknown()).nullable(),
  /** URL mode: where to go, and the server's id for it. */
  url: z.string().nullable(),
  elicitationId: z.string().nullable(),
  requestedAt: z.string(),
});
export type McpElicitationView = z.infer<typeof McpElicitationView>;

const ElicitAnswerValue = z.union([z.string().max(100_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(1_000)]);

/** Accept (form: the field values, defaults are applied and checked by the host), decline or cancel. */
export const McpElicitationAnswer = z.discriminatedUnion("action", [
  z.strictObject({
    id: z.string().min(1).max(100),
    action: z.literal("accept"),
    content: z.record(z.string().max(200), ElicitAnswerValue).superRefine((c, ctx) => {
      if (Object.keys(c).length > 200) ctx.addIssue({ code: "custom", message: "At most 200 fields" });
    }).default({}),
  }),
  z.strictObject({ id: z.string().min(1).max(100), action: z.literal("decline") }),
  z.strictObject({ id: z.string().min(1).max(100), action: z.literal("cancel") }),
]);
export type McpElicitationAnswer = z.input<typeof McpElicitationAnswer>;

/** RFC 5424 severities, as MCP `logging/setLevel` and `notifications/message` name them, least severe first. */
export const MCP_LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export const McpLogLevel = z.enum(MCP_LOG_LEVELS);
export type McpLogLevel = z.infer<typeof McpLogLevel>;

/** Most log entries kept per server (a ring: the oldest go first); cleared when the server restarts. */
export const MCP_LOG_RING = 500;

export const McpLogEntry = z.object({
  /** Increases by one per entry of this server since it started. */
  seq: z.number().int(),
  time: z.string(),
  level: McpLogLevel,
  logger: z.string().nullable(),
  /** The message's `data` as text (JSON for anything but a string), at most 8 KiB. */
  text: z.string(),
});
export type McpLogEntry = z.infer<typeof McpLogEntry>;

export const McpLogsInput = z.strictObject({ name: McpServerName, minLevel: McpLogLevel.default("debug") });
export type McpLogsInput = z.input<typeof McpLogsInput>;

/** `mcp.setLogLevel`: the least severe level the server is asked to send (`logging/setLevel`); kept for reconnects until it restarts. */
export const McpSetLogLevelInput = z.strictObject({ name: McpServerName, level: McpLogLevel });
export type McpSetLogLevelInput = z.infer<typeof McpSetLogLevelInput>;

/** `mcp.logs`: what the server's ring holds at or above `minLevel`, oldest first, and the level asked of the server. */
export const McpLogs = z.object({ server: z.string(), level: McpLogLevel.nullable(), supported: z.boolean(), entries: z.array(McpLogEntry) });
export type McpLogs = z.infer<typeof McpLogs>;

/** Live topic `mcpLogs`: a new entry of one server, or its ring emptied (the server restarted). */
export type McpLogEvent = { server: string; entry: McpLogEntry } | { server: string; cleared: true };

/** A running tool call's progress (`notifications/progress`), for its card; `total` null = indeterminate. */
export const ToolProgress = z.object({ progress: z.number(), total: z.number().nullable(), message: z.string().nullable() });
export type ToolProgress = z.infer<typeof ToolProgress>;
