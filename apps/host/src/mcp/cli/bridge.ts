import { applyElicitDefaults, type McpElicitationView, type McpServerConfigInput } from "@seam/shared";
import { createToolRegistry } from "../../agent/registry.js";
import { createToolRuntime, type ToolOutcome } from "../../agent/runtime.js";
import { HostError, messageOf } from "../../core/errors.js";
import { createLog, type Log } from "../../core/log.js";
import { createScope } from "../../core/scope.js";
import type { ApprovalBroker } from "../../permissions/broker.js";
import { createClientHub } from "../client-hub.js";
import { create as createHub, type McpHub } from "../hub.js";
import { rootsOf } from "../roots.js";
import type { TransportFactory } from "../transport.js";

/** How the CLI answers a server's `elicitation/create` with no person to ask: accept with the schema's defaults, or decline. */
export type Answering = "defaults" | "decline";

export interface BridgeOptions {
  answering?: Answering;
  transport?: TransportFactory;
  log?: Log;
}

/** One MCP server behind Seam's own bridge (hub, supervisor, client surface, tool runtime), for the CLI. */
export interface CliBridge {
  readonly hub: McpHub;
  readonly name: string;
  /** The tools the model would get, with their schemas as Seam keeps them. */
  tools(): { publicName: string; rawName: string; description: string; inputSchema: Record<string, unknown> }[];
  /** Calls one tool by its raw or public name through the same runtime a chat uses. */
  call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome>;
  close(): Promise<void>;
}

/**
 * Starts `config` in a hub of its own (failOnStartupError, so a server that cannot start is an error here) and
 * returns the bridge once its tools are registered. `elicitation/create` gets a headless answer (MCP-12): the CLI has
 * no form to show.
 */
export async function openBridge(config: McpServerConfigInput, opts: BridgeOptions = {}): Promise<CliBridge> {
  const log = opts.log ?? createLog("mcp-cli", () => {});
  const scope = createScope("mcp-cli", { slowDisposeMs: Infinity });
  const registry = createToolRegistry();
  const clientHub = createClientHub({ broker: headlessBroker(opts.answering ?? "defaults"), roots: async () => rootsOf([process.cwd()]), log });
  const hub = createHub(scope, { registry, log, clientHub, ...(opts.transport && { transport: opts.transport }) });
  try {
    await hub.start({ ...config, failOnStartupError: true });
  } catch (error) {
    await scope.dispose().catch(() => undefined);
    throw error;
  }
  const name = config.name;
  const runtime = createToolRuntime({ registry });
  let calls = 0;
  const view = () => hub.list().find((v) => v.config.name === name);
  return {
    hub,
    name,
    tools: () => (view()?.tools ?? []).map(({ publicName, rawName, description, inputSchema }) => ({ publicName, rawName, description, inputSchema })),
    async call(tool, args, signal = new AbortController().signal) {
      const found = view()?.tools.find((t) => t.rawName === tool || t.publicName === tool);
      if (!found) {
        throw new HostError("not_found:mcp", `The server "${name}" has no tool "${tool}". Run list-tools to see its tools.`, { reason: "unknown_tool" });
      }
      return runtime.invoke({ sessionId: "mcp-cli", workspace: process.cwd(), callId: `cli-${++calls}`, name: found.publicName, args, signal });
    },
    close: () => scope.dispose(),
  };
}

/** A broker with nobody behind it: elicitations are answered at once; nothing else is ever asked here. */
function headlessBroker(answering: Answering): Pick<ApprovalBroker, "ask" | "pending" | "answer" | "onChange"> {
  return {
    async ask<V, A>(request: { kind: string; view(id: string, requestedAt: string): V }): Promise<A> {
      const view = request.view("cli", new Date().toISOString()) as McpElicitationView;
      if (answering === "decline" || view.mode !== "form") return { action: "decline", reason: "the command line cannot answer requests for input" } as A;
      try {
        return { action: "accept", content: applyElicitDefaults(view.requestedSchema, {}) } as A;
      } catch (error) {
        return { action: "decline", reason: messageOf(error) } as A;
      }
    },
    pending: () => [],
    answer: () => {},
    onChange: () => () => {},
  };
}
