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
import { createMcpFeatures, type McpFeatures } from "./features.js";
import { registerResourceTools } from "./resource-tools.js";

/**
 * What the tRPC layer calls (`HostApi["mcp"]`): saved servers with their live state; a change is saved only once the
 * host confirmed it (MCP-10); resources, prompts and "try a tool" on the live connections (MCP-9).
 */
export type Api = Omit<McpService, "events" | "settled"> & Omit<McpFeatures, "attachmentsFact" | "promptInvocation">;

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
  /** For the sessions (MCP-9): a message's attached resources, and `/mcp__server__prompt` messages, as facts. */
  readonly messages: Pick<McpFeatures, "attachmentsFact" | "promptInvocation">;
}

export interface Deps {
  db: Database;
  registry: ToolRegistry;
  /** Resolves the env references of server configs (SEC-2): env first, then the 0600 secrets file. */
  secrets: Pick<SecretSource, "get">;
}

/** Starts the hub (supervised servers, generation sync) and the service that saves and manages their configs. */
export async function create(scope: Scope, deps: Deps): Promise<Interface> {
  const hub = createHub(scope, { registry: deps.registry, lookup: (name) => deps.secrets.get(name)?.value });
  const service = await createMcpService(scope, { hub, db: deps.db });
  const features = createMcpFeatures(hub, (name) => service.list().find((v) => v.config.name === name));
  // list_mcp_resources / read_mcp_resource, while a ready server advertises resources (MCP-9).
  scope.add(registerResourceTools(deps.registry, features, hub), "mcp:resource-tools");
  const { attachmentsFact, promptInvocation, ...featuresApi } = features;
  return {
    api: { ...service, ...featuresApi },
    messages: { attachmentsFact, promptInvocation },
    live: { mcp: (signal) => service.events(signal) },
    status: () => mcpStatus(toolsOf(deps.registry, "mcp"), service.list()),
    instructions: () => instructionsBlock(hub.list()),
    settled: () => service.settled(),
  };
}
