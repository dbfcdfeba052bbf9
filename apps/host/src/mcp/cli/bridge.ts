import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyElicitDefaults, McpServerConfig, type McpElicitationView, type McpServerConfigInput } from "@seam/shared";
import { createToolRegistry } from "../../agent/registry.js";
import { createToolRuntime, type ToolOutcome } from "../../agent/runtime.js";
import { HostError, messageOf } from "../../core/errors.js";
import { createLog, type Log } from "../../core/log.js";
import { createScope } from "../../core/scope.js";
import type { ApprovalBroker } from "../../permissions/broker.js";
import { createClientHub } from "../client-hub.js";
import { create as createHub, type McpHub } from "../hub.js";
import { rootsOf } from "../roots.js";
import { createOAuthManager } from "../oauth/manager.js";
import { createOAuthSecretStore } from "../oauth/secret-store.js";
import type { TransportFactory } from "../transport.js";

/** How the CLI answers a server's `elicitation/create` with no person to ask: accept with the schema's defaults, or decline. */
export type Answering = "defaults" | "decline";

export interface BridgeOptions {
  answering?: Answering;
  transport?: TransportFactory;
  log?: Log;
  /**
   * OAuth without a person (MCP-11): an authorization URL is followed at once with fetch, the tokens kept in a
   * throwaway 0600 secrets file for this run only. `secrets` answers the names in `transport.oauth`.
   */
  oauth?: { secrets: Record<string, string> };
}

/** One MCP server behind Seam's own bridge (hub, supervisor, client surface, tool runtime), for the CLI. */
export interface CliBridge {
  readonly hub: McpHub;
  readonly name: string;
  /** The tools the model would get, with their schemas as Seam keeps them. */
  tools(): { publicName: string; rawName: string; description: string; inputSchema: Record<string, unknown> }[];
  /** How many non-interactive sign-ins completed so far (OAuth). */
  signIns(): number;
  /** Resolves once more than `seen` sign-ins completed, or after `timeoutMs`. */
  signedInAfter(seen: number, timeoutMs: number): Promise<void>;
  /** Connects again if the server is not ready (after a sign-in), and waits for it, at most `timeoutMs`. */
  ready(timeoutMs: number): Promise<void>;
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
  const parsed = McpServerConfig.parse({ ...config, failOnStartupError: true });
  const name = parsed.name;
  let signIns = 0;
  const waiters = new Set<() => void>();
  const authorized = () => {
    signIns++;
    for (const w of [...waiters]) w();
  };
  const signedInAfter = (seen: number, timeoutMs: number) =>
    new Promise<void>((resolve) => {
      if (signIns > seen) return resolve();
      const check = () => {
        if (signIns > seen) done();
      };
      const done = () => {
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      waiters.add(check);
    });
  let oauthParts: (() => Promise<(c: McpServerConfig) => ReturnType<ReturnType<typeof createOAuthManager>["transportParts"]>>) | undefined;
  if (opts.oauth) {
    const dir = mkdtempSync(join(tmpdir(), "seam-mcp-cli-"));
    scope.add(() => rmSync(dir, { recursive: true, force: true }), "mcp-cli:secrets");
    const secrets = opts.oauth.secrets;
    const manager = createOAuthManager({
      store: createOAuthSecretStore(join(dir, "secrets.json")),
      lookup: (key) => secrets[key],
      configOf: () => parsed,
      onAuthorized: () => authorized(),
      interaction: "follow",
      warn: (m) => log.warn(m),
    });
    manager.setCallbackOrigin("http://127.0.0.1:9");
    oauthParts = async () => {
      await manager.load();
      return (c) => manager.transportParts(c);
    };
  }
  const hub = createHub(scope, { registry, log, clientHub, ...(opts.transport && { transport: opts.transport }), ...(oauthParts && { oauth: oauthParts }) });
  try {
    await hub.start(parsed);
    // A first connection that had to sign in ends unauthorized (the SDK's flow); the next one uses the new tokens.
    if (opts.oauth && hub.list().find((v) => v.config.name === name)?.status.state === "needs_authorization") {
      await signedInAfter(0, parsed.startupTimeoutMs);
      await hub.restart(name);
    }
  } catch (error) {
    await scope.dispose().catch(() => undefined);
    throw error;
  }
  const runtime = createToolRuntime({ registry });
  let calls = 0;
  const view = () => hub.list().find((v) => v.config.name === name);
  return {
    hub,
    name,
    signIns: () => signIns,
    signedInAfter,
    async ready(timeoutMs) {
      const state = () => hub.list().find((v) => v.config.name === name)?.status.state;
      if (state() === "ready") return;
      if (state() === "needs_authorization" || state() === "failed") await hub.restart(name);
      const until = Date.now() + timeoutMs;
      while (state() !== "ready" && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    },
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
