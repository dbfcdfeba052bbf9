import { join } from "node:path";
import type { CapabilityRow, McpAuthorizeResult, McpAuthStatus } from "@seam/shared";
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
import { createOAuthManager, type CallbackOutcome, type OAuthManager } from "./oauth/manager.js";
import { createOAuthSecretStore } from "./oauth/secret-store.js";

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
}

/** Starts the hub (supervised servers, generation sync) and the service that saves and manages their configs. */
export async function create(scope: Scope, deps: Deps): Promise<Interface> {
  const lookup = (name: string) => deps.secrets.get(name)?.value;
  let service: McpService | undefined;
  const configOf = (name: string) => service?.list().find((v) => v.config.name === name)?.config;
  const oauth: OAuthManager = createOAuthManager({
    ...deps.oauth,
    store: createOAuthSecretStore(deps.secrets.file ?? join(".seam", SECRETS_FILE)),
    lookup,
    configOf,
    onAuthorized: (name) => void service?.restart(name).catch((error: unknown) => console.error(`[mcp] ${name}: reconnecting after sign-in failed: ${messageOf(error)}`)),
  });
  if (deps.callbackOrigin) oauth.setCallbackOrigin(deps.callbackOrigin);
  const hub = createHub(scope, {
    registry: deps.registry, lookup,
    oauth: async () => {
      await oauth.load();
      return (config) => oauth.transportParts(config);
    },
  });
  service = await createMcpService(scope, { hub, db: deps.db });
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
      console.error(`[mcp] ${name}: could not delete its OAuth record from the secrets file: ${messageOf(error)}`);
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
  return {
    api: {
      ...service,
      // A renamed server signs in again under its new name; the old name's record leaves the secrets file.
      update: async (name, config) => {
        const view = await svc.update(name, config);
        if (view.config.name !== name) forget(name);
        return view;
      },
      // A removed server's tokens and registration leave the secrets file with it.
      remove: async (name) => {
        await svc.remove(name);
        forget(name);
      },
    },
    oauth: oauthApi,
    live: { mcp: (signal) => service.events(signal) },
    status: () => mcpStatus(toolsOf(deps.registry, "mcp"), service.list()),
    instructions: () => instructionsBlock(hub.list()),
    settled: () => service.settled(),
  };
}
