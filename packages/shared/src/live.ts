import { z } from "zod";
import type { ExtensionsSnapshot } from "./extensions.js";
import type { LspServerView } from "./lsp.js";
import type { McpServerView } from "./mcp.js";
import type { McpElicitationView, McpLogEvent } from "./mcp-client.js";
import type { ApprovalsSnapshot } from "./permissions.js";
import type { ShellJobsChange } from "./shell.js";
import type { SessionEvent, SessionInfo } from "./session.js";

/**
 * One live stream per page carries every topic it watches (SSE holds one of the browser's six
 * HTTP/1.1 connections per host, so a stream per topic froze the UI with a few tabs open).
 * Each topic has one payload type; `LiveEvent` is a union the web narrows by `topic`.
 */
export interface LivePayloads {
  /** The session list, whole, after every change (created, renamed, removed, running state). */
  sessions: SessionInfo[];
  /** Topic `session:<id>`: that session's timeline events. */
  session: SessionEvent;
  /** The extensions page's snapshot, whole, after each burst of changes. */
  extensions: ExtensionsSnapshot;
  /** What host halves `api.send` to their browser halves, tagged with the run. */
  bridge: BridgeMessage;
  /** Every MCP server's view, whole, after each burst of changes. */
  mcp: McpServerView[];
  /** Every language server's view, whole, after each burst of changes. */
  lsp: LspServerView[];
  /** Every pending approval request (tool calls and extension runs), whole after each change. */
  approvals: ApprovalsSnapshot;
  /** One session's background jobs, whole, after each change (query `shell.jobs` for the current list). */
  jobs: ShellJobsChange;
  /** Every pending MCP elicitation request (MCP-12), whole after each change. */
  elicitations: McpElicitationView[];
  /** MCP server log entries as they arrive (MCP-12), and a server's ring being emptied. */
  mcpLogs: McpLogEvent;
}

/** `message` is any JSON value a host half sent (absent when it sent `undefined`). */
export interface BridgeMessage { runId: string; message?: unknown }

/** Topics whose name is the payload key; `session` is addressed as `session:<id>`. */
export type FixedTopic = Exclude<keyof LivePayloads, "session">;
export type SessionTopic = `session:${string}`;

const SESSION_TOPIC = /^session:[A-Za-z0-9_-]{1,100}$/;
const FIXED_TOPICS = ["sessions", "extensions", "bridge", "mcp", "lsp", "approvals", "jobs", "elicitations", "mcpLogs"] as const satisfies readonly FixedTopic[];

export const LiveTopic = z.union([
  z.enum(FIXED_TOPICS),
  z.custom<SessionTopic>((t) => typeof t === "string" && SESSION_TOPIC.test(t), "expected a fixed topic or session:<id>"),
]);
export type LiveTopic = z.infer<typeof LiveTopic>;

export const LiveInput = z.object({ topics: z.array(LiveTopic).max(50) });

/** The payload key of a topic: `session:<id>` → `session`, the others name themselves. */
export type TopicKey<T extends LiveTopic> = T extends SessionTopic ? "session" : T;
/** What a topic's `data` events carry. */
export type LiveData<T extends LiveTopic> = LivePayloads[TopicKey<T>];

/** A data event per topic, each with its own payload type. */
export type LiveDataEvent =
  | { [K in FixedTopic]: { kind: "data"; topic: K; data: LivePayloads[K] } }[FixedTopic]
  | { kind: "data"; topic: SessionTopic; data: SessionEvent };

/** `started` once every topic is subscribed (refetch what may have been missed); then the topics' data. */
export type LiveEvent = { kind: "started" } | LiveDataEvent | { kind: "error"; topic: LiveTopic; message: string };

/** The session id a `session:<id>` topic names, or null for the other topics. */
export function sessionOfTopic(topic: LiveTopic): string | null {
  return topic.startsWith("session:") ? topic.slice("session:".length) : null;
}
