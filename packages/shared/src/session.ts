import { z } from "zod";
import type { ContextUsage } from "./context.js";
import { ErrorInfo } from "./errors.js";
import { boundedJsonObject, SESSION_TEXT_MAX } from "./limits.js";
import { McpResourceAttachments } from "./mcp-resources.js";

export const SessionId = z.string().min(1).max(64);

export const SessionCreateInput = z.object({
  title: z.string().trim().max(200).optional(),
  /** Absolute path of an existing directory on the host machine. */
  workspace: z.string().trim().min(1, "Choose a workspace folder").max(4096),
});
export type SessionCreateInput = z.infer<typeof SessionCreateInput>;

export const SessionRenameInput = z.object({ id: SessionId, title: z.string().trim().min(1).max(200) });
export const SessionRef = z.object({ id: SessionId });

export const SessionSendInput = z.object({
  sessionId: SessionId,
  text: z.string().min(1, "Message is empty").max(SESSION_TEXT_MAX, `A message may have at most ${SESSION_TEXT_MAX.toLocaleString("en-US")} characters`),
  /** MCP resources the host reads and gives the model with this message (MCP-9). */
  attachments: McpResourceAttachments.optional(),
});
export type SessionSendInput = z.infer<typeof SessionSendInput>;

export const SessionCallToolInput = z.object({
  sessionId: SessionId,
  name: z.string().min(1).max(200),
  /** Held to the send limit as JSON text: a call is stored as its `/call` text as well as its arguments. */
  args: boundedJsonObject({ maxChars: SESSION_TEXT_MAX }),
});
export type SessionCallToolInput = z.infer<typeof SessionCallToolInput>;

export const TurnStatus = z.enum(["running", "completed", "stopped", "failed", "interrupted"]);
export type TurnStatus = z.infer<typeof TurnStatus>;

