import { HostError, isHostError, messageOf } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import { closeBarrierError, openConnection, type Connection } from "./connection.js";
import type { Outages } from "./outage.js";
import type { ServerState } from "./server-state.js";
import { DEFAULT_LIMITS, fetchTools, type FetchLimits, type McpTool } from "./sync.js";
import type { TransportFactory } from "./transport.js";
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
      const conn = open();
      s.opening = conn;
      s.timers.start("startup", config.startupTimeoutMs, () =>
        conn.abort.abort(new HostError("timeout:mcp", `The MCP server "${name}" did not finish connecting and listing its tools within ${config.startupTimeoutMs} ms.`)),
      );
      try {
        await initialize(conn);
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
    });
    s.lastHandle = conn.handle;
    s.setStatus({ state: "connecting", phase: "connecting" });
    return conn;
  }

  /** The initialize handshake; keeps what the server says about itself. */
  async function initialize(conn: Connection) {
    await conn.client.connect(conn.handle.transport, { signal: conn.abort.signal, timeout: config.startupTimeoutMs });
    if (s.disposed) throw new HostError("closed:mcp", `The MCP server "${name}" was stopped.`);
    const info = conn.client.getServerVersion();
    s.serverInfo = info ? { name: String(info.name), version: String(info.version) } : null;
    const text = conn.client.getInstructions();
    s.instructions = typeof text === "string" ? text.slice(0, MAX_INSTRUCTIONS_CHARS) : null;
    s.setStatus({ state: "connecting", phase: "discovering" });
  }

  /** The first sync of a connection; on success the connection becomes the live one. */
  async function discover(conn: Connection): Promise<HostError | undefined> {
    let tools: McpTool[] | undefined;
    try {
      tools = await fetchTools(conn.client, name, fetchLimits(s, conn, deps.limits));
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

/** A later sync (tools/list_changed): fetch, and swap only if the fetch succeeded (MCP-4). */
async function resync(s: ServerState, conn: Connection, limits: ConnectorDeps["limits"]): Promise<void> {
  const { name, log } = s;
  const stale = () => s.disposed || conn !== s.current || !conn.live;
  if (stale()) return;
  let tools: McpTool[];
  try {
    tools = await fetchTools(conn.client, name, fetchLimits(s, conn, limits));
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
