import type { McpServerConfig, McpServerState, McpServerView } from "@seam/shared";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { HostError, isHostError, messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import type { Scope } from "../core/scope.js";
import { createRestartLoop, restartDelay, systemClock, type Clock as TimerClock, type RestartPolicy, type RestartTimer } from "../core/supervisor.js";
import type { ToolRegistry } from "../agent/registry.js";
import { mcpToolDef } from "./tool.js";
import { DEFAULT_LIMITS, fetchTools, SerialChain, ToolGenerations, withChildSignal, type FetchLimits, type McpTool } from "./sync.js";
import { createTransport, type TransportFactory, type TransportHandle } from "./transport.js";

/** Timers the supervisor uses: the restart loop's (`retry`, `stable`) and its own. */
export type TimerLabel = RestartTimer | "startup" | "barrier" | "ping";
export type Clock = TimerClock<TimerLabel>;

export interface SupervisorPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** Reconnection attempts per outage. */
  maxAttempts: number;
  /** A connection up this long resets the attempt budget. */
  stableMs: number;
  /** How long a closing connection has to prove its peer is gone before reconnection stops. */
  closeBarrierMs: number;
  /** Health ping for Streamable HTTP servers (0 = off); stdio servers report their exit instead. */
  httpPingIntervalMs: number;
}

export const DEFAULT_POLICY: SupervisorPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  maxAttempts: 10,
  stableMs: 30_000,
  closeBarrierMs: 10_000,
  httpPingIntervalMs: 15_000,
};

/** MCP-5 as the core supervisor's schedule: doubling from `initialDelayMs`, budget reset after `stableMs` up. */
const restartPolicy = (p: SupervisorPolicy): RestartPolicy => ({
  initialDelayMs: p.initialDelayMs, factor: 2, maxDelayMs: p.maxDelayMs, maxAttempts: p.maxAttempts, resetAfterUpMs: p.stableMs,
});

/** The delay before reconnection attempt `attempt` (1-based): 500 ms doubling, capped at 30 s. */
export const backoffDelay = (attempt: number, p: Pick<SupervisorPolicy, "initialDelayMs" | "maxDelayMs"> = DEFAULT_POLICY) =>
  restartDelay({ ...p, factor: 2 }, attempt);

export interface SupervisorOptions {
  config: McpServerConfig;
  /** The server's scope; connections live in child scopes of it. */
  scope: Scope;
  registry: ToolRegistry;
  log: Log;
  onChange: () => void;
  transport?: TransportFactory;
  clock?: Clock;
  policy?: Partial<SupervisorPolicy>;
  limits?: Partial<Omit<FetchLimits, "signal">>;
}

export interface Supervisor {
  /** First connection and full discovery (MCP-3): rejects only when `failOnStartupError`, else retries in the background. */
  start(): Promise<void>;
  view(): Omit<McpServerView, "config">;
  /** Cancels timers, closes the client, drains attempts and the sync chain, then unregisters (MCP-5). Idempotent. */
  dispose(): Promise<void>;
}

interface Connection {
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
}

const MAX_INSTRUCTIONS_CHARS = 32_768;