export const SessionInfo = z.object({
  id: z.string(),
  title: z.string(),
  workspace: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  running: z.boolean(),
  /** The session's own permission mode, or null to follow the default (PERM-1). */
  mode: z.enum(["plan", "ask", "auto-edit", "auto"]).nullable(),
  /** How many approval requests of this session wait for a person (PERM-3). */
  waiting: z.number().int(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const TurnInfo = z.object({
  id: z.string(),
  sessionId: z.string(),
  status: TurnStatus,
  steps: z.number().int(),
  /** Why the turn ended when it did not complete normally. */
  reason: z.string().nullable(),
  mode: z.enum(["model", "direct"]),
  /** Token usage summed over the turn's model steps, when the provider reported it. */
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
});
export type TurnInfo = z.infer<typeof TurnInfo>;

export const ToolCallStatus = z.enum(["running", "ok", "error", "cancelled"]);
export type ToolCallStatus = z.infer<typeof ToolCallStatus>;

const ItemBase = z.object({ id: z.string(), seq: z.number().int(), turnId: z.string().nullable(), createdAt: z.string() });

export const MessageItem = ItemBase.extend({
  kind: z.literal("message"),
  role: z.enum(["user", "assistant"]),
  text: z.string(),
  /** `streaming` only while a turn writes it; `interrupted` if the turn ended mid-stream. */
  state: z.enum(["streaming", "complete", "interrupted"]),
});
export type MessageItem = z.infer<typeof MessageItem>;

export const ToolCallItem = ItemBase.extend({
  kind: z.literal("tool_call"),
  callId: z.string(),
  name: z.string(),
  /** Any JSON value. JSON drops an undefined value with its key, so `unknown` fields are optional on the wire. */
  args: z.unknown().optional(),
  status: ToolCallStatus,
  /** The full JSON result as the capability produced it. */
  canonical: z.unknown().nullable().optional(),
  /** The text the model saw. */
  rendered: z.string().nullable(),
  error: ErrorInfo.nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
});
export type ToolCallItem = z.infer<typeof ToolCallItem>;

export const FactItem = ItemBase.extend({
  kind: z.literal("fact"),
  factKind: z.string(),
  /** The text the model saw, if any. */
  text: z.string(),
  payload: z.unknown().nullable().optional(),
});
export type FactItem = z.infer<typeof FactItem>;

export const TimelineItem = z.discriminatedUnion("kind", [MessageItem, ToolCallItem, FactItem]);
export type TimelineItem = z.infer<typeof TimelineItem>;

// ── Paging the timeline (CTX-4): the chat loads the latest items and pages older (or newer) ones by seq ──

/** Items in one page when the caller does not say (`session.get`, `session.items`, `session.itemsAround`). */
export const SESSION_PAGE_DEFAULT = 100;
/** Most items one page may hold. */
export const SESSION_PAGE_MAX = 500;

const PageLimit = z.number().int().min(1, "A page holds at least 1 item").max(SESSION_PAGE_MAX, `A page holds at most ${SESSION_PAGE_MAX} items`);
const Seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const ItemId = z.string().min(1).max(64);

/**
 * A run of consecutive items (ordered by seq, oldest first) with the turns they belong to.
 * `hasOlder` / `hasNewer`: more items exist before the first / after the last one; page on with
 * `beforeSeq` = the first item's seq or `afterSeq` = the last item's seq.
 */
export const ItemPage = z.object({
  items: z.array(TimelineItem),
  turns: z.array(TurnInfo),
  hasOlder: z.boolean(),
  hasNewer: z.boolean(),
});
export type ItemPage = z.infer<typeof ItemPage>;

/** `session.get`: the session with its latest page of items. */
export const SessionDetailInput = z.strictObject({ id: SessionId, limit: PageLimit.optional() });
export type SessionDetailInput = z.infer<typeof SessionDetailInput>;

/**
 * The session, its **latest** page of items with their turns (oldest first), and its last turn (running
 * or how it ended) even when none of its items is in the page. `hasNewer` is always false.
 */
export const SessionDetail = ItemPage.extend({ session: SessionInfo, lastTurn: TurnInfo.nullable() });
export type SessionDetail = z.infer<typeof SessionDetail>;

/** `session.items`: the page before `beforeSeq` (older) or after `afterSeq` (newer); with neither, the latest page. */
export const SessionItemsInput = z
  .strictObject({ sessionId: SessionId, beforeSeq: Seq.optional(), afterSeq: Seq.optional(), limit: PageLimit.optional() })
  .refine((i) => i.beforeSeq === undefined || i.afterSeq === undefined, { message: "Give beforeSeq or afterSeq, not both", path: ["afterSeq"] });
export type SessionItemsInput = z.infer<typeof SessionItemsInput>;

/** `session.itemsAround`: a page of about `limit` items centred on one item (a search result to jump to). */
export const SessionItemsAroundInput = z.strictObject({ sessionId: SessionId, itemId: ItemId, limit: PageLimit.optional() });
export type SessionItemsAroundInput = z.infer<typeof SessionItemsAroundInput>;

/** Live events of one session, streamed over SSE. */
export type SessionEvent =
  | { type: "item"; item: TimelineItem }
  | { type: "delta"; itemId: string; text: string }
  /** Live output of a running tool call (a command's stdout/stderr as it arrives), for its card only. */
  | { type: "output"; itemId: string; chunk: string }
  /** Progress of a running tool call (MCP `notifications/progress`), in order; `total` null = indeterminate. */
  | { type: "progress"; itemId: string; progress: number; total: number | null; message: string | null }
  | { type: "turn"; turn: TurnInfo }
  | { type: "session"; session: SessionInfo }
  /** The size of the next model request (CTX-1), after every model step and at the end of a turn. */
  | { type: "context"; context: ContextUsage };

// ── Session operations (CTX-5): fork, edit-and-resend, retry, export and import ──

/** Most characters of an imported session export: at 3 bytes a character it fits the host's 4 MiB body limit with the envelope. */
export const SESSION_IMPORT_MAX_CHARS = 1_000_000;

/** Fork the session at an item: the new session holds every item up to and including it. */
export const SessionForkInput = z.strictObject({ sessionId: SessionId, itemId: z.string().min(1).max(64) });
export type SessionForkInput = z.infer<typeof SessionForkInput>;

/** Fork before a past user message and send `text` in its place in the fork. */
export const SessionEditInput = z.strictObject({ sessionId: SessionId, itemId: z.string().min(1).max(64), text: SessionSendInput.shape.text });
export type SessionEditInput = z.infer<typeof SessionEditInput>;

/** A file to download: its suggested name and its text. */
export const SessionExportFile = z.object({ filename: z.string(), mimeType: z.string(), text: z.string() });
export type SessionExportFile = z.infer<typeof SessionExportFile>;

export const SESSION_EXPORT_FORMAT = "seam.session";
export const SESSION_EXPORT_VERSION = 1;

/** A session as exported (`exportJson`) and imported (`importJson`): versioned, ids as they were in the source. */
export const SessionExport = z.strictObject({
  format: z.literal(SESSION_EXPORT_FORMAT),
  version: z.literal(SESSION_EXPORT_VERSION),
  exportedAt: z.string(),
  session: z.object({
    title: z.string().trim().min(1).max(200),
    workspace: z.string().min(1).max(4096),
    mode: SessionInfo.shape.mode,
    createdAt: z.string(),
  }),
  turns: z.array(TurnInfo.omit({ sessionId: true })),
  items: z.array(TimelineItem),
});
export type SessionExport = z.infer<typeof SessionExport>;

export const SessionImportInput = z.strictObject({
  /** The text of an exported JSON file. */
  text: z.string().min(1, "The file is empty").max(SESSION_IMPORT_MAX_CHARS, `An import may have at most ${SESSION_IMPORT_MAX_CHARS.toLocaleString("en-US")} characters`),
  /** Where the imported session works; default: the workspace named in the export (it must exist on this machine). */
  workspace: z.string().trim().min(1).max(4096).optional(),
});
export type SessionImportInput = z.infer<typeof SessionImportInput>;
