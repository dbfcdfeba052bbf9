import { join } from "node:path";
import type { CapabilityRow, McpAuthorizeResult, McpAuthStatus, McpElicitationView, McpLogs } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import { SECRETS_FILE } from "../llm/secrets.js";
import { toolsOf, type ToolRegistry } from "../agent/registry.js";
import type { LiveSources } from "../core/live.js";
import type { Scope } from "../core/scope.js";
import type { SecretSource } from "../llm/secrets.js";
import type { Database } from "../persistence/db.js";
import { create as createHub } from "./hub.js";
import { createMcpService, type McpService } from "./service.js";
import { instructionsBlock } from "./instructions.js";
import { mcpStatus } from "./status.js";
import type { Prober } from "./probe.js";
import { createClientHub } from "./client-hub.js";
import type { ApprovalBroker } from "../permissions/broker.js";
import { createRootsWatch, rootsOf } from "./roots.js";
import type { Log } from "../core/log.js";
import { createLog } from "../core/log.js";
import { createMcpFeatures, type McpFeatures } from "./features.js";
import { registerResourceTools } from "./resource-tools.js";
import { createOAuthManager, type CallbackOutcome, type OAuthManager } from "./oauth/manager.js";
import { createOAuthSecretStore } from "./oauth/secret-store.js";

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
  /** OAuth for Streamable HTTP servers (MCP-11): the Authorization tab and the loopback callback. */
  readonly oauth: OAuthApi;
}

/** What the tRPC layer and the host's HTTP server call for OAuth (`HostApi["mcpOAuth"]`, MCP-11). */
export interface OAuthApi {
  status(name: string): McpAuthStatus;
  /** Builds the authorization URL (state bound to the server, PKCE) for the browser to open. */
  authorize(name: string): Promise<McpAuthorizeResult>;
  /** Deletes the server's tokens from the secrets file and reconnects it (it then shows "needs authorization"). */
  signOut(name: string): Promise<McpAuthStatus>;
  /** `GET /oauth/callback`: checks `state` (single use, 10 min), exchanges the code, reconnects the server. */
  callback(params: URLSearchParams): Promise<CallbackOutcome>;
  /** Where the host's HTTP server listens (`http://127.0.0.1:<port>`): the redirect URI is built from it. */
  listening(origin: string): void;
}

export interface Deps {
  db: Database;
  registry: ToolRegistry;
  /** Resolves the env references of server configs (SEC-2): env first, then the 0600 secrets file (where OAuth tokens live too). */
  secrets: Pick<SecretSource, "get" | "file">;
  /** The host's HTTP origin as configured, until `oauth.listening` reports the real one (MCP-11). */
  callbackOrigin?: string;
  /** OAuth options for tests and the non-interactive mode (MCP-11). */
  oauth?: Pick<Parameters<typeof createOAuthManager>[0], "interaction" | "now" | "fetch">;
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
  // Tells connected servers when the sessions' workspaces change (a connection that starts listening checks too).
  const rootsWatch = createRootsWatch({
    roots,
    listening: () => clientHub.watchingRoots(),
    changed: () => clientHub.rootsChanged(),
    failed: (error) => log.warn(`mcp: could not read the workspaces for roots: ${messageOf(error)}`),
  });
  const noBroker: ApprovalBroker["ask"] = () => Promise.reject(new Error("Seam has no one to ask here."));
  const clientHub = createClientHub({
    broker: deps.broker ?? { ask: noBroker, pending: () => [], answer: () => {}, onChange: () => () => {} },
    roots,
    rootsWatched: () => rootsWatch.check(),
    log,
  });
  const lookup = (name: string) => deps.secrets.get(name)?.value;
  let service: McpService | undefined;
  const configOf = (name: string) => service?.list().find((v) => v.config.name === name)?.config;
  const oauth: OAuthManager = createOAuthManager({
    ...deps.oauth,
    store: createOAuthSecretStore(deps.secrets.file ?? join(".seam", SECRETS_FILE)),
    lookup,
    configOf,
    onAuthorized: (name) => void service?.restart(name).catch((error: unknown) => log.error(`mcp ${name}: reconnecting after sign-in failed: ${messageOf(error)}`)),
  });
  if (deps.callbackOrigin) oauth.setCallbackOrigin(deps.callbackOrigin);
  const hub = createHub(scope, {
    registry: deps.registry, lookup, clientHub,
    oauth: async () => {
      await oauth.load();
      return (config) => oauth.transportParts(config);
    },
  });
  // Tries before saves (MCP-10), in a scope of their own: disposing the capability kills any try still running.
  // The prober (with the MCP SDK) loads with the first try, not at host start.
  let prober: Promise<Prober> | undefined;
  const probe: Prober = async (config, onStep) => {
    prober ??= Promise.all([import("./probe.js"), import("./transport.js")])
      .then(([{ createProber }, { transportFactory }]) => createProber(scope.child("mcp-probes"), { makeTransport: transportFactory(lookup) }));
    return (await prober)(config, onStep);
  };
  service = await createMcpService(scope, { hub, db: deps.db, probe });
  const svc = service;
  const configFor = (name: string) => {
    const config = configOf(name);
    if (!config) throw new HostError("not_found:mcp", `No MCP server named "${name}" is configured.`, { name });
    return config;
  };
  const forget = (name: string) => {
    try {
      oauth.forget(name);
    } catch (error) {
      log.error(`mcp ${name}: could not delete its OAuth record from the secrets file: ${messageOf(error)}`);
    }
  };
  const oauthApi: OAuthApi = {
    status: (name) => oauth.status(configFor(name)),
    authorize: async (name) => oauth.authorize(configFor(name)),
    async signOut(name) {
      const config = configFor(name);
      oauth.signOut(config);
      if (config.enabled) await svc.restart(name);
      return oauth.status(configFor(name));
    },
    callback: (params) => oauth.complete(params),
    listening: (origin) => oauth.setCallbackOrigin(origin),
  };
  const features = createMcpFeatures(hub, (name) => svc.list().find((v) => v.config.name === name));
  // list_mcp_resources / read_mcp_resource, while a ready server advertises resources (MCP-9).
  scope.add(registerResourceTools(deps.registry, features, hub), "mcp:resource-tools");
  const { attachmentsFact, promptInvocation, ...featuresApi } = features;
  return {
    api: {
      ...svc,
      ...featuresApi,
      elicitations: () => clientHub.elicitations(),
      answerElicitation: (input: unknown) => clientHub.answer(input),
      logs: (input: unknown) => clientHub.logs(input),
      setLogLevel: (input: unknown) => clientHub.setLogLevel(input),
      // A renamed server signs in again under its new name; the old name's record leaves the secrets file.
      update: async (name, config, options) => {
        const saved = await svc.update(name, config, options);
        if (saved.config.name !== name) forget(name);
        return saved;
      },
      // A removed server's tokens and registration leave the secrets file with it.
      remove: async (name) => {
        await svc.remove(name);
        forget(name);
      },
    },
    oauth: oauthApi,
    messages: { attachmentsFact, promptInvocation },
    live: { mcp: (signal) => svc.events(signal), ...clientHub.live },
    workspacesChanged: () => rootsWatch.check(),
    status: () => mcpStatus(toolsOf(deps.registry, "mcp"), svc.list()),
    instructions: () => instructionsBlock(hub.list()),
    settled: () => svc.settled(),
  };
}
