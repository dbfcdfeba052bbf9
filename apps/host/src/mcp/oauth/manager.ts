import { randomBytes } from "node:crypto";
import type { McpAuthorizeResult, McpAuthStatus, McpServerConfig } from "@seam/shared";
import { HostError, isHostError, messageOf } from "../../core/errors.js";
import type { ValueLookup } from "../transport.js";
import { authStatus, usesOAuth } from "./auth-status.js";
import { dedupeRefreshes } from "./refresh-dedupe.js";
import type { ProviderMode, SeamOAuthProvider } from "./provider.js";
import type { OAuthSecretStore } from "./secret-store.js";
import { OAuthSession, resourceMetadataUrlOf } from "./session.js";
import { watchChallenges } from "./watch-fetch.js";
import { createLog } from "../../core/log.js";

/** provider.ts holds the MCP SDK: loaded with the first connection or sign-in, not at host start (#17). */
type Sdk = typeof import("./provider.js");

/** How long an authorization URL's `state` stays valid (single use). */
export const FLOW_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = "/oauth/callback";

/** The outcome of the loopback callback, shown as a small page. */
export interface CallbackOutcome {
  ok: boolean;
  status: number;
  name: string | null;
  message: string;
}

/** What the transport of one http connection needs: the SDK's provider and a fetch that notices step-up challenges. */
export interface OAuthTransportParts {
  authProvider: SeamOAuthProvider;
  fetch: typeof fetch;
  stepUpPending(): boolean;
}

export interface OAuthManagerDeps {
  store: OAuthSecretStore;
  /** Reads the pre-registered client's secret (env, then secrets file). */
  lookup: ValueLookup;
  /** The saved config of a server, to finish a sign-in for it. */
  configOf(name: string): McpServerConfig | undefined;
  /** A sign-in finished: the server should connect (again). Not awaited. */
  onAuthorized(name: string): void;
  /** The auth state of a server changed (for the live view). */
  onChange?(name: string): void;
  /**
   * `browser` (the host): an authorization URL waits for a person to press Authorize. `follow`
   * (non-interactive, e.g. conformance): the URL is fetched at once without a browser and the redirect
   * to the callback is completed in-process, through the same state checks as the callback route.
   */
  interaction?: "browser" | "follow";
  now?: () => number;
  fetch?: typeof fetch;
  warn?: (message: string) => void;
}

export type OAuthManager = ReturnType<typeof createOAuthManager>;

const httpOf = (config: McpServerConfig) => (config.transport.type === "http" ? config.transport : undefined);

export { usesOAuth };

/**
 * Seam's side of MCP authorization (MCP-11): one OAuth session per server, the providers its connections
 * use, "Authorize" (an authorization URL bound to the server by `state`, PKCE), the loopback callback that
 * finishes it, sign-out and the status the Authorization tab shows. The SDK does discovery, registration,
 * PKCE, scope selection, refresh and the resource indicator (provider.ts).
 */
