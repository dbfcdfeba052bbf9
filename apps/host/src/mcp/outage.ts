import { isHostError, messageOf } from "../core/errors.js";
import { createRestartLoop, type RestartPolicy } from "../core/supervisor.js";
import { closeConnection, type Connection } from "./connection.js";
import type { ServerState } from "./server-state.js";
import type { SupervisorPolicy } from "./supervisor-types.js";
import { withChildSignal } from "./sync.js";

/** MCP-5 as the core supervisor's schedule: doubling from `initialDelayMs`, budget reset after `stableMs` up. */
const restartPolicy = (p: SupervisorPolicy): RestartPolicy => ({
  initialDelayMs: p.initialDelayMs, factor: 2, maxDelayMs: p.maxDelayMs, maxAttempts: p.maxAttempts, resetAfterUpMs: p.stableMs,
});

export type Outages = ReturnType<typeof createOutages>;

/**
 * A server's health and recovery (MCP-5): a connection goes live, is watched (stdio exit, HTTP pings),
 * and when it goes away the last good generation stays while calls fail and `reconnect` runs on the
 * restart loop's backoff. Exhaustion, or a connection that cannot prove it closed, unregisters all tools.
 */
export function createOutages(s: ServerState, reconnect: () => Promise<void>) {
  const { name, log, policy } = s;
  /** Outage teardowns in flight (close barrier, then the next retry); dispose waits for them. */
  const closing = new Set<Promise<void>>();

  const restarts = createRestartLoop({
    policy: restartPolicy(policy),
    clock: s.clock,
    start: reconnect,
    isFatal: (error) => isHostError(error) && (error.publicCode === "close_barrier" || error.publicCode === "needs_authorization"),
    onRetry: ({ attempt, maxAttempts, delayMs }, error) =>
      s.setStatus({ state: "retrying", attempt, maxAttempts, nextRetryAt: new Date(s.clock.now() + delayMs).toISOString(), lastError: messageOf(error) }),
    onGiveUp: (reason, error) => (reason === "fatal" ? (isHostError(error) && error.publicCode === "needs_authorization" ? needsAuthorization(s, messageOf(error)) : barrierFailed(s)) : exhausted(s, messageOf(error))),
  });

  function goLive(conn: Connection) {
    conn.live = true;
    s.current = conn;
    s.setStatus({ state: "ready", since: new Date(s.clock.now()).toISOString() });
    restarts.up();
    if (conn.handle.kind === "http" && policy.httpPingIntervalMs > 0) schedulePing(conn);
  }

  function schedulePing(conn: Connection) {
    s.timers.start("ping", policy.httpPingIntervalMs, () => {
      void probe(conn).then(() => {
        if (conn === s.current && conn.live) schedulePing(conn);
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
    if (conn.handle.kind === "stdio") s.onChange(); // e.g. the process exited: its stderr is now worth reading
    // An HTTP transport reports a dropped event stream as an error, not a close: check whether the server is still there.
    if (conn.handle.kind === "http" && conn.live) void probe(conn);
  }

  /** A live connection went away: keep the generation, fail calls, reconnect with backoff (MCP-5). */
  function lose(conn: Connection, reason: string) {
    if (conn.ended || s.disposed) return;
    if (!conn.live) return; // an attempt in progress fails on its own
    conn.live = false;
    if (s.current === conn) s.current = undefined;
    restarts.down();
    s.timers.stop("ping");
    log.warn(`mcp ${name}: connection lost: ${reason}`);
    const teardown = (async () => {
      if (!(await end(conn))) return barrierFailed(s);
      restarts.failed(reason);
    })();
    closing.add(teardown);
    void teardown.finally(() => closing.delete(teardown));
  }

  /** Ends a connection (no longer current) behind the close barrier; false when its peer may still run. */
  function end(conn: Connection): Promise<boolean> {
    if (s.current === conn) s.current = undefined;
    return closeConnection(conn, { name, clock: s.clock, log, barrierMs: policy.closeBarrierMs });
  }

  return {
    restarts,
    goLive,
    onError,
    lose,
    end,
    /** Waits for the outage teardowns in flight. */
    drain: () => Promise.all([...closing]).then(() => undefined),
  };
}

/** Out of attempts: the tools go until a person restarts the server. */
function exhausted(s: ServerState, lastError: string) {
  s.gens.unregister();
  s.setStatus({ state: "failed", error: `Gave up after ${s.policy.maxAttempts} reconnection attempts. Last error: ${lastError}. Restart the server to try again.` });
}

/** A connection that cannot prove it closed: no reconnection, so two copies of the server never run. */
function barrierFailed(s: ServerState) {
  if (s.disposed) return;
  s.gens.unregister();
  s.setStatus({ state: "failed", error: `The previous connection did not close within ${s.policy.closeBarrierMs} ms; not reconnecting, to avoid running two copies of the server. Restart it to try again.` });
}

/** The server wants a sign-in (MCP-11): its tools go, nothing retries until a sign-in restarts it. */
function needsAuthorization(s: ServerState, reason: string) {
  if (s.disposed) return;
  s.gens.unregister();
  s.setStatus({ state: "needs_authorization", reason });
}