/** One server: connect, discover, keep the tool generation in sync, recover from outages (MCP-3..5). */
export function createSupervisor(opts: SupervisorOptions): Supervisor {
  const { config, registry, log } = opts;
  const name = config.name;
  const policy = { ...DEFAULT_POLICY, ...opts.policy };
  const clock = opts.clock ?? systemClock;
  const makeTransport = opts.transport ?? createTransport;
  const connections = opts.scope.child("connections");
  const chain = new SerialChain();
  const gens = new ToolGenerations(registry, (tool, generation) => mcpToolDef(name, tool, generation, config.callTimeoutMs, send));

  let status: McpServerState = { state: "connecting", phase: "connecting" };
  let current: Connection | undefined;
  let lastHandle: TransportHandle | undefined;
  let attempting: Promise<void> | undefined;
  let opening: Connection | undefined;
  /** Outage teardowns in flight (close barrier, then the next retry); dispose waits for them. */
  const closing = new Set<Promise<void>>();
  let disposed = false;
  let disposing: Promise<void> | undefined;
  let instructions: string | null = null;
  let serverInfo: { name: string; version: string } | null = null;
  let connectionIds = 0;
  const timers = new Map<TimerLabel, unknown>();

  const setStatus = (next: McpServerState) => {
    status = next;
    opts.onChange();
  };
  const startTimer = (label: TimerLabel, ms: number, fn: () => void) => {
    stopTimer(label);
    timers.set(label, clock.setTimeout(() => {
      timers.delete(label);
      fn();
    }, ms, label));
  };
  const stopTimer = (label: TimerLabel) => {
    if (!timers.has(label)) return;
    clock.clearTimeout(timers.get(label));
    timers.delete(label);
  };

  /** tools/call on the live connection; fails fast with generation_unavailable during an outage (MCP-5). */
  async function send(rawName: string, generation: number, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const conn = current;
    if (!conn?.live || generation !== gens.number || !gens.registered) {
      const why = status.state === "retrying" ? ` It is reconnecting (attempt ${status.attempt}/${status.maxAttempts}).` : "";
      throw new HostError("unavailable:mcp", `The MCP server "${name}" is not connected right now, so ${rawName} cannot run.${why} Try again later or use another tool.`, {
        reason: "generation_unavailable",
      });
    }
    try {
      // The runtime's deadline (callTimeoutMs) is authoritative; the SDK's own timer is only a backstop.
      return await conn.client.request({ method: "tools/call", params: { name: rawName, arguments: args } }, z.unknown(), {
        signal,
        timeout: config.callTimeoutMs + 1_000,
      });
    } catch (error) {
      throw callFailure(conn, rawName, error, signal);
    }
  }

  function callFailure(conn: Connection, rawName: string, error: unknown, signal: AbortSignal): HostError {
    if (signal.aborted) return new HostError("closed:mcp", `The call to ${rawName} was cancelled.`, { reason: "cancelled" }, { cause: error });
    if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      return new HostError("unavailable:mcp", `The connection to the MCP server "${name}" was lost during the call to ${rawName}.`, { reason: "generation_unavailable" }, { cause: error });
    }
    if (error instanceof McpError) {
      return new HostError("unavailable:mcp", `The MCP server "${name}" rejected the call to ${rawName}: ${error.message}`, { reason: "mcp_request_failed", rpcCode: error.code }, { cause: error });
    }
    // Not a JSON-RPC answer: the transport failed (HTTP error, dropped session). Treat it as an outage.
    if (conn.handle.kind === "http") lose(conn, `request failed: ${messageOf(error)}`);
    return new HostError("unavailable:mcp", `The call to ${rawName} failed on the way to the MCP server "${name}": ${messageOf(error)}`, { reason: "generation_unavailable" }, { cause: error });
  }

  /** One connection attempt: connect, initialize and (serialized on the chain) discover and swap. */
  function attempt(first: boolean): Promise<void> {
    const run = (async () => {
      const conn = open();
      opening = conn;
      startTimer("startup", config.startupTimeoutMs, () =>
        conn.abort.abort(new HostError("timeout:mcp", `The MCP server "${name}" did not finish connecting and listing its tools within ${config.startupTimeoutMs} ms.`)),
      );
      try {
        await conn.client.connect(conn.handle.transport, { signal: conn.abort.signal, timeout: config.startupTimeoutMs });
        if (disposed) throw new HostError("closed:mcp", `The MCP server "${name}" was stopped.`);
        const info = conn.client.getServerVersion();
        serverInfo = info ? { name: String(info.name), version: String(info.version) } : null;
        const text = conn.client.getInstructions();
        instructions = typeof text === "string" ? text.slice(0, MAX_INSTRUCTIONS_CHARS) : null;
        setStatus({ state: "connecting", phase: "discovering" });
        const conflict = await chain.run(() => discover(conn));
        stopTimer("startup");
        if (conflict && first && config.failOnStartupError) throw conflict;
      } catch (error) {
        stopTimer("startup");
        const reason = conn.abort.signal.aborted && isHostError(conn.abort.signal.reason) ? conn.abort.signal.reason : error;
        if (!(await end(conn))) throw barrierError();
        throw isHostError(reason) ? reason : new HostError("unavailable:mcp", `Could not connect to the MCP server "${name}": ${messageOf(reason)}`, { reason: "connect_failed" }, { cause: reason });
      } finally {
        if (opening === conn) opening = undefined;
      }
    })();
    attempting = run.then(() => undefined, () => undefined);
    return run;
  }

  /** Reconnections (MCP-5): a failed attempt is the next failure; a connection that cannot prove it closed stops them. */
  const restarts = createRestartLoop({
    policy: restartPolicy(policy),
    clock,
    start: () => attempt(false),
    isFatal: (error) => isHostError(error) && error.publicCode === "close_barrier",
    onRetry: ({ attempt, maxAttempts, delayMs }, error) =>
      setStatus({ state: "retrying", attempt, maxAttempts, nextRetryAt: new Date(clock.now() + delayMs).toISOString(), lastError: messageOf(error) }),
    onGiveUp: (reason, error) => (reason === "fatal" ? barrierFailed() : exhausted(messageOf(error))),
  });

  /** The first sync of a connection; on success the connection becomes the live one. */
  async function discover(conn: Connection): Promise<HostError | undefined> {
    let tools: McpTool[] | undefined;
    try {
      tools = await fetchTools(conn.client, name, fetchLimits(conn));
    } catch (error) {
      // Without a good generation there is nothing to serve: the attempt fails. Otherwise keep the last good one (MCP-4).
      if (gens.number === 0 || disposed) throw error;
      log.warn(`mcp ${name}: tool list unavailable after reconnecting; keeping generation ${gens.number}`, { error: messageOf(error) });
    }
    if (disposed || conn.ended || conn.closed) throw new HostError("closed:mcp", `The connection to "${name}" closed during discovery.`);
    const conflict = tools ? gens.swap(tools) : undefined;
    if (conflict) log.error(`mcp ${name}: ${conflict.message}`);
    goLive(conn);
    return conflict;
  }

  /** A later sync (tools/list_changed): fetch, and swap only if the fetch succeeded (MCP-4). */
  async function resync(conn: Connection): Promise<void> {
    if (disposed || conn !== current || !conn.live) return;
    let tools: McpTool[];
    try {
      tools = await fetchTools(conn.client, name, fetchLimits(conn));
    } catch (error) {
      log.warn(`mcp ${name}: tool list refresh failed; keeping generation ${gens.number}`, { error: messageOf(error) });
      return;
    }
    if (disposed || conn !== current || !conn.live) return;
    const conflict = gens.swap(tools);
    if (conflict) log.error(`mcp ${name}: ${conflict.message}`);
    opts.onChange();
  }

  const fetchLimits = (conn: Connection): FetchLimits => ({
    ...DEFAULT_LIMITS,
    timeoutMs: config.startupTimeoutMs,
    ...opts.limits,
    signal: conn.abort.signal,
  });

  function open(): Connection {
    const id = ++connectionIds;
    const scope = connections.child(`connection:${id}`);
    let handle: TransportHandle;
    try {
      handle = makeTransport(scope, config);
    } catch (error) {
      void scope.dispose();
      throw error;
    }
    const client = new Client({ name: "seam", version: "0.0.0" }, { capabilities: {} });
    const conn: Connection = { id, client, handle, scope, abort: new AbortController(), live: false, ended: false, closed: false };
    lastHandle = handle;
    client.onclose = () => {
      conn.closed = true;
      lose(conn, conn.lastError ?? "the connection closed");
    };
    client.onerror = (error) => onError(conn, error);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void chain.run(() => resync(conn));
    });
    setStatus({ state: "connecting", phase: "connecting" });
    return conn;
  }

  function goLive(conn: Connection) {
    conn.live = true;
    current = conn;
    setStatus({ state: "ready", since: new Date(clock.now()).toISOString() });
    restarts.up();
    if (conn.handle.kind === "http" && policy.httpPingIntervalMs > 0) schedulePing(conn);
  }

  function schedulePing(conn: Connection) {
    startTimer("ping", policy.httpPingIntervalMs, () => {
      void probe(conn).then(() => {
        if (conn === current && conn.live) schedulePing(conn);
      });
    });
  }

  /** A ping on an HTTP connection; a failure is an outage. */
  function probe(conn: Connection): Promise<void> {
    return (conn.probing ??= withChildSignal(conn.abort.signal, (signal) => conn.client.ping({ timeout: 10_000, signal }))
      .then(() => undefined, (error: unknown) => lose(conn, `ping failed: ${messageOf(error)}`))
      .finally(() => (conn.probing = undefined)));
  }

  function onError(conn: Connection, error: Error) {
    conn.lastError = messageOf(error);
    if (conn.ended) return;
    if (conn.handle.kind === "stdio") opts.onChange(); // e.g. the process exited: its stderr is now worth reading
    // An HTTP transport reports a dropped event stream as an error, not a close: check whether the server is still there.
    if (conn.handle.kind === "http" && conn.live) void probe(conn);
  }

  /** A live connection went away: keep the generation, fail calls, reconnect with backoff (MCP-5). */
  function lose(conn: Connection, reason: string) {
    if (conn.ended || disposed) return;
    if (!conn.live) return; // an attempt in progress fails on its own
    conn.live = false;
    if (current === conn) current = undefined;
    restarts.down();
    stopTimer("ping");
    log.warn(`mcp ${name}: connection lost: ${reason}`);
    const teardown = (async () => {
      if (!(await end(conn))) return barrierFailed();
      restarts.failed(reason);
    })();
    closing.add(teardown);
    void teardown.finally(() => closing.delete(teardown));
  }

  /** Closes a connection and waits, at most closeBarrierMs, for proof that its peer is gone. */
  async function end(conn: Connection): Promise<boolean> {
    conn.ended = true;
    conn.live = false;
    if (current === conn) current = undefined;
    conn.abort.abort(new HostError("closed:mcp", `The connection to "${name}" is closing.`));
    let timer: unknown;
    const barrier = new Promise<boolean>((resolve) => (timer = clock.setTimeout(() => resolve(false), policy.closeBarrierMs, "barrier")));
    const proven = await Promise.race([conn.handle.terminate(), barrier]);
    clock.clearTimeout(timer);
    if (!proven) {
      log.error(`mcp ${name}: could not prove that connection ${conn.id} closed within ${policy.closeBarrierMs} ms`);
      void conn.scope.dispose().catch((error: unknown) => log.error(`mcp ${name}: dispose failed`, { error: messageOf(error) }));
      return false;
    }
    await conn.scope.dispose().catch((error: unknown) => log.error(`mcp ${name}: dispose failed`, { error: messageOf(error) }));
    return true;
  }

  function exhausted(lastError: string) {
    gens.unregister();
    setStatus({ state: "failed", error: `Gave up after ${policy.maxAttempts} reconnection attempts. Last error: ${lastError}. Restart the server to try again.` });
  }

  const barrierError = () =>
    new HostError("unavailable:mcp", `The previous connection to "${name}" did not close within ${policy.closeBarrierMs} ms.`, { reason: "close_barrier" });

  function barrierFailed() {
    if (disposed) return;
    gens.unregister();
    setStatus({ state: "failed", error: `The previous connection did not close within ${policy.closeBarrierMs} ms; not reconnecting, to avoid running two copies of the server. Restart it to try again.` });
  }

  return {
    async start() {
      try {
        await attempt(true);
      } catch (error) {
        if (config.failOnStartupError || disposed) throw error;
        log.warn(`mcp ${name}: startup failed, retrying in the background: ${messageOf(error)}`);
        restarts.failed(error);
      }
    },
    view() {
      return {
        status,
        generation: gens.number,
        tools: gens.tools.map(({ publicName, rawName, description, inputSchema, outputSchema }) => ({ publicName, rawName, description, inputSchema, outputSchema })),
        toolsRegistered: gens.registered,
        instructions,
        stderrTail: lastHandle?.stderrTail() ?? "",
        serverInfo,
      };
    },
    dispose() {
      return (disposing ??= (async () => {
        disposed = true;
        restarts.dispose();
        for (const label of [...timers.keys()]) stopTimer(label);
        opening?.abort.abort(new HostError("closed:mcp", `The MCP server "${name}" was stopped.`));
        const conn = current;
        current = undefined;
        if (conn) await end(conn);
        await attempting;
        await Promise.all([...closing]);
        await chain.drain();
        gens.unregister();
        await connections.dispose().catch((error: unknown) => log.error(`mcp ${name}: dispose failed`, { error: messageOf(error) }));
        setStatus({ state: "stopped" });
      })());
    },
  };
}
