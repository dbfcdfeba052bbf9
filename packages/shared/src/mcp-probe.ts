import { z } from "zod";
import { McpServerConfig, McpServerView } from "./mcp.js";

/*
 * Trying a server before saving it (MCP-10): a throwaway connection spawns or connects, initializes and
 * lists the tools; only then is the config saved. `force` ("save anyway") saves without the try.
 */

/** The step a try is at, or failed at. */
export const McpProbeStep = z.enum(["starting", "initializing", "listing_tools"]);
export type McpProbeStep = z.infer<typeof McpProbeStep>;

/** The step in words, for progress ("Starting…") and errors ("while starting"). */
export const MCP_PROBE_STEP_LABEL: Record<McpProbeStep, string> = {
  starting: "Starting…",
  initializing: "Initializing…",
  listing_tools: "Listing tools…",
};

/** Why a try failed, for code (the message says it in words). */
export const McpProbeReason = z.enum([
  "command_not_found", "bad_cwd", "exited", "missing_env", "connection_refused", "host_not_found", "unauthorized", "forbidden",
  "http_error", "timeout", "initialize_failed", "tools_list_failed", "failed",
]);
export type McpProbeReason = z.infer<typeof McpProbeReason>;

/** What a successful try saw. */
export const McpProbeSeen = z.object({
  serverInfo: z.object({ name: z.string(), version: z.string() }).nullable(),
  protocolVersion: z.string().nullable(),
  toolCount: z.number().int(),
  /** The server asks for OAuth (401): saved, it waits for a sign-in on its Authorization tab (MCP-11). */
  needsAuthorization: z.boolean().optional(),
});
export type McpProbeSeen = z.infer<typeof McpProbeSeen>;

/** What a failed try says: the step, why (in words, with what to do) and the end of a stdio server's stderr. */
export const McpProbeFailure = z.object({
  step: McpProbeStep,
  reason: McpProbeReason,
  message: z.string(),
  stderrTail: z.string(),
});
export type McpProbeFailure = z.infer<typeof McpProbeFailure>;

/** A client-chosen id that names one try, so its progress can be polled while the save runs. */
export const McpProbeId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "A probe id is 8–64 letters, digits, '-' or '_'");

/** Progress of one try, by id (polled while saving). */
export const McpProbeStatus = z.object({
  id: z.string(),
  server: z.string(),
  state: z.enum(["running", "succeeded", "failed"]),
  step: McpProbeStep,
  seen: McpProbeSeen.nullable(),
  failure: McpProbeFailure.nullable(),
});
export type McpProbeStatus = z.infer<typeof McpProbeStatus>;

export const McpProbeRef = z.object({ probeId: McpProbeId });
export type McpProbeRef = z.infer<typeof McpProbeRef>;

/** How a save treats the try: `force` saves even though it fails ("save anyway"); `probeId` names it for progress. */
export const McpSaveOptions = z.object({ force: z.boolean().optional(), probeId: McpProbeId.optional() });
export type McpSaveOptions = z.infer<typeof McpSaveOptions>;

/** `mcp.add`'s input: the config plus the save options (flat, so a bare config is still a valid input). */
export const McpAddInput = McpServerConfig.extend(McpSaveOptions.shape);
export type McpAddInput = z.input<typeof McpAddInput>;

// ---------------------------------------------------------------------------------------------
// Import size: checked before anything is parsed.

/** The largest import document, in UTF-8 bytes (MCP-10). */
export const MCP_IMPORT_MAX_BYTES = 256 * 1024;

/** `812 bytes`, `3.4 KB`, `256 KB`, `1.2 MB` (1 KB = 1024 bytes). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? "" : "s"}`;
  const [n, unit] = bytes < 1024 * 1024 ? [bytes / 1024, "KB"] : [bytes / (1024 * 1024), "MB"];
  return `${n < 10 && !Number.isInteger(n) ? n.toFixed(1) : Math.round(n)} ${unit}`;
}

/** UTF-8 size of `text`. */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    // A surrogate pair is one 4-byte character; a lone surrogate is encoded as U+FFFD (3 bytes).
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

/** A sentence when `text` is over MCP_IMPORT_MAX_BYTES (saying both sizes), else null. Cheap for short text. */
export function importSizeError(text: string): string | null {
  // A character is 1–3 UTF-8 bytes: short text needs no encoding.
  if (text.length * 3 <= MCP_IMPORT_MAX_BYTES) return null;
  const bytes = utf8Bytes(text);
  if (bytes <= MCP_IMPORT_MAX_BYTES) return null;
  return `The pasted config is ${formatSize(bytes)}; Seam imports at most ${formatSize(MCP_IMPORT_MAX_BYTES)} at a time. ` +
    "Paste only the mcpServers block, or import the servers in parts.";
}

/** What `mcp.add` / `mcp.update` answer: the saved server's view and what the try saw (null when nothing was tried). */
export const McpSaveResult = McpServerView.extend({ probe: McpProbeSeen.nullable() });
export type McpSaveResult = z.infer<typeof McpSaveResult>;
