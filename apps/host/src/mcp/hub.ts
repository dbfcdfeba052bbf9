import { formatIssues, McpServerConfig, type McpServerConfigInput, type McpServerState, type McpServerView } from "@seam/shared";
import { HostError } from "../core/errors.js";
import { createLog, type Log } from "../core/log.js";
import type { Disposer, Scope } from "../core/scope.js";
import type { ToolRegistry } from "../agent/registry.js";
import type { Clock, Supervisor, SupervisorPolicy } from "./supervisor.js";
import type { FetchLimits } from "./sync.js";
import type { OAuthParts, TransportFactory, ValueLookup } from "./transport.js";
import type { ClientHub } from "./client-hub.js";
import type { LiveServer } from "./live-server.js";

export type Info = McpServerView;
export type Status = McpServerState;

/** The MCP bridge: one supervised client per configured server, its tools in the registry (MCP-1..7). */
export interface Interface {
  /**
   * Activates a server (MCP-3). A live server of the same name → HostError conflict:mcp before connecting.
   * Waits for the first connection and full discovery, at most `startupTimeoutMs`. With
   * `failOnStartupError` a failure rejects and nothing stays behind; otherwise it resolves with the server
   * retrying in the background and no tools. `enabled: false` records the server as "disabled" only.
   */
  start(config: McpServerConfigInput): Promise<void>;
  /** Disposes the server (tools unregistered, process tree killed) and forgets it. No-op if unknown. */
  stop(name: string): Promise<void>;
  /** Stop + start with the same config: resets the retry budget and leaves "failed". */
  restart(name: string): Promise<void>;
  /**
   * Replaces a live server's policy fields (enabledTools, disabledTools, approval, toolApproval; MCP-8) without
   * reconnecting: its tools are registered again under the new policy. not_found:mcp when unknown.
   */
  setPolicy(config: McpServerConfig): Promise<void>;
  /** Every known server, by name. */
  list(): McpServerView[];
  get(name: string): McpServerView | undefined;
  /** Fires with the server name on every state, generation or stderr-relevant change. */
  onChange(fn: (name: string) => void): Disposer;
  /**
   * The server's live connection for resources, prompts and "try a tool" (MCP-9). not_found:mcp when unknown,
   * unavailable:mcp (`not_connected`) unless it is ready.
   */
  live(name: string): LiveServer;
}
export type McpHub = Interface;

export interface Deps {
  registry: ToolRegistry;
  log?: Log;
  /** For tests and tools: how to connect, which timers, which policy. */
  transport?: TransportFactory;
  /** Without `transport`: how the default transports resolve a config's env references. */
  lookup?: ValueLookup;
  /** Without `transport`: OAuth for http servers (MCP-11), loaded with the other modules. */
  oauth?: () => Promise<OAuthParts>;
  clock?: Clock;
  policy?: Partial<SupervisorPolicy>;
  limits?: Partial<Omit<FetchLimits, "signal">>;
  /** The client surface every server gets (MCP-12, MCP-13): elicitation, roots, logs. */
  clientHub?: ClientHub;
}

interface Entry {
  config: McpServerConfig;
  supervisor: Supervisor | undefined;
  scope: Scope | undefined;
  /** Set while stop() runs: the name stays taken until the old process is gone. */
  stopping: Promise<void> | undefined;
}

async function loadModules() {
  const [{ createSupervisor }, { transportFactory }] = await Promise.all([import("./supervisor.js"), import("./transport.js")]);
  return { createSupervisor, transportFactory };
}

