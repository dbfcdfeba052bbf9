import { mcpToolApproval, mcpToolEnabled, type McpServerConfig, type McpServerView } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import type { Log } from "../core/log.js";
import type { Scope } from "../core/scope.js";
import { restartDelay, systemClock } from "../core/supervisor.js";
import type { ToolRegistry } from "../agent/registry.js";
import { callTool, notConnected } from "./calls.js";
import { createConnector } from "./connect.js";
import { createOutages } from "./outage.js";
import { createServerState } from "./server-state.js";
import { mcpToolDef } from "./tool.js";
import { SerialChain, ToolGenerations, type FetchLimits } from "./sync.js";
import type { Clock, SupervisorPolicy } from "./supervisor-types.js";
import { createTransport, type TransportFactory } from "./transport.js";
import type { ClientHub } from "./client-hub.js";
import type { CallContext } from "./surface-types.js";
import type { LiveServer } from "./live-server.js";

export { systemClock };

export type { Clock, SupervisorPolicy, TimerLabel } from "./supervisor-types.js";

export const DEFAULT_POLICY: SupervisorPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  maxAttempts: 10,
  stableMs: 30_000,
  closeBarrierMs: 10_000,
  httpPingIntervalMs: 15_000,
};

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
  /** The client surface (MCP-12, MCP-13); absent: the client declares no capabilities. */
  clientHub?: ClientHub;
}

export interface Supervisor {
  /** First connection and full discovery (MCP-3): rejects only when `failOnStartupError`, else retries in the background. */
  start(): Promise<void>;
  view(): Omit<McpServerView, "config">;
  /** Applies new enabledTools/disabledTools/approval settings (MCP-8): the registrations are redone, the connection stays. */
  setPolicy(next: McpServerConfig): Promise<void>;
  /** Cancels timers, closes the client, drains attempts and the sync chain, then unregisters (MCP-5). Idempotent. */
  dispose(): Promise<void>;
  /** The live connection for resources, prompts and "try a tool" (MCP-9); undefined unless ready. */
  live(): LiveServer | undefined;
}

