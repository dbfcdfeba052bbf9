import { z } from "zod";
import { FieldIssue } from "./issues.js";
import { McpApproval, McpServerConfig, McpServerName } from "./mcp.js";
import { importSizeError, McpProbeFailure, McpProbeId } from "./mcp-probe.js";

/** One configured server, by name (router inputs). */
export const McpServerRef = z.object({ name: McpServerName });
export type McpServerRef = z.infer<typeof McpServerRef>;

/** Replaces the config of server `name`; `config.name` may differ (a rename). */
export const McpUpdateInput = z.object({ name: McpServerName, config: McpServerConfig, force: z.boolean().optional(), probeId: McpProbeId.optional() });
export type McpUpdateInput = z.input<typeof McpUpdateInput>;

export const McpSetEnabledInput = z.object({ name: McpServerName, enabled: z.boolean() });
export type McpSetEnabledInput = z.infer<typeof McpSetEnabledInput>;

/** One tool's policy (MCP-8), by raw name: given to the model or not, and its approval (`inherit` = the server's default). */
export const McpSetToolInput = z.object({
  name: McpServerName,
  tool: z.string().min(1, "Name the tool").max(1_024),
  enabled: z.boolean().optional(),
  approval: z.enum(["inherit", "auto", "ask"]).optional(),
}).refine((v) => v.enabled !== undefined || v.approval !== undefined, "Give enabled or approval");
export type McpSetToolInput = z.infer<typeof McpSetToolInput>;

/** A server's default approval for its tools (MCP-8). */
export const McpSetApprovalInput = z.object({ name: McpServerName, approval: McpApproval });
export type McpSetApprovalInput = z.infer<typeof McpSetApprovalInput>;

/**
 * Largest pasted text the host reads at all (the HTTP body limit is sized for it): anything up to it is
 * answered with a sentence that says its size (MCP_IMPORT_MAX_BYTES is the import limit), not a bare 413.
 */
export const MCP_IMPORT_MAX_CHARS = 1_000_000;

/** The whole import document as text: a sentence for an empty or oversized paste (path-less, so it reads alone). */
const importText = (v: { json: string }, ctx: z.RefinementCtx) => {
  if (v.json.trim() === "") ctx.addIssue({ code: "custom", message: "Paste a JSON config or choose a file.", path: [] });
  const size = importSizeError(v.json);
  if (size) ctx.addIssue({ code: "custom", message: size, path: [] });
};
/** Bounded by `importText` (MCP_IMPORT_MAX_BYTES, one sentence), and by the body limit before that. */
const ImportJson = z.string();

/** A pasted or uploaded `{"mcpServers": {...}}` document (Claude Desktop, Cursor, Cline; comments allowed), at most MCP_IMPORT_MAX_BYTES. */
export const McpImportInput = z.object({ json: ImportJson }).superRefine(importText);
export type McpImportInput = z.infer<typeof McpImportInput>;

/**
 * Applies the entries named in `names` (all applicable entries when absent). Each added server, and each
 * update that changes how Seam reaches the server, is tried first (MCP-10); the servers named in `force`
 * are saved without the try ("save anyway").
 */
export const McpImportApplyInput = z.object({
  json: ImportJson,
  names: z.array(z.string().max(200)).max(500).optional(),
  force: z.array(z.string().max(200)).max(500).optional(),
}).superRefine(importText);
export type McpImportApplyInput = z.infer<typeof McpImportApplyInput>;

/** A problem with one field; `path` is dotted and relative to the entry (`env.GITHUB_TOKEN`, `url`). */
export const McpFieldIssue = FieldIssue;
export type McpFieldIssue = z.infer<typeof McpFieldIssue>;

/** What applying an entry would do, compared with the saved configs. */
export const McpImportAction = z.enum(["add", "update", "unchanged", "invalid"]);
export type McpImportAction = z.infer<typeof McpImportAction>;

export const McpImportEntry = z.object({
  name: z.string(),
  action: McpImportAction,
  /** The config that would be saved; null when invalid. Holds secrets only as env references. */
  config: McpServerConfig.nullable(),
  /** For `update`: the fields that differ from the saved config (`args`, `env`, `enabled`…). */
  changes: z.array(z.string()),
  /** Things the user should know (a pasted secret replaced by an env reference, an ignored key…). */
  warnings: z.array(z.string()),
  errors: z.array(McpFieldIssue),
});
export type McpImportEntry = z.infer<typeof McpImportEntry>;

export const McpImportPreview = z.object({
  /** Where the servers were found: `mcpServers` (Claude Desktop, Cursor, Cline), `servers` (VS Code) or a bare name → server map. */
  format: z.enum(["mcpServers", "servers", "bare"]),
  entries: z.array(McpImportEntry),
  /** Document-level notes (ignored top-level keys, duplicate keys). */
  warnings: z.array(z.string()),
});
export type McpImportPreview = z.infer<typeof McpImportPreview>;

export const McpImportResult = z.object({
  applied: z.array(z.object({ name: z.string(), action: z.enum(["add", "update"]) })),
  /** Selected entries that were not applied because there was nothing to do or they are invalid. */
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  /** Entries the host refused (startup failure with failOnStartupError, a conflict…); nothing of them was saved. */
  failed: z.array(z.object({ name: z.string(), message: z.string(), /** Set when the try before saving failed (MCP-10): "save anyway" is offered. */ probe: McpProbeFailure.optional() })),
});
export type McpImportResult = z.infer<typeof McpImportResult>;

/** The saved configs as `{"mcpServers": {...}}` text, with notes on what the reader must provide. */
export const McpExport = z.object({ json: z.string(), notes: z.array(z.string()) });
export type McpExport = z.infer<typeof McpExport>;
