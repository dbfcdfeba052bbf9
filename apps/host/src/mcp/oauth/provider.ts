/**
 * The only place that speaks the MCP SDK's OAuth API (MCP-11): Seam's `OAuthClientProvider`, the `auth()`
 * call, and how the SDK reports "authorization needed". Everything else in `mcp/oauth/` works on Seam's
 * own types. It is written against the v2 client package (`@modelcontextprotocol/client`).
 */
import {
  auth, createPrivateKeyJwtAuth, requestJwtAuthorizationGrant, SdkHttpError, UnauthorizedError, type AddClientAuthentication, type OAuthClientMetadata, type OAuthClientProvider,
  type OAuthDiscoveryState, type StoredOAuthClientInformation as OAuthClientInformationMixed, type StoredOAuthTokens as OAuthTokens,
} from "@modelcontextprotocol/client";
import type { McpOAuthSettings } from "@seam/shared";
import type { OAuthSecretStore } from "./secret-store.js";
import type { OAuthSession } from "./session.js";

/** Why a provider is in use: a connection, "Authorize" (fresh sign-in, tokens hidden), or a proactive refresh. */
export type ProviderMode = "connect" | "authorize" | "refresh";

export interface ProviderContext {
  name: string;
  url: string;
  settings: McpOAuthSettings | undefined;
  /** The host's loopback callback (`http://127.0.0.1:<port>/oauth/callback`). */
  redirectUrl: string;
  store: OAuthSecretStore;
  session: OAuthSession;
  /** The pre-registered client's secret, read at use (env, then secrets file); never stored. */
  clientSecret(): string | undefined;
  /** The pre-registered client's private key (PEM) for private_key_jwt, read at use; never stored. */
  privateKey(): string | undefined;
  /** jwt_bearer (SEP-990): the user's ID token from the identity provider and Seam's secret there, read at use. */
  idToken?(): string | undefined;
  idpClientSecret?(): string | undefined;
  now(): number;
  mode: ProviderMode;
  /** The SDK built an authorization URL (state and PKCE included): open it, follow it, or note it. */
  onRedirect(url: URL): Promise<void>;
  /** The `state` for the next authorization URL. */
  makeState(): string;
  /** Refreshes the tokens ahead of their expiry (proactive refresh); resolves either way. */
  refreshSoon(): Promise<void>;
}

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** Refresh this long before the access token expires (at most a fifth of its lifetime). */
export const REFRESH_MARGIN_MS = 60_000;

const scopesOf = (s: string | undefined | null) => (s ?? "").split(/\s+/).filter(Boolean);
/** Whether a token granted `granted` covers everything in `wanted`. */
export const scopeCovers = (granted: string | undefined, wanted: string | undefined) => {
  const have = new Set(scopesOf(granted));
  return scopesOf(wanted).every((s) => have.has(s));
};

export class SeamOAuthProvider implements OAuthClientProvider {
  constructor(private readonly ctx: ProviderContext) {}

  /** The server's settings accept metadata whose issuer differs from where it was fetched (2025-03-26 servers). */
  get allowIssuerMismatch(): boolean {
    return this.ctx.settings?.allowIssuerMismatch === true;
  }

  /** Where discovery found the authorization server and the resource (jwt_bearer asks the IdP for a grant to both). */
  private asUrl: string | undefined;
  private resource: string | undefined;

  /** A client with no browser sign-in: client_credentials (SEP-1046) or an IdP's identity assertion (SEP-990). */
  private get machine(): boolean {
    return this.ctx.settings?.grant === "client_credentials" || this.ctx.settings?.grant === "jwt_bearer";
  }

  saveAuthorizationServerUrl(url: string): void {
    this.asUrl = url;
  }

  authorizationServerUrl(): string | undefined {
    return this.asUrl;
  }

  saveResourceUrl(url: string): void {
    this.resource = url;
  }

  resourceUrl(): string | undefined {
    return this.resource;
  }

  get redirectUrl(): string | undefined {
    return this.machine ? undefined : this.ctx.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.ctx.settings?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const secret = this.ctx.settings?.clientId ? this.ctx.clientSecret() : undefined;
    const machine = this.machine;
    return {
      client_name: "Seam",
      redirect_uris: machine ? [] : [this.ctx.redirectUrl],
      grant_types: this.ctx.settings?.grant === "jwt_bearer" ? [JWT_BEARER] : machine ? ["client_credentials"] : ["authorization_code", "refresh_token"],
      response_types: machine ? [] : ["code"],
      token_endpoint_auth_method: this.ctx.settings?.privateKeyEnv ? "private_key_jwt" : secret ? "client_secret_basic" : "none",
      ...(this.ctx.settings?.scope ? { scope: this.ctx.settings.scope } : {}),
    };
  }

  /**
   * The token request of a client without a browser sign-in: client_credentials, or (jwt_bearer) the identity assertion
   * grant the IdP issues for this server's authorization server and resource; undefined keeps the SDK's
   * authorization_code exchange.
   */
  prepareTokenRequest(): URLSearchParams | Promise<URLSearchParams> | undefined {
    if (!this.machine) return undefined;
    if (this.ctx.settings?.grant === "jwt_bearer") return this.jwtBearerRequest();
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    const scope = this.ctx.session.stepUp ?? this.ctx.session.scope ?? this.ctx.settings?.scope;
    if (scope) params.set("scope", scope);
    return params;
  }

