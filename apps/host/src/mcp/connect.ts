import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { HostError, isHostError, messageOf } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import { closeBarrierError, openConnection, untilAborted, type Connection } from "./connection.js";
import type { Outages } from "./outage.js";
import type { ServerState } from "./server-state.js";
import { DEFAULT_LIMITS, fetchTools, type FetchLimits, type McpTool } from "./sync.js";
import type { TransportFactory } from "./transport.js";
import { setServerLogLevel, withRequestSignal } from "./client-surface.js";
import type { ServerClient } from "./client-hub.js";
import type { McpLogLevel } from "@seam/shared";
import { isAuthError } from "./oauth/provider.js";
import { usesOAuth } from "./oauth/auth-status.js";

/** The server answered 401 and no stored token helps (MCP-11): no retries until someone signs in. */
export const needsAuthorization = (name: string, cause?: unknown) =>
  new HostError("denied:mcp", `The MCP server "${name}" requires you to sign in: open its Authorization tab on the MCP page and press Authorize.`, { reason: "needs_authorization" }, { cause });

const MAX_INSTRUCTIONS_CHARS = 32_768;

export interface ConnectorDeps {
  /** Connections live in child scopes of it. */
  connections: Scope;
  makeTransport: TransportFactory;
  limits?: Partial<Omit<FetchLimits, "signal">>;
  outages: Pick<Outages, "goLive" | "lose" | "onError" | "end">;
  /** The server's client surface (MCP-12, MCP-13): elicitation, roots, logs. */
  client?: { server: ServerClient };
  /** resources/prompts list_changed on a connection (MCP-9). */
  listChanged?: (conn: Connection, what: "resources" | "prompts") => void;
}

/**
 * Connecting and discovering (MCP-3, MCP-4): one attempt opens a connection, initializes it and, on
 * the sync chain, fetches the tool list and swaps the generation; later list_changed syncs swap only
 * what they fetched in full.
 */
