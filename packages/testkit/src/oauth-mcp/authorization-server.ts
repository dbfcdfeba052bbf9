import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** One issued access token, as the protected MCP server sees it. */
export interface IssuedToken {
  token: string;
  /** 1-based issue order: a refresh produces the next number. */
  seq: number;
  subject: string;
  clientId: string;
  scopes: string[];
  resource: string | null;
  expiresAt: number;
  revoked: boolean;
}

export interface AuthorizationServerOptions {
  /** Who signs in (the id_token `sub`). Default `alice@example.test`. */
  subject?: string;
  /** Access token lifetime in seconds. Default 3600. */
  tokenLifetimeSec?: number;
  /** The scopes the server advertises. */
  scopesSupported?: string[];
  /**
   * Pre-registered clients (no dynamic registration needed): with a `secret` (client_secret_basic/post), or with a
   * `publicKey` (JWK) whose private key signs a private_key_jwt assertion (aud = issuer). Either may use client_credentials.
   */
  clients?: { id: string; secret?: string; publicKey?: Record<string, unknown> }[];
}

/**
 * A loopback OAuth 2.1 authorization server for tests (MCP-11): RFC 8414 metadata, dynamic client
 * registration (RFC 7591), an authorize endpoint that approves at once (or denies, when told to) and
 * redirects with a code, and a token endpoint that checks PKCE S256, the redirect URI and the client,
 * issues refresh tokens and honours them. Bounded: at most 1,000 clients, codes and tokens each, 64 KiB bodies.
 */
export interface AuthorizationServer {
  readonly issuer: string;
  /** What happened, for assertions. */
  readonly stats: { registrations: number; authorizations: number; codeGrants: number; refreshGrants: number; clientCredentialsGrants: number; rejectedTokenRequests: number; lastResource: string | null; lastScope: string | null };
  /** The authorize endpoint answers `error=access_denied` while this is set. */
  deny: boolean;
  subject: string;
  tokenLifetimeSec: number;
  lookup(token: string): IssuedToken | undefined;
  /** Makes every access token issued so far invalid (the refresh tokens stay). */
  revokeAccessTokens(): void;
  close(): Promise<void>;
}

const LIMIT = 1_000;
const BODY_MAX = 64 * 1024;

const b64url = (b: Buffer) => b.toString("base64url");
const random = () => b64url(randomBytes(24));

