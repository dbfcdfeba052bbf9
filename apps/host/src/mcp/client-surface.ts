import type { McpLogLevel } from "@seam/shared";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  ElicitRequestSchema, ErrorCode, ListRootsRequestSchema, LoggingMessageNotificationSchema, McpError, type ClientCapabilities, type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import type { Disposer } from "../core/scope.js";
import type { CallContext, ClientSurface, ElicitationReply } from "./surface-types.js";

/*
 * The MCP client surface (MCP-12, MCP-13): every direct use of the SDK's client API for what the client declares, what a
 * server may ask of it, and the options of a tool call. The rest of Seam works with surface-types.ts.
 */

/** What Seam declares at `initialize` (schema 2025-11-25): form elicitation with defaults applied, URL elicitation, roots. */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  elicitation: { form: { applyDefaults: true }, url: {} },
  roots: { listChanged: true },
};

/** The client's options for `new Client(…)`. */
export const clientOptions = () => ({ capabilities: CLIENT_CAPABILITIES });

/**
 * Installs the server→client handlers on a new client: `elicitation/create`, `roots/list` and `notifications/message`;
 * returns the disposer of its roots watch. `signal` is the connection's: a request still waiting for a person when it
 * closes is cancelled.
 */
export function installClientSurface(client: Client, surface: ClientSurface, signal: AbortSignal, log: Log, name: string): Disposer {
  client.setRequestHandler(ElicitRequestSchema, async (request, extra): Promise<ElicitResult> => {
    const p = request.params;
    const ask = p.mode === "url"
      ? { mode: "url" as const, message: p.message, url: p.url, elicitationId: p.elicitationId }
      : { mode: "form" as const, message: p.message, requestedSchema: p.requestedSchema as Record<string, unknown> };
    const reply = await surface.elicit(ask, AbortSignal.any([extra.signal, signal]));
    return toElicitResult(reply);
  });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    try {
      return { roots: await surface.roots() };
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, `Seam could not list its workspace roots: ${messageOf(error)}`);
    }
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    surface.log({ level: n.params.level, logger: n.params.logger ?? null, data: n.params.data });
  });
  return surface.watchRoots(() => {
    client.sendRootsListChanged().catch((error: unknown) => log.warn(`mcp ${name}: could not send roots/list_changed: ${messageOf(error)}`));
  });
}

function toElicitResult(reply: ElicitationReply): ElicitResult {
  if (reply.action === "accept") return { action: "accept", content: reply.content ?? {} };
  // The reason is for whoever reads the server's side; ElicitResult has no field for it but `_meta`.
  return reply.reason ? { action: reply.action, _meta: { "seam/reason": reply.reason } } : { action: reply.action };
}

/** After `initialize`: asks a server that logs for `level` and above; null when it does not declare `logging`. */
export async function setServerLogLevel(client: Client, level: McpLogLevel, options: { signal: AbortSignal; timeout: number }): Promise<McpLogLevel | null> {
  if (!client.getServerCapabilities()?.logging) return null;
  await client.setLoggingLevel(level, options);
  return level;
}

/** Longest a tool call may run while its server keeps reporting progress: this many times its `callTimeoutMs`. */
export const PROGRESS_MAX_FACTOR = 10;

/**
 * The tools/call request options: a progress token (the SDK sends one when `onprogress` is set) whose reports reach the
 * call's card and restart its timeout, bounded by `PROGRESS_MAX_FACTOR` × the call timeout.
 */
export function callRequestOptions(signal: AbortSignal, callTimeoutMs: number, call: CallContext | undefined): RequestOptions {
  return {
    signal,
    timeout: callTimeoutMs + 1_000,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: callTimeoutMs * PROGRESS_MAX_FACTOR + 1_000,
    onprogress: (p) => call?.progress?.({
      progress: p.progress,
      total: typeof p.total === "number" ? p.total : null,
      message: typeof p.message === "string" ? p.message : null,
    }),
  };
}

/**
 * A signal for one request that follows `parent` only until the request settles. The SDK never removes its abort
 * listener, so a request given the connection's own signal would be "cancelled" (`notifications/cancelled`) long
 * after it finished, when the connection closes; request 0 (`initialize`) was.
 */
export async function withRequestSignal<T>(parent: AbortSignal, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const own = new AbortController();
  const follow = () => own.abort(parent.reason);
  if (parent.aborted) follow();
  else parent.addEventListener("abort", follow, { once: true });
  try {
    return await fn(own.signal);
  } finally {
    parent.removeEventListener("abort", follow);
  }
}