export function createConnector(s: ServerState, deps: ConnectorDeps) {
  const { config, name, log } = s;
  let connectionIds = 0;

  /** One connection attempt; `first` is the start's, whose tool conflict may fail it (failOnStartupError). */
  function attempt(first: boolean): Promise<void> {
    const run = (async () => {
      let conn = open();
      s.opening = conn;
      const deadline = new AbortController();
      s.timers.start("startup", config.startupTimeoutMs, () =>
        deadline.abort(new HostError("timeout:mcp", `The MCP server "${name}" did not finish connecting and listing its tools within ${config.startupTimeoutMs} ms.`)),
      );
      deadline.signal.addEventListener("abort", () => s.opening?.abort.abort(deadline.signal.reason), { once: true });
      try {
        try {
          await initialize(conn);
        } catch (error) {
          if (!probeClosedPipe(error, conn) || s.disposed) throw error;
          // A stdio server that exits on the unknown server/discover probe is a 2025 server: start it again and
          // go straight to initialize, now and on every reconnect (MCP-14).
          log.info(`mcp ${name}: the server closed on the version probe; speaking 2025-11-25 to it`);
          s.era = "legacy";
          if (!(await deps.outages.end(conn))) throw closeBarrierError(name, s.policy.closeBarrierMs);
          conn = open();
          s.opening = conn;
          await initialize(conn);
        }
        const conflict = await s.chain.run(() => discover(conn));
        s.timers.stop("startup");
        if (conflict && first && config.failOnStartupError) throw conflict;
      } catch (error) {
        s.timers.stop("startup");
        const reason = conn.abort.signal.aborted && isHostError(conn.abort.signal.reason) ? conn.abort.signal.reason : error;
        if (!(await deps.outages.end(conn))) throw closeBarrierError(name, s.policy.closeBarrierMs);
        // With OAuth, a 401 waits for a sign-in; a configured static token that is refused stays an ordinary failure.
        if (usesOAuth(config) && isAuthError(reason)) throw needsAuthorization(name, reason);
        throw isHostError(reason) ? reason : new HostError("unavailable:mcp", `Could not connect to the MCP server "${name}": ${messageOf(reason)}`, { reason: "connect_failed" }, { cause: reason });
      } finally {
        if (s.opening === conn) s.opening = undefined;
      }
    })();
    s.attempting = run.then(() => undefined, () => undefined);
    return run;
  }

  function open(): Connection {
    const { outages } = deps;
    const conn = openConnection(deps.connections, ++connectionIds, config, deps.makeTransport, {
      closed: (c) => outages.lose(c, c.lastError ?? "the connection closed"),
      error: outages.onError,
      toolsChanged: (c) => void s.chain.run(() => resync(s, c, deps.limits)),
      ...(deps.client ? { surface: { surface: deps.client.server.surface, log, name } } : {}),
      listChanged: deps.listChanged,
    });
    s.lastHandle = conn.handle;
    s.setStatus({ state: "connecting", phase: "connecting" });
    return conn;
  }

  /**
   * Version negotiation and the handshake (MCP-14): server/discover for a 2026-07-28 server, initialize for an
   * older one (or one known to be older); keeps what the server says about itself and the negotiated version.
   */
  async function initialize(conn: Connection) {
    // Its own signal, detached once connected: closing the connection later must not cancel request 0 (the SDK keeps the listener).
    const connecting = withRequestSignal(conn.abort.signal, (signal) =>
      conn.client.connect(conn.handle.transport, {
        signal,
        timeout: config.startupTimeoutMs,
        ...(s.era === "legacy" && { prior: { kind: "legacy" as const } }),
      }),
    );
    // The SDK's version probe does not watch the signal (it waits out its own timeout): stop waiting on abort.
    await untilAborted(connecting, conn.abort.signal);
    if (s.disposed) throw new HostError("closed:mcp", `The MCP server "${name}" was stopped.`);
    const info = conn.client.getServerVersion();
    const protocolVersion = conn.client.getNegotiatedProtocolVersion();
    s.serverInfo = info ? { name: String(info.name), version: String(info.version), ...(protocolVersion && { protocolVersion }) } : null;
    const text = conn.client.getInstructions();
    s.instructions = typeof text === "string" ? text.slice(0, MAX_INSTRUCTIONS_CHARS) : null;
    s.setStatus({ state: "connecting", phase: "discovering" });
    if (deps.client) await askLogLevel(conn, deps.client);
  }

  /** Servers that log are asked for `info` and above, or the level chosen since (MCP-12); a refusal is logged, never fatal. */
  async function askLogLevel(conn: Connection, client: NonNullable<ConnectorDeps["client"]>) {
    const { surface } = client.server;
    const send = (level: McpLogLevel) =>
      withRequestSignal(conn.abort.signal, (signal) => setServerLogLevel(conn.client, level, { signal, timeout: config.startupTimeoutMs }));
    const wanted = surface.wantedLogLevel();
    try {
      surface.logLevel(await send(wanted));
      conn.scope.add(surface.levelSetter(send), "mcp:log-level");
    } catch (error) {
      if (conn.abort.signal.aborted) throw error;
      surface.logLevel(null);
      log.warn(`mcp ${name}: logging/setLevel ${wanted} failed: ${messageOf(error)}`);
    }
  }

  /** The first sync of a connection; on success the connection becomes the live one. */
  async function discover(conn: Connection): Promise<HostError | undefined> {
    let tools: McpTool[] | undefined;
    try {
      tools = await withRequestSignal(conn.abort.signal, (signal) => fetchTools(conn.client, name, { ...fetchLimits(s, conn, deps.limits), signal }));
    } catch (error) {
      // Without a good generation there is nothing to serve: the attempt fails. Otherwise keep the last good one (MCP-4).
      if (s.gens.number === 0 || s.disposed) throw error;
      log.warn(`mcp ${name}: tool list unavailable after reconnecting; keeping generation ${s.gens.number}`, { error: messageOf(error) });
    }
    if (s.disposed || conn.ended || conn.closed) throw new HostError("closed:mcp", `The connection to "${name}" closed during discovery.`);
    const conflict = tools ? s.gens.swap(tools) : undefined;
    if (conflict) log.error(`mcp ${name}: ${conflict.message}`);
    deps.outages.goLive(conn);
    return conflict;
  }

  return { attempt };
}

/** The version probe failed because a stdio peer closed its pipe (it exits on unknown pre-initialize requests). */
const probeClosedPipe = (error: unknown, conn: Connection) =>
  conn.handle.kind === "stdio" && error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && conn.closed;

/** A later sync (tools/list_changed): fetch, and swap only if the fetch succeeded (MCP-4). */
async function resync(s: ServerState, conn: Connection, limits: ConnectorDeps["limits"]): Promise<void> {
  const { name, log } = s;
  const stale = () => s.disposed || conn !== s.current || !conn.live;
  if (stale()) return;
  let tools: McpTool[];
  try {
    tools = await withRequestSignal(conn.abort.signal, (signal) => fetchTools(conn.client, name, { ...fetchLimits(s, conn, limits), signal }));
  } catch (error) {
    log.warn(`mcp ${name}: tool list refresh failed; keeping generation ${s.gens.number}`, { error: messageOf(error) });
    return;
  }
  if (stale()) return;
  const conflict = s.gens.swap(tools);
  if (conflict) log.error(`mcp ${name}: ${conflict.message}`);
  s.onChange();
}

const fetchLimits = (s: ServerState, conn: Connection, limits: ConnectorDeps["limits"]): FetchLimits => ({
  ...DEFAULT_LIMITS,
  timeoutMs: s.config.startupTimeoutMs,
  ...limits,
  signal: conn.abort.signal,
});