async function readBody(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > BODY_MAX) throw new Error("body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

const bounded = <K, V>(map: Map<K, V>, key: K, value: V) => {
  if (map.size >= LIMIT) map.delete(map.keys().next().value as K);
  map.set(key, value);
};

/** An unsigned JWT-shaped id_token: enough for a client to show who signed in. */
const idToken = (issuer: string, subject: string, audience: string) =>
  `${b64url(Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })))}.${b64url(Buffer.from(JSON.stringify({ iss: issuer, sub: subject, aud: audience, iat: Math.floor(Date.now() / 1000) })))}.`;

export async function startAuthorizationServer(opts: AuthorizationServerOptions = {}): Promise<AuthorizationServer> {
  const clients = new Map<string, { redirectUris: string[]; secret?: string; publicKey?: Record<string, unknown> }>();
  for (const c of opts.clients ?? []) clients.set(c.id, { redirectUris: [], secret: c.secret, publicKey: c.publicKey });
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; scopes: string[]; resource: string | null; subject: string; expiresAt: number }>();
  const tokens = new Map<string, IssuedToken>();
  const refreshTokens = new Map<string, { clientId: string; scopes: string[]; resource: string | null; subject: string }>();
  let seq = 0;
  let issuer = "";

  const as: AuthorizationServer = {
    get issuer() {
      return issuer;
    },
    stats: { registrations: 0, authorizations: 0, codeGrants: 0, refreshGrants: 0, clientCredentialsGrants: 0, rejectedTokenRequests: 0, lastResource: null, lastScope: null },
    deny: false,
    subject: opts.subject ?? "alice@example.test",
    tokenLifetimeSec: opts.tokenLifetimeSec ?? 3600,
    lookup: (token) => tokens.get(token),
    revokeAccessTokens() {
      for (const t of tokens.values()) t.revoked = true;
    },
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };

  const issue = (clientId: string, scopes: string[], resource: string | null, subject: string) => {
    const access: IssuedToken = { token: random(), seq: ++seq, subject, clientId, scopes, resource, expiresAt: Date.now() + as.tokenLifetimeSec * 1000, revoked: false };
    bounded(tokens, access.token, access);
    const refresh = random();
    bounded(refreshTokens, refresh, { clientId, scopes, resource, subject });
    return {
      access_token: access.token, token_type: "Bearer", expires_in: as.tokenLifetimeSec, refresh_token: refresh, scope: scopes.join(" "),
      id_token: idToken(issuer, subject, clientId),
    };
  };

  const tokenError = (res: ServerResponse, error: string, description: string) => {
    as.stats.rejectedTokenRequests++;
    json(res, 400, { error, error_description: description });
  };

  const clientOf = async (req: IncomingMessage, form: URLSearchParams): Promise<string | undefined> => {
    if (form.get("client_assertion_type") === "urn:ietf:params:oauth:client-assertion-type:jwt-bearer") {
      const { decodeJwt, importJWK, jwtVerify } = await import("jose");
      const assertion = form.get("client_assertion") ?? "";
      const id = String(decodeJwt(assertion).iss ?? "");
      const c = clients.get(id);
      if (!c?.publicKey) return undefined;
      try {
        const { payload } = await jwtVerify(assertion, await importJWK(c.publicKey, String(c.publicKey.alg ?? "ES256")), { audience: [issuer, `${issuer}/`] });
        return payload.sub === id ? id : undefined;
      } catch {
        return undefined;
      }
    }
    const basic = req.headers.authorization;
    if (basic?.startsWith("Basic ")) {
      const [id, secret] = Buffer.from(basic.slice(6), "base64").toString("utf8").split(":").map(decodeURIComponent);
      const c = id ? clients.get(id) : undefined;
      return c && c.secret === secret ? id : undefined;
    }
    const id = form.get("client_id") ?? undefined;
    const c = id ? clients.get(id) : undefined;
    if (!c) return undefined;
    if (c.secret !== undefined && form.get("client_secret") !== c.secret) return undefined;
    return id;
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => json(res, 500, { error: "server_error", error_description: String(error) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", issuer);
    if (req.method === "GET" && url.pathname === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"], grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"], code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"], token_endpoint_auth_signing_alg_values_supported: ["ES256"], scopes_supported: opts.scopesSupported ?? ["mcp:read", "mcp:admin"],
      });
    }
    if (req.method === "POST" && url.pathname === "/register") {
      const meta = JSON.parse(await readBody(req)) as { redirect_uris?: unknown; token_endpoint_auth_method?: string };
      if (!Array.isArray(meta.redirect_uris) || meta.redirect_uris.some((u) => typeof u !== "string")) {
        return json(res, 400, { error: "invalid_redirect_uri", error_description: "redirect_uris must be a list of URLs" });
      }
      const clientId = `client-${random().slice(0, 10)}`;
      bounded(clients, clientId, { redirectUris: meta.redirect_uris as string[] });
      as.stats.registrations++;
      return json(res, 201, { ...meta, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) });
    }
    if (req.method === "GET" && url.pathname === "/authorize") {
      const p = url.searchParams;
      const client = clients.get(p.get("client_id") ?? "");
      const redirectUri = p.get("redirect_uri") ?? "";
      if (!client || !client.redirectUris.includes(redirectUri)) {
        res.writeHead(400, { "content-type": "text/plain" });
        return res.end("Unknown client or redirect_uri.");
      }
      const back = new URL(redirectUri);
      const state = p.get("state");
      if (state !== null) back.searchParams.set("state", state);
      if (p.get("response_type") !== "code" || p.get("code_challenge_method") !== "S256" || !p.get("code_challenge")) {
        back.searchParams.set("error", "invalid_request");
        back.searchParams.set("error_description", "PKCE S256 and response_type=code are required");
      } else if (as.deny) {
        back.searchParams.set("error", "access_denied");
        back.searchParams.set("error_description", "The user said no");
      } else {
        const code = random();
        const scopes = (p.get("scope") ?? "").split(/\s+/).filter(Boolean);
        as.stats.authorizations++;
        as.stats.lastResource = p.get("resource");
        as.stats.lastScope = p.get("scope");
        bounded(codes, code, { clientId: p.get("client_id")!, redirectUri, challenge: p.get("code_challenge")!, scopes, resource: p.get("resource"), subject: as.subject, expiresAt: Date.now() + 60_000 });
        back.searchParams.set("code", code);
      }
      res.writeHead(302, { location: back.toString() });
      return res.end();
    }
    if (req.method === "POST" && url.pathname === "/token") {
      const form = new URLSearchParams(await readBody(req));
      const clientId = await clientOf(req, form);
      if (!clientId) return json(res, 401, { error: "invalid_client", error_description: "unknown client" });
      if (form.get("grant_type") === "authorization_code") {
        const code = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        if (!code || code.expiresAt < Date.now() || code.clientId !== clientId) return tokenError(res, "invalid_grant", "unknown, used or expired code");
        if (form.get("redirect_uri") !== code.redirectUri) return tokenError(res, "invalid_grant", "redirect_uri does not match");
        const verifier = form.get("code_verifier") ?? "";
        if (b64url(createHash("sha256").update(verifier).digest()) !== code.challenge) return tokenError(res, "invalid_grant", "PKCE verification failed");
        as.stats.codeGrants++;
        return json(res, 200, issue(clientId, code.scopes, form.get("resource") ?? code.resource, code.subject));
      }
      if (form.get("grant_type") === "refresh_token") {
        const rt = form.get("refresh_token") ?? "";
        const grant = refreshTokens.get(rt);
        if (!grant || grant.clientId !== clientId) return tokenError(res, "invalid_grant", "unknown refresh token");
        refreshTokens.delete(rt); // rotation: each refresh token works once
        as.stats.refreshGrants++;
        return json(res, 200, issue(clientId, grant.scopes, grant.resource, grant.subject));
      }
      if (form.get("grant_type") === "client_credentials") {
        const c = clients.get(clientId)!;
        if (c.secret === undefined && c.publicKey === undefined) return tokenError(res, "unauthorized_client", "a public client cannot use client_credentials");
        as.stats.clientCredentialsGrants++;
        as.stats.lastScope = form.get("scope");
        const scopes = (form.get("scope") ?? "").split(/\s+/).filter(Boolean);
        const { refresh_token: _none, id_token: _noId, ...rest } = issue(clientId, scopes, form.get("resource"), clientId);
        return json(res, 200, rest);
      }
      return tokenError(res, "unsupported_grant_type", "only authorization_code, refresh_token and client_credentials");
    }
    json(res, 404, { error: "not_found" });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  issuer = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return as;
}
