import type { McpLogLevel } from "@seam/shared";
import { ProtocolError, ProtocolErrorCode, type Client, type ClientCapabilities, type ElicitResult } from "@modelcontextprotocol/client";
import { z } from "zod";
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
  client.setRequestHandler("elicitation/create", async (request, ctx): Promise<ElicitResult> => {
    const p = request.params;
    const ask = p.mode === "url"
      ? { mode: "url" as const, message: p.message, url: p.url, elicitationId: p.elicitationId }
      : { mode: "form" as const, message: p.message, requestedSchema: p.requestedSchema as Record<string, unknown> };
    const reply = await surface.elicit(ask, AbortSignal.any([ctx.mcpReq.signal, signal]));
    return toElicitResult(reply);
  });
  client.setNotificationHandler("notifications/elicitation/complete", (n) => surface.completed(n.params.elicitationId));
  client.setRequestHandler("roots/list", async () => {
    try {
      return { roots: await surface.roots() };
    } catch (error) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Seam could not list its workspace roots: ${messageOf(error)}`);
    }
  });
  client.setNotificationHandler("notifications/message", (n) => {
    surface.log({ level: n.params.level, logger: n.params.logger ?? null, data: n.params.data });
  });
  const unwatch = surface.watchRoots(() => {
    client.sendRootsListChanged().catch((error: unknown) => log.warn(`mcp ${name}: could not send roots/list_changed: ${messageOf(error)}`));
  });
  const unroute = installProgress(client);
  return () => {
    void unwatch();
    void unroute();
  };
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

type ProgressFn = NonNullable<CallContext["progress"]>;
/** Each client's tool calls in flight by their progress token. */
const progressRoutes = new WeakMap<Client, Map<string, ProgressFn>>();
let tokens = 0;

/**
 * Routes `notifications/progress` by Seam's own tokens. Not the SDK's `onprogress`: the SDK drops its handler when the
 * response arrives and runs notifications a microtask later, so the last report (sent just before the result) was lost.
 */
function installProgress(client: Client): Disposer {
  const routes = new Map<string, ProgressFn>();
  progressRoutes.set(client, routes);
  client.setNotificationHandler("notifications/progress", (n) => {
    const fn = routes.get(String(n.params.progressToken));
    fn?.({
      progress: n.params.progress,
      total: typeof n.params.total === "number" ? n.params.total : null,
      message: typeof n.params.message === "string" ? n.params.message : null,
    });
  });
  return () => routes.clear();
}

/**
 * tools/call with a progress token (every call carries one): its reports reach the call's card, and the runtime's deadline
 * restarts on each (bounded by `PROGRESS_MAX_FACTOR` × the call timeout, `ToolDef.maxTimeoutMs`); the SDK's own timer is
 * only a backstop at that bound.
 */
export async function requestToolCall(client: Client, rawName: string, args: Record<string, unknown>, signal: AbortSignal, callTimeoutMs: number, call: CallContext | undefined): Promise<unknown> {
  const progressToken = `seam-${++tokens}`;
  const routes = progressRoutes.get(client);
  if (call?.progress) routes?.set(progressToken, call.progress);
  try {
    return await client.request({ method: "tools/call", params: { name: rawName, arguments: args, _meta: { progressToken } } }, z.unknown(), {
      signal,
      timeout: callTimeoutMs * PROGRESS_MAX_FACTOR + 1_000,
    });
  } finally {
    // Reports that arrive with the result run before this line (a microtask earlier); later ones have nowhere to go.
    routes?.delete(progressToken);
  }
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