/** One server: connect, discover, keep the tool generation in sync, recover from outages (MCP-3..5). */
export function createSupervisor(opts: SupervisorOptions): Supervisor {
  const { config, log } = opts;
  const name = config.name;
  /** The policy fields (MCP-8); `setPolicy` replaces them without reconnecting. */
  let policy: Pick<McpServerConfig, "enabledTools" | "disabledTools" | "approval" | "toolApproval"> = config;
  const gens = new ToolGenerations(
    opts.registry,
    (tool, generation) => mcpToolDef(name, tool, generation, config.callTimeoutMs, send, mcpToolApproval(policy, tool.rawName)),
    (tool) => mcpToolEnabled(policy, tool.rawName),
  );
  const s = createServerState({
    config, log, gens, chain: new SerialChain(), onChange: opts.onChange, clock: opts.clock ?? systemClock, policy: { ...DEFAULT_POLICY, ...opts.policy },
  });
  const connections = opts.scope.child("connections");
  const outages = createOutages(s, () => connector.attempt(false));
  const serverClient = opts.clientHub?.forServer(name);
  /** Grows on every resources/prompts list_changed of the live connection (MCP-9). */
  let featuresRevision = 0;
  const connector = createConnector(s, {
    connections, makeTransport: opts.transport ?? createTransport, limits: opts.limits, outages,
    ...(serverClient ? { client: { server: serverClient } } : {}),
    listChanged: (conn) => {
      if (conn !== s.current || s.disposed) return;
      featuresRevision++;
      s.onChange();
    },
  });
  let disposing: Promise<void> | undefined;

  /** tools/call on the live connection; fails fast with generation_unavailable during an outage (MCP-5). */
  async function send(rawName: string, generation: number, args: Record<string, unknown>, signal: AbortSignal, call?: CallContext): Promise<unknown> {
    const conn = s.current;
    if (!conn?.live || generation !== gens.number || !gens.registered) throw notConnected(name, rawName, s.status);
    // Tracked while in flight: an elicitation meanwhile is asked in this call's session (MCP-12).
    const untrack = call && serverClient ? serverClient.track(call) : undefined;
    try {
      return await callTool(conn, name, rawName, args, signal, config.callTimeoutMs, (reason) => outages.lose(conn, reason), call);
    } finally {
      untrack?.();
    }
  }

  return {
    async start() {
      try {
        await connector.attempt(true);
      } catch (error) {
        // A server that wants a sign-in is up and answering: it is kept (needs_authorization) so the user can sign in (MCP-11).
        const signIn = error instanceof HostError && error.publicCode === "needs_authorization";
        if ((config.failOnStartupError && !signIn) || s.disposed) throw error;
        log.warn(`mcp ${name}: startup failed, retrying in the background: ${messageOf(error)}`);
        outages.restarts.failed(error);
      }
    },
    view() {
      return {
        status: s.status,
        generation: gens.number,
        tools: gens.tools.map(({ publicName, rawName, description, inputSchema, outputSchema, readOnlyHint }) => ({
          publicName, rawName, description, inputSchema, outputSchema,
          enabled: mcpToolEnabled(policy, rawName), approval: mcpToolApproval(policy, rawName), readOnly: readOnlyHint,
        })),
        toolsRegistered: gens.registered,
        instructions: s.instructions,
        stderrTail: s.lastHandle?.stderrTail() ?? "",
        serverInfo: s.serverInfo,
        ...(s.current?.live ? { features: { ...capabilitiesOf(s.current), revision: featuresRevision } } : {}),
      };
    },
    setPolicy(next) {
      policy = next;
      // On the sync chain, so it never interleaves with a swap.
      return s.chain.run(async () => {
        if (s.disposed) return;
        const conflict = gens.resync();
        if (conflict) log.error(`mcp ${name}: ${conflict.message}`);
        s.onChange();
      });
    },
    dispose() {
      return (disposing ??= (async () => {
        s.disposed = true;
        outages.restarts.dispose();
        s.timers.stopAll();
        s.opening?.abort.abort(new HostError("closed:mcp", `The MCP server "${name}" was stopped.`));
        const conn = s.current;
        s.current = undefined;
        if (conn) await outages.end(conn);
        await s.attempting;
        await outages.drain();
        await s.chain.drain();
        gens.unregister();
        await connections.dispose().catch((error: unknown) => log.error(`mcp ${name}: dispose failed`, { error: messageOf(error) }));
        s.setStatus({ state: "stopped" });
      })());
    },
    live() {
      const conn = s.current;
      if (!conn?.live || s.disposed) return undefined;
      return {
        name,
        connection: conn,
        capabilities: capabilitiesOf(conn),
        timeoutMs: config.callTimeoutMs,
        async tryTool(rawName, args, signal) {
          const tool = gens.tools.find((t) => t.rawName === rawName);
          if (!tool) {
            throw new HostError("not_found:mcp", `The MCP server "${name}" lists no tool named "${rawName}". Reload the server's tool list and pick one of its tools.`, { reason: "unknown_tool" });
          }
          // The bridge's own entry (argument check, call, canonical result), on this connection, outside the policy.
          const def = mcpToolDef(name, tool, gens.number, config.callTimeoutMs, (raw, _generation, a, sig) =>
            callTool(conn, name, raw, a, sig, config.callTimeoutMs, (reason) => outages.lose(conn, reason)));
          const parsed = def.parse(args);
          if (!parsed.ok) throw new HostError("bad_input:mcp", `The arguments for ${rawName} do not match its input schema: ${parsed.message}`, { reason: "invalid_arguments" });
          const deadline = AbortSignal.any([signal, AbortSignal.timeout(config.callTimeoutMs)]);
          try {
            return await def.run(parsed.value, { signal: deadline, sessionId: "", workspace: "", callId: "try" });
          } catch (error) {
            if (!signal.aborted && deadline.aborted) {
              throw new HostError("timeout:mcp", `${rawName} did not answer within ${config.callTimeoutMs / 1000} s (the server's call timeout).`, { reason: "timeout" });
            }
            throw error;
          }
        },
      };
    },
  };
}

function capabilitiesOf(conn: { client: { getServerCapabilities(): { resources?: unknown; prompts?: unknown } | undefined } }) {
  const caps = conn.client.getServerCapabilities();
  return { resources: Boolean(caps?.resources), prompts: Boolean(caps?.prompts) };
}
