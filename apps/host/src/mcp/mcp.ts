import type { CapabilityRow, McpElicitationView, McpLogs } from "@seam/shared";
import { toolsOf, type ToolRegistry } from "../agent/registry.js";
import type { LiveSources } from "../core/live.js";
import type { Scope } from "../core/scope.js";
import type { SecretSource } from "../llm/secrets.js";
import type { Database } from "../persistence/db.js";
import { create as createHub } from "./hub.js";
import { createMcpService, type McpService } from "./service.js";
import { instructionsBlock } from "./instructions.js";
import { mcpStatus } from "./status.js";
import { createProber } from "./probe.js";
import { transportFactory } from "./transport.js";
import { createClientHub } from "./client-hub.js";
import type { ApprovalBroker } from "../permissions/broker.js";
import { rootsKey, rootsOf } from "./roots.js";
import type { Log } from "../core/log.js";
import { createLog } from "../core/log.js";
import { messageOf } from "../core/errors.js";
import { createMcpFeatures, type McpFeatures } from "./features.js";
import { registerResourceTools } from "./resource-tools.js";

/**
 * What the tRPC layer calls (`HostApi["mcp"]`): saved servers with their live state; a change is saved only once the
 * host confirmed it (MCP-10); resources, prompts and "try a tool" on the live connections (MCP-9); elicitations and
 * server logs (MCP-12, MCP-13).
 */
export type Api = Omit<McpService, "events" | "settled"> & Omit<McpFeatures, "attachmentsFact" | "promptInvocation"> & ClientApi;

/** The client surface's part of the API (MCP-12): pending elicitations, their answers, each server's logs. */
export interface ClientApi {
  elicitations(): McpElicitationView[];
  answerElicitation(input: unknown): void;
  logs(input: unknown): McpLogs;
  setLogLevel(input: unknown): Promise<McpLogs>;
}

/** The MCP capability (MCP-1..7, MCP-10): servers' tools bridged into the registry, their management and overview row. */
export interface Interface {
  readonly api: Api;
  /** Live topic `mcp`: every server's view now, then after each burst of changes. */
  readonly live: Pick<LiveSources, "mcp" | "elicitations" | "mcpLogs">;
  /** The workspaces of the sessions may have changed: servers are told when the roots did (MCP-13). */
  workspacesChanged(): void;
  status(): CapabilityRow;
  /** The servers' instructions block for the system prompt (MCP-8), "" when none applies. */
  instructions(): string;
  /** Resolves when the start-up activations have settled (tests, diagnostics). */
  settled(): Promise<void>;
  /** For the sessions (MCP-9): a message's attached resources, and `/mcp__server__prompt` messages, as facts. */
  readonly messages: Pick<McpFeatures, "attachmentsFact" | "promptInvocation">;
}

export interface Deps {
  db: Database;
  registry: ToolRegistry;
  /** Resolves the env references of server configs (SEC-2): env first, then the 0600 secrets file. */
  secrets: Pick<SecretSource, "get">;
  /** Elicitation requests wait on it like approvals (MCP-12); absent: servers' elicitations are declined. */
  broker?: ApprovalBroker;
  /** The sessions' workspaces, most recently used first: the roots (MCP-13). Default: the saved sessions'. */
  workspaces?: () => Promise<string[]>;
  log?: Log;
}

/** Starts the hub (supervised servers, generation sync) and the service that saves and manages their configs. */
export async function create(scope: Scope, deps: Deps): Promise<Interface> {
  const log = deps.log ?? createLog("mcp");
  const workspaces = deps.workspaces ?? (async () => (await deps.db.store.sessions.list()).map((s) => s.workspace));
  const roots = async () => rootsOf(await workspaces());
  const noBroker: ApprovalBroker["ask"] = () => Promise.reject(new Error("Seam has no one to ask here."));
  const clientHub = createClientHub({
    broker: deps.broker ?? { ask: noBroker, pending: () => [], answer: () => {}, onChange: () => () => {} },
    roots,
    log,
  });
  const lookup = (name: string) => deps.secrets.get(name)?.value;
  const hub = createHub(scope, { registry: deps.registry, lookup, clientHub });
  // Tries before saves (MCP-10), in a scope of their own: disposing the capability kills any try still running.
  const probe = createProber(scope.child("mcp-probes"), { makeTransport: transportFactory(lookup) });
  const service = await createMcpService(scope, { hub, db: deps.db, probe });
  let lastRoots: string | null = null;
  let checking = Promise.resolve();
  const workspacesChanged = () => {
    checking = checking.then(async () => {
      const key = rootsKey(await roots());
      if (lastRoots !== null && key !== lastRoots) clientHub.rootsChanged();
      lastRoots = key;
    }).catch((error: unknown) => log.warn(`mcp: could not read the workspaces for roots: ${messageOf(error)}`));
  };
  workspacesChanged();
  const features = createMcpFeatures(hub, (name) => service.list().find((v) => v.config.name === name));
  // list_mcp_resources / read_mcp_resource, while a ready server advertises resources (MCP-9).
  scope.add(registerResourceTools(deps.registry, features, hub), "mcp:resource-tools");
  const { attachmentsFact, promptInvocation, ...featuresApi } = features;
  return {
    api: Object.assign(service, featuresApi, {
      elicitations: () => clientHub.elicitations(),
      answerElicitation: (input: unknown) => clientHub.answer(input),
      logs: (input: unknown) => clientHub.logs(input),
      setLogLevel: (input: unknown) => clientHub.setLogLevel(input),
    }),
    messages: { attachmentsFact, promptInvocation },
    live: { mcp: (signal) => service.events(signal), ...clientHub.live },
    workspacesChanged,
    status: () => mcpStatus(toolsOf(deps.registry, "mcp"), service.list()),
    instructions: () => instructionsBlock(hub.list()),
    settled: () => service.settled(),
  };
}