export function createOAuthManager(deps: OAuthManagerDeps) {
  const now = deps.now ?? Date.now;
  // Every request of the OAuth flows (the SDK's token requests included) goes through it: one refresh per refresh token.
  const doFetch = dedupeRefreshes(deps.fetch ?? fetch, deps.now);
  const warn = deps.warn ?? ((m: string) => createLog("mcp").warn(m));
  const interaction = deps.interaction ?? "browser";
  const sessions = new Map<string, OAuthSession>();
  /** state → the sign-in it belongs to; deleted on first use. */
  const flows = new Map<string, { name: string; url: string; expiresAt: number }>();
  const refreshing = new Map<string, Promise<void>>();
  let callbackOrigin: string | undefined;
  let sdk: Sdk | undefined;
  const load = async (): Promise<Sdk> => (sdk ??= await import("./provider.js"));
  const loaded = (): Sdk => {
    if (!sdk) throw new Error("mcp/oauth: provider.ts is not loaded yet");
    return sdk;
  };

  const changed = (name: string) => deps.onChange?.(name);

  const sessionOf = (name: string, url: string): OAuthSession => {
    let s = sessions.get(name);
    if (!s || s.url !== url) {
      s = new OAuthSession(url);
      sessions.set(name, s);
    }
    return s;
  };

  const redirectUrl = () => `${callbackOrigin ?? "http://127.0.0.1:4317"}${CALLBACK_PATH}`;

  /** A value the OAuth settings name (env var or secrets-file key), read at use; a missing one is an error in words. */
  const readNamed = (config: McpServerConfig, key: "clientSecretEnv" | "privateKeyEnv" | "idTokenEnv" | "idpClientSecretEnv", what: string) => () => {
    const env = httpOf(config)?.oauth?.[key];
    if (!env) return undefined;
    const value = deps.lookup(env);
    if (value === undefined) {
      throw new HostError("bad_input:mcp", `The OAuth ${what} of "${config.name}" needs ${env}, which is neither set in the host's environment nor in $SEAM_HOME/secrets.json.`, { reason: "missing_env", variable: env });
    }
    return value;
  };

  const newState = () => randomBytes(24).toString("base64url");

  function provider(config: McpServerConfig, mode: ProviderMode, onRedirect: (url: URL) => Promise<void>, makeState: () => string = newState): SeamOAuthProvider {
    const t = httpOf(config)!;
    const session = sessionOf(config.name, t.url);
    return new (loaded().SeamOAuthProvider)({
      name: config.name,
      url: t.url,
      settings: t.oauth,
      redirectUrl: redirectUrl(),
      store: deps.store,
      session,
      clientSecret: readNamed(config, "clientSecretEnv", "client secret"),
      privateKey: readNamed(config, "privateKeyEnv", "private key"),
      idToken: readNamed(config, "idTokenEnv", "ID token"),
      idpClientSecret: readNamed(config, "idpClientSecretEnv", "identity provider client secret"),
      now,
      mode,
      onRedirect,
      makeState,
      refreshSoon: () => refresh(config),
    });
  }

  /** Proactive refresh before expiry; one at a time per server. A failure leaves it to the 401 path. */
  function refresh(config: McpServerConfig): Promise<void> {
    const name = config.name;
    const running = refreshing.get(name);
    if (running) return running;
    const t = httpOf(config)!;
    const session = sessionOf(name, t.url);
    const run = loaded().runAuth(provider(config, "refresh", async () => undefined), {
      serverUrl: t.url, scope: session.scope, resourceMetadataUrl: resourceMetadataUrlOf(session.discovery), fetchFn: doFetch,
    }).then(() => changed(name), (error: unknown) => warn(`${name}: refreshing the OAuth token failed: ${messageOf(error)}`))
      .finally(() => refreshing.delete(name));
    refreshing.set(name, run);
    return run;
  }

  /** Registers `state` for a sign-in of `config`, replacing an older pending one of the same server. */
  function beginFlow(config: McpServerConfig): string {
    const t = httpOf(config)!;
    const session = sessionOf(config.name, t.url);
    if (session.pending) flows.delete(session.pending.state);
    const state = newState();
    const expiresAt = now() + FLOW_TTL_MS;
    flows.set(state, { name: config.name, url: t.url, expiresAt });
    session.pending = { state, expiresAt };
    return state;
  }

  /** The connection's own authorization attempts (401 on connect, step-up, failed refresh). */
  function onConnectRedirect(config: McpServerConfig, session: OAuthSession) {
    return async (url: URL) => {
      session.scope = url.searchParams.get("scope") ?? session.scope;
      if (interaction === "follow") {
        await follow(url);
        return;
      }
      const hadTokens = deps.store.get(config.name, session.url)?.tokens !== undefined;
      session.needs = session.stepUp
        ? `The server asked for more permissions (scope "${session.stepUp}"). Sign in again to grant them.`
        : hadTokens
          ? "The sign-in expired and could not be refreshed. Sign in again."
          : "The server requires you to sign in. Press Authorize to sign in in a new tab.";
      changed(config.name);
    };
  }

  /** Non-interactive mode: fetch the authorization URL and complete its redirect in-process. */
  async function follow(url: URL): Promise<void> {
    const res = await doFetch(url, { redirect: "manual" });
    await res.body?.cancel();
    const location = res.headers.get("location");
    if (!location) throw new Error(`The authorization endpoint answered ${res.status} without redirecting back.`);
    const back = new URL(location, url);
    const outcome = await complete(back.searchParams);
    if (!outcome.ok) throw new Error(outcome.message);
  }

  /** Finishes a sign-in from the callback's query (code or error, and state). Never throws. */
  async function complete(params: URLSearchParams): Promise<CallbackOutcome> {
    const state = params.get("state");
    const flow = state ? flows.get(state) : undefined;
    if (!state || !flow) {
      return { ok: false, status: 400, name: null, message: "This sign-in link is not known to Seam, or it was already used. Start again with Authorize on the server's Authorization tab." };
    }
    flows.delete(state);
    const session = sessionOf(flow.name, flow.url);
    if (session.pending?.state === state) session.pending = null;
    const fail = (status: number, message: string): CallbackOutcome => {
      session.lastError = message;
      changed(flow.name);
      return { ok: false, status, name: flow.name, message };
    };
    if (now() > flow.expiresAt) return fail(400, "This sign-in took longer than 10 minutes and expired. Start again with Authorize.");
    const config = deps.configOf(flow.name);
    const t = config ? httpOf(config) : undefined;
    if (!config || !t || t.url !== flow.url) {
      return fail(409, `The MCP server "${flow.name}" was removed or its URL changed while signing in. Start again with Authorize.`);
    }
    const error = params.get("error");
    if (error) {
      const description = params.get("error_description")?.slice(0, 300);
      const why = error === "access_denied" ? "Access was denied" : `The authorization server answered "${error}"`;
      return fail(400, `${why}${description ? `: ${description}` : ""}. Nothing was saved; try Authorize again.`);
    }
    const code = params.get("code");
    if (!code) return fail(400, "The authorization server redirected back without a code. Try Authorize again.");
    try {
      await load();
      const p = provider(config, "connect", async () => undefined);
      await (await load()).runAuth(p, {
        serverUrl: t.url, authorizationCode: code, scope: session.stepUp ?? session.scope, resourceMetadataUrl: resourceMetadataUrlOf(session.discovery), fetchFn: doFetch,
      });
    } catch (e) {
      // Seam's own problem (e.g. the secrets file is not 0600) says what to fix; anything else came from the token endpoint.
      if (isHostError(e)) return fail(500, `Could not finish signing in: ${e.message}`);
      return fail(502, `The authorization server did not accept the sign-in: ${messageOf(e)}. Try Authorize again.`);
    } finally {
      try {
        deps.store.clear(flow.name, ["verifier"]);
      } catch {
        // The verifier is single-use anyway; an unwritable secrets file is what the message above reports.
      }
    }
    session.needs = null;
    session.lastError = null;
    changed(flow.name);
    deps.onAuthorized(flow.name);
    return { ok: true, status: 200, name: flow.name, message: "Signed in — you can close this tab." };
  }

  return {
    /** Sets where the host's HTTP server listens; the redirect URI is `<origin>/oauth/callback`. */
    setCallbackOrigin(origin: string) {
      callbackOrigin = origin.replace(/\/+$/, "");
    },
    redirectUrl,

    /** The provider and fetch for one http connection; undefined when the server does not use OAuth. */
    transportParts(config: McpServerConfig): OAuthTransportParts | undefined {
      if (!usesOAuth(config)) return undefined;
      const t = httpOf(config)!;
      const session = sessionOf(config.name, t.url);
      const watching = watchChallenges(doFetch, session, () => (deps.store.get(config.name, t.url)?.tokens as { access_token?: unknown } | undefined)?.access_token);
      // Following needs the connection's own state registered; a browser sign-in gets a fresh one from Authorize.
      const makeState = interaction === "follow" ? () => beginFlow(config) : newState;
      return { authProvider: provider(config, "connect", onConnectRedirect(config, session), makeState), fetch: watching, stepUpPending: () => session.stepUp !== undefined };
    },

    /** Loads the SDK part; `transportParts` needs it (the hub awaits it with its other modules). */
    load: async () => void (await load()),

    /** Why the server needs authorization now (null: it does not, as far as Seam knows). */
    needs(config: McpServerConfig): string | null {
      const t = httpOf(config);
      return t ? sessionOf(config.name, t.url).needs ?? null : null;
    },

    /** A step-up is pending for the server (a call needs more scope than the token has). */
    stepUpPending(config: McpServerConfig): boolean {
      const t = httpOf(config);
      return t ? sessionOf(config.name, t.url).stepUp !== undefined : false;
    },

    /** "Authorize": builds the authorization URL (discovery, registration, PKCE, state bound to the server). */
    async authorize(config: McpServerConfig): Promise<McpAuthorizeResult> {
      const t = httpOf(config);
      if (!t) throw new HostError("bad_input:mcp", `"${config.name}" runs over stdio; OAuth applies to Streamable HTTP servers only.`, { reason: "not_http" });
      if (t.oauth?.grant === "client_credentials" || t.oauth?.grant === "jwt_bearer") {
        throw new HostError("bad_input:mcp", `"${config.name}" signs in as a machine client (client_credentials), with no browser: it gets its token when it connects. Restart it to get a new one.`, { reason: "client_credentials" });
      }
      if (!usesOAuth(config)) {
        throw new HostError("bad_input:mcp", `"${config.name}" sends its own Authorization (bearerTokenEnv or an Authorization header). Remove it to sign in with OAuth instead.`, { reason: "static_authorization" });
      }
      const session = sessionOf(config.name, t.url);
      const { runAuth } = await load();
      let captured: URL | undefined;
      let state = "";
      const p = provider(config, "authorize", async (url) => void (captured = url), () => (state = beginFlow(config)));
      try {
        const scope = session.stepUp ?? session.scope ?? t.oauth?.scope;
        await runAuth(p, { serverUrl: t.url, scope, resourceMetadataUrl: resourceMetadataUrlOf(session.discovery), fetchFn: doFetch });
      } catch (error) {
        if (state) flows.delete(state);
        session.pending = null;
        session.lastError = `Could not start signing in: ${messageOf(error)}`;
        changed(config.name);
        throw new HostError("unavailable:mcp", `Could not start signing in to "${config.name}": ${messageOf(error)}. Check the server URL and that its authorization server is reachable.`, { reason: "oauth_start_failed" });
      }
      if (!captured || !session.pending) {
        throw new HostError("unavailable:mcp", `The authorization server of "${config.name}" did not need a browser sign-in; reconnect the server instead.`, { reason: "oauth_no_redirect" });
      }
      session.lastError = null;
      changed(config.name);
      return { name: config.name, url: captured.toString(), expiresAt: new Date(session.pending.expiresAt).toISOString() };
    },

    complete,

    /** Deletes the server's tokens and pending sign-in (the client registration stays for the next sign-in). */
    signOut(config: McpServerConfig) {
      deps.store.clear(config.name, ["tokens", "verifier", "savedAt", "expiresAt"]);
      const s = sessions.get(config.name);
      if (s?.pending) flows.delete(s.pending.state);
      sessions.delete(config.name);
      changed(config.name);
    },

    /** Forgets a removed server: its record leaves the secrets file. */
    forget(name: string) {
      deps.store.clear(name);
      const s = sessions.get(name);
      if (s?.pending) flows.delete(s.pending.state);
      sessions.delete(name);
    },

    status(config: McpServerConfig): McpAuthStatus {
      const t = httpOf(config);
      const s = t ? sessionOf(config.name, t.url) : undefined;
      return authStatus(config, s, () => deps.store.get(config.name, t!.url), now());
    },
  };
}
