import type { CapabilityRow } from "@seam/shared";
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

/** What the tRPC layer calls (`HostApi["mcp"]`): saved servers with their live state; a change is saved only once the host confirmed it (MCP-10). */
export type Api = Omit<McpService, "events" | "settled">;

/** The MCP capability (MCP-1..7, MCP-10): servers' tools bridged into the registry, their management and overview row. */
export interface Interface {
  readonly api: Api;
  /** Live topic `mcp`: every server's view now, then after each burst of changes. */
  readonly live: Pick<LiveSources, "mcp">;
  status(): CapabilityRow;
  /** The servers' instructions block for the system prompt (MCP-8), "" when none applies. */
  instructions(): string;
  /** Resolves when the start-up activations have settled (tests, diagnostics). */
  settled(): Promise<void>;
}

export interface Deps {
  db: Database;
  registry: ToolRegistry;
  /** Resolves the env references of server configs (SEC-2): env first, then the 0600 secrets file. */
  secrets: Pick<SecretSource, "get">;
}

/** Starts the hub (supervised servers, generation sync) and the service that saves and manages their configs. */
export async function create(scope: Scope, deps: Deps): Promise<Interface> {
  const lookup = (name: string) => deps.secrets.get(name)?.value;
  const hub = createHub(scope, { registry: deps.registry, lookup });
  // Tries before saves (MCP-10), in a scope of their own: disposing the capability kills any try still running.
  const probe = createProber(scope.child("mcp-probes"), { makeTransport: transportFactory(lookup) });
  const service = await createMcpService(scope, { hub, db: deps.db, probe });
  return {
    api: service,
    live: { mcp: (signal) => service.events(signal) },
    status: () => mcpStatus(toolsOf(deps.registry, "mcp"), service.list()),
    instructions: () => instructionsBlock(hub.list()),
    settled: () => service.settled(),
  };
}
