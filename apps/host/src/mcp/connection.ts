import type { McpServerConfig } from "@seam/shared";
import { Client } from "@modelcontextprotocol/client";
import { HostError, messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import type { Scope } from "../core/scope.js";
import type { Clock } from "./supervisor-types.js";
import { clientOptions, installClientSurface } from "./client-surface.js";
import type { ClientSurface } from "./surface-types.js";
import type { TransportFactory, TransportHandle } from "./transport.js";

/**
 * How long a server may stay silent on the version probe: a silent stdio server is taken for a 2025 one and
 * initialized; over HTTP, silence is an outage (the connect fails and is retried).
 */
const PROBE_TIMEOUT_MS = 5_000;

/** One client over one transport, in its own scope; a server has at most one live connection at a time. */
export interface Connection {
  id: number;
  client: Client;
  handle: TransportHandle;
  scope: Scope;
  /** Aborts this connection's in-flight requests (startup timeout, dispose). */
  abort: AbortController;
  /** Connected and discovered: calls may use it. */
  live: boolean;
  /** We are closing it (or closed it): its events are stale. */
  ended: boolean;
  /** The transport reported close. */
  closed: boolean;
  lastError?: string;
  probing?: Promise<void>;
  /** Where the server's requests for input go (absent: the client declares no capabilities). */
  surface?: ClientSurface;
}

/** What a connection reports to its supervisor. */
export interface ConnectionEvents {
  closed(conn: Connection): void;
  error(conn: Connection, error: Error): void;
  toolsChanged(conn: Connection): void;
  /** Where the server's requests and notifications to the client go (MCP-12, MCP-13); absent: the client declares nothing. */
  surface?: { surface: ClientSurface; log: Log; name: string };
  /** resources/list_changed or prompts/list_changed (MCP-9): the UI refetches. */
  listChanged?(conn: Connection, what: "resources" | "prompts"): void;
}

/** Opens a client over a fresh transport in a child scope of `connections`; it connects later (`client.connect`). */
export function openConnection(connections: Scope, id: number, config: McpServerConfig, makeTransport: TransportFactory, on: ConnectionEvents): Connection {
  const scope = connections.child(`connection:${id}`);
  let handle: TransportHandle;
  try {
    handle = makeTransport(scope, config);
  } catch (error) {
    void scope.dispose();
    throw error;
  }
  // "auto": a 2026-07-28 server is spoken to statelessly (server/discover), an older one through initialize (MCP-14).
  const versionNegotiation = { mode: "auto" as const, probe: { timeoutMs: PROBE_TIMEOUT_MS } };
  const client = new Client({ name: "seam", version: "0.0.0" }, { ...(on.surface ? clientOptions() : { capabilities: {} }), versionNegotiation });
  const conn: Connection = { id, client, handle, scope, abort: new AbortController(), live: false, ended: false, closed: false };
  client.onclose = () => {
    conn.closed = true;
    on.closed(conn);
  };
  client.onerror = (error) => on.error(conn, error);
  client.setNotificationHandler("notifications/tools/list_changed", () => on.toolsChanged(conn));
  if (on.surface) conn.surface = on.surface.surface;
  if (on.surface) scope.add(installClientSurface(client, on.surface.surface, conn.abort.signal, on.surface.log, on.surface.name), "mcp:client-surface");
  client.setNotificationHandler("notifications/resources/list_changed", () => on.listChanged?.(conn, "resources"));
  client.setNotificationHandler("notifications/prompts/list_changed", () => on.listChanged?.(conn, "prompts"));
  return conn;
}

export interface CloseBarrier {
  name: string;
  clock: Clock;
  log: Log;
  /** How long a closing connection has to prove its peer is gone. */
  barrierMs: number;
}

/**
 * Closes a connection and waits, at most `barrierMs`, for proof that its peer is gone (MCP-5). False
 * when the proof did not come: reconnecting then could run two copies of a stdio server.
 */
export async function closeConnection(conn: Connection, b: CloseBarrier): Promise<boolean> {
  conn.ended = true;
  conn.live = false;
  conn.abort.abort(new HostError("closed:mcp", `The connection to "${b.name}" is closing.`));
  let timer: unknown;
  const barrier = new Promise<boolean>((resolve) => (timer = b.clock.setTimeout(() => resolve(false), b.barrierMs, "barrier")));
  const proven = await Promise.race([conn.handle.terminate(), barrier]);
  b.clock.clearTimeout(timer);
  const dispose = () => conn.scope.dispose().catch((error: unknown) => b.log.error(`mcp ${b.name}: dispose failed`, { error: messageOf(error) }));
  if (!proven) {
    b.log.error(`mcp ${b.name}: could not prove that connection ${conn.id} closed within ${b.barrierMs} ms`);
    void dispose();
    return false;
  }
  await dispose();
  return true;
}

/** Why an attempt stopped: the previous connection never proved it closed (not retryable). */
export const closeBarrierError = (name: string, barrierMs: number) =>
  new HostError("unavailable:mcp", `The previous connection to "${name}" did not close within ${barrierMs} ms.`, { reason: "close_barrier" });

/** `work`, or the signal's reason as soon as it aborts (the work itself is left to settle on its own). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
