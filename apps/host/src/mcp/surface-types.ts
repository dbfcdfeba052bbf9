import type { ElicitContent, McpLogLevel } from "@seam/shared";
import type { Disposer } from "../core/scope.js";

/* Seam's own types for what an MCP server asks of the client (MCP-12, MCP-13); only client-surface.ts maps them to the SDK. */

/** An `elicitation/create` request, validated: a form to fill in, or a URL to open. */
export type ElicitationAsk =
  | { mode: "form"; message: string; requestedSchema: Record<string, unknown> }
  | { mode: "url"; message: string; url: string; elicitationId: string };

/** The answer: `accept` (form: the content, defaults applied), `decline` or `cancel`; `reason` says why Seam answered by itself. */
export type ElicitationReply =
  | { action: "accept"; content?: ElicitContent }
  | { action: "decline"; reason?: string }
  | { action: "cancel"; reason?: string };

export interface McpRoot { uri: string; name: string }

/** A `notifications/message` as received. */
export interface ServerLogMessage { level: McpLogLevel; logger: string | null; data: unknown }

/** What one server's connections hand the client's requests and notifications to (built per server by client-hub.ts). */
export interface ClientSurface {
  elicit(ask: ElicitationAsk, signal: AbortSignal): Promise<ElicitationReply>;
  /** `notifications/elicitation/complete`: the out-of-band step of URL request `elicitationId` is done. */
  completed(elicitationId: string): void;
  roots(): Promise<McpRoot[]>;
  /** `fn` runs when the roots changed (the connection then sends `notifications/roots/list_changed`). */
  watchRoots(fn: () => void): Disposer;
  log(message: ServerLogMessage): void;
  /** The level asked with `logging/setLevel` on the current connection, null when the server does not log. */
  logLevel(level: McpLogLevel | null): void;
  /** The level to ask of the server: the person's choice for this run, else the default (`info`). */
  wantedLogLevel(): McpLogLevel;
  /** The live connection's way to send `logging/setLevel`, until the disposer runs. */
  levelSetter(fn: (level: McpLogLevel) => Promise<McpLogLevel | null>): Disposer;
}

/** One tool call in flight on a server: elicitation requests that arrive meanwhile are asked in its session. */
export interface CallContext {
  sessionId: string;
  callId: string;
  /** The tool's public name. */
  tool: string;
  signal: AbortSignal;
  progress?(update: { progress: number; total: number | null; message: string | null }): void;
  pauseDeadline?(): () => void;
}