export function create(scope: Scope, deps: Deps): Interface {
  const log = deps.log ?? createLog("mcp");
  const servers = new Map<string, Entry>();
  const listeners = new Set<{ fn: (name: string) => void }>();
  // Runs last: every server's scope is a child created later, so each is disposed (and unregistered) first.
  scope.add(() => servers.clear(), "mcp:servers");

  const changed = (name: string) => {
    for (const { fn } of [...listeners]) {
      try {
        fn(name);
      } catch (error) {
        log.error("mcp: change listener failed", { error });
      }
    }
  };

  const viewOf = (entry: Entry): McpServerView => {
    const base = entry.supervisor?.view();
    return {
      config: entry.config,
      status: base?.status ?? (entry.stopping ? { state: "stopped" } : { state: "disabled" }),
      generation: base?.generation ?? 0,
      tools: base?.tools ?? [],
      toolsRegistered: base?.toolsRegistered ?? false,
      instructions: base?.instructions ?? null,
      stderrTail: base?.stderrTail ?? "",
      serverInfo: base?.serverInfo ?? null,
      ...(base?.features ? { features: base.features } : {}),
    };
  };

  const stop = async (name: string) => {
    const entry = servers.get(name);
    if (!entry) return;
    entry.stopping ??= (async () => {
      try {
        await entry.scope?.dispose();
      } finally {
        servers.delete(name);
        deps.clientHub?.forget(name);
        changed(name);
      }
    })();
    return entry.stopping;
  };

  const hub: Interface = {
    async start(input) {
      const parsed = McpServerConfig.safeParse(input);
      if (!parsed.success) {
        throw new HostError("bad_input:mcp", `Invalid MCP server config: ${formatIssues(parsed.error, { root: "(config)" })}`);
      }
      const config = parsed.data;
      const name = config.name;
      // The supervisor, the MCP SDK and ajv (~0.5 s of imports, ~30 MB) load with the first enabled server, not at host start.
      const modules = config.enabled ? await loadModules() : undefined;
      const oauth = config.enabled && deps.oauth ? await deps.oauth() : undefined;
      if (scope.disposed) throw new HostError("closed:mcp", `Cannot start MCP server "${name}": the MCP hub is shut down.`);
      if (servers.has(name)) {
        throw new HostError("conflict:mcp", `An MCP server named "${name}" is already running; stop it first or choose another name.`, { reason: "duplicate_server" });
      }
      const entry: Entry = { config, supervisor: undefined, scope: undefined, stopping: undefined };
      servers.set(name, entry);
      if (!config.enabled) {
        changed(name);
        return;
      }
      const serverScope = scope.child(`mcp:${name}`);
      entry.scope = serverScope;
      const supervisor = modules!.createSupervisor({
        config,
        scope: serverScope,
        registry: deps.registry,
        log,
        onChange: () => changed(name),
        transport: deps.transport ?? (deps.lookup || deps.oauth ? modules!.transportFactory(deps.lookup ?? ((n) => process.env[n]), oauth) : undefined),
        clock: deps.clock,
        policy: deps.policy,
        limits: deps.limits,
        clientHub: deps.clientHub,
      });
      entry.supervisor = supervisor;
      // Added after the supervisor created its connection scope, so it runs first: close, drain, unregister, then kill.
      serverScope.add(() => supervisor.dispose(), "supervisor");
      try {
        await supervisor.start();
      } catch (error) {
        await stop(name);
        throw error;
      }
    },

    stop,

    async restart(name) {
      const entry = servers.get(name);
      if (!entry) throw new HostError("not_found:mcp", `There is no MCP server named "${name}".`);
      await stop(name);
      await hub.start(entry.config);
    },

    async setPolicy(next) {
      const entry = servers.get(next.name);
      if (!entry) throw new HostError("not_found:mcp", `There is no MCP server named "${next.name}".`);
      entry.config = next;
      if (entry.supervisor) await entry.supervisor.setPolicy(next);
      else changed(next.name);
    },

    list() {
      return [...servers.values()].map(viewOf).sort((a, b) => (a.config.name < b.config.name ? -1 : a.config.name > b.config.name ? 1 : 0));
    },

    get(name) {
      const entry = servers.get(name);
      return entry ? viewOf(entry) : undefined;
    },

    onChange(fn) {
      const listener = { fn };
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    live(name) {
      const entry = servers.get(name);
      if (!entry) throw new HostError("not_found:mcp", `There is no MCP server named "${name}". Check the name on the MCP page.`, { reason: "unknown_server", name });
      const live = entry.stopping ? undefined : entry.supervisor?.live();
      if (!live) {
        const state = viewOf(entry).status.state;
        throw new HostError("unavailable:mcp", `The MCP server "${name}" is not connected (it is ${state}). Wait until it is ready, or enable or restart it on the MCP page.`, { reason: "not_connected", name, state });
      }
      return live;
    },
  };
  return hub;
}

/** The brief's name for `create`. */
export const createMcpHub = create;