  private async jwtBearerRequest(): Promise<URLSearchParams> {
    const s = this.ctx.settings!;
    const idToken = this.ctx.idToken?.();
    if (!idToken || !s.idpTokenEndpoint || !s.idpClientId) throw new Error("jwt_bearer needs an ID token from the identity provider (idTokenEnv).");
    const scope = this.ctx.session.stepUp ?? this.ctx.session.scope ?? s.scope;
    const secret = this.ctx.idpClientSecret?.();
    const grant = await requestJwtAuthorizationGrant({
      tokenEndpoint: s.idpTokenEndpoint,
      audience: this.asUrl ?? new URL("/", this.ctx.url).href,
      resource: this.resource ?? this.ctx.url,
      idToken,
      clientId: s.idpClientId,
      ...(secret && { clientSecret: secret }),
      ...(scope && { scope }),
    });
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion: grant.jwtAuthGrant });
    if (scope) params.set("scope", scope);
    return params;
  }

  /** private_key_jwt: a signed client assertion replaces the client secret at the token endpoint. */
  get addClientAuthentication(): AddClientAuthentication | undefined {
    const { settings } = this.ctx;
    if (!settings?.privateKeyEnv || !settings.clientId) return undefined;
    const key = this.ctx.privateKey();
    if (!key) return undefined;
    return createPrivateKeyJwtAuth({ issuer: settings.clientId, subject: settings.clientId, privateKey: key, alg: settings.signingAlgorithm ?? "ES256" });
  }

  state(): string {
    return this.ctx.makeState();
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { settings, store, name, url } = this.ctx;
    const stored = store.get(name, url)?.client as (OAuthClientInformationMixed & { issuer?: string }) | undefined;
    if (settings?.clientId) {
      const secret = this.ctx.clientSecret();
      const issuer = stored?.client_id === settings.clientId ? stored.issuer : undefined;
      return { client_id: settings.clientId, ...(secret ? { client_secret: secret } : {}), ...(issuer ? { issuer } : {}) } as OAuthClientInformationMixed;
    }
    if (!stored) return undefined;
    // Registered for another redirect URI (the host moved to another port): register again.
    const uris = (stored as { redirect_uris?: unknown }).redirect_uris;
    if (Array.isArray(uris) && !uris.includes(this.ctx.redirectUrl)) return undefined;
    return stored;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    const { settings, store, name, url } = this.ctx;
    // A pre-registered client keeps only its binding to the authorization server: the secret stays where it is configured.
    const client = settings?.clientId ? { client_id: info.client_id, issuer: (info as { issuer?: string }).issuer } : { ...info };
    store.update(name, url, { client: client as Record<string, unknown> });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    if (this.ctx.mode === "authorize") return undefined;
    let record = this.ctx.store.get(this.ctx.name, this.ctx.url);
    let tokens = record?.tokens as OAuthTokens | undefined;
    if (!tokens) return undefined;
    if (this.ctx.mode === "connect" && tokens.refresh_token && record?.expiresAt && record.savedAt) {
      const margin = Math.min(REFRESH_MARGIN_MS, (record.expiresAt - record.savedAt) / 5);
      if (this.ctx.now() >= record.expiresAt - margin) {
        await this.ctx.refreshSoon();
        record = this.ctx.store.get(this.ctx.name, this.ctx.url);
        tokens = record?.tokens as OAuthTokens | undefined;
        if (!tokens) return undefined;
      }
    }
    // Step-up (insufficient_scope): a refresh cannot add scope, so the SDK must start a new authorization.
    const stepUp = this.ctx.session.stepUp;
    if (stepUp && !scopeCovers(tokens.scope, stepUp)) {
      const { refresh_token: _dropped, ...rest } = tokens;
      return rest;
    }
    return tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    const now = this.ctx.now();
    const expiresAt = typeof tokens.expires_in === "number" ? now + tokens.expires_in * 1000 : null;
    this.ctx.store.update(this.ctx.name, this.ctx.url, { tokens: { ...tokens } as Record<string, unknown>, savedAt: now, expiresAt });
    this.ctx.session.signedIn(tokens.scope);
  }

  redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    return this.ctx.onRedirect(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    if (this.ctx.mode === "refresh") return;
    this.ctx.store.update(this.ctx.name, this.ctx.url, { verifier: codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this.ctx.store.get(this.ctx.name, this.ctx.url)?.verifier;
    if (!verifier) throw new Error("No sign-in is in progress for this server (the PKCE verifier is gone); start again with Authorize.");
    return verifier;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    const { store, name, session } = this.ctx;
    if (scope === "all" || scope === "discovery") session.discovery = undefined;
    if (scope === "discovery") return;
    store.clear(name, scope === "all" ? ["tokens", "client", "verifier", "savedAt", "expiresAt"] : scope === "tokens" ? ["tokens", "savedAt", "expiresAt"] : [scope]);
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.ctx.session.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.ctx.session.discovery as OAuthDiscoveryState | undefined;
  }
}

/** One run of the SDK's authorization orchestration; "REDIRECT" means a person (or the follower) must visit the URL. */
export function runAuth(provider: SeamOAuthProvider, opts: { serverUrl: string; authorizationCode?: string; scope?: string; resourceMetadataUrl?: string; fetchFn?: typeof fetch }): Promise<"AUTHORIZED" | "REDIRECT"> {
  return auth(provider, {
    serverUrl: opts.serverUrl,
    authorizationCode: opts.authorizationCode,
    scope: opts.scope,
    resourceMetadataUrl: opts.resourceMetadataUrl ? new URL(opts.resourceMetadataUrl) : undefined,
    fetchFn: opts.fetchFn,
    ...(provider.allowIssuerMismatch && { skipIssuerMetadataValidation: true }),
  });
}

/** The SDK's way of saying the server wants (more) authorization: `UnauthorizedError`, or a 401 it gave up on. */
export function isAuthError(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof UnauthorizedError) return true;
    if (e instanceof SdkHttpError && e.status === 401) return true;
  }
  return false;
}
