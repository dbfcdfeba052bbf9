import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { startAuthorizationServer, type AuthorizationServer, type AuthorizationServerOptions, type IssuedToken } from "./authorization-server.js";

export interface OAuthMcpFixtureOptions extends AuthorizationServerOptions {
  /** The scope every MCP request needs (and the 401 challenge names). Default `mcp:read`. */
  baseScope?: string;
  /** The extra scope the `admin-echo` tool needs (403 insufficient_scope without it). Default `mcp:admin`. */
  adminScope?: string;
  /** The 403 names the scope but leaves `error="insufficient_scope"` to the JSON body (as some servers do). */
  stepUpErrorInBodyOnly?: boolean;
}

/**
 * A protected Streamable HTTP MCP server plus its authorization server, both on 127.0.0.1 (MCP-11 tests).
 * Every `/mcp` request needs a bearer token the authorization server issued for this resource: without one
 * the answer is 401 with `WWW-Authenticate: Bearer resource_metadata=…, scope=…` (RFC 9728). The MCP side is
 * the SDK's `McpServer` over a stateless `StreamableHTTPServerTransport` with two tools: `whoami` echoes the
 * token's subject and issue number, `admin-echo` needs the admin scope (403 `insufficient_scope` otherwise).
 */
export interface OAuthMcpFixture {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly resourceMetadataUrl: string;
  readonly as: AuthorizationServer;
  /** Requests that reached /mcp, with whether they carried a valid token. */
  readonly requests: { authorized: boolean; status: number; tokenSeq: number | null }[];
  close(): Promise<void>;
}

const BODY_MAX = 1024 * 1024;

export async function startOAuthMcpFixture(opts: OAuthMcpFixtureOptions = {}): Promise<OAuthMcpFixture> {
  const baseScope = opts.baseScope ?? "mcp:read";
  const adminScope = opts.adminScope ?? "mcp:admin";
  const as = await startAuthorizationServer({ scopesSupported: [baseScope, adminScope], ...opts });
  let origin = "";
  const requests: OAuthMcpFixture["requests"] = [];
  const record = (r: OAuthMcpFixture["requests"][number]) => {
    if (requests.length >= 10_000) requests.shift();
    requests.push(r);
  };

  const prm = () => ({ resource: `${origin}/mcp`, authorization_servers: [as.issuer], scopes_supported: [baseScope, adminScope], bearer_methods_supported: ["header"] });
  const challenge = (extra = "") => `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp", scope="${baseScope}"${extra}`;

  const mcpFor = (token: IssuedToken) => {
    const server = new McpServer({ name: "oauth-fixture", version: "1.0.0" });
    server.registerTool("whoami", { description: "Says who the access token belongs to.", annotations: { readOnlyHint: true } }, async () => ({
      content: [{ type: "text", text: `subject=${token.subject} token#${token.seq} scopes=${token.scopes.join(",")}` }],
    }));
    server.registerTool("admin-echo", { description: `Needs the ${adminScope} scope.`, annotations: { readOnlyHint: true } }, async () => ({
      content: [{ type: "text", text: `admin ok for ${token.subject} (token#${token.seq})` }],
    }));
    return server;
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", origin);
    if (req.method === "GET" && (url.pathname === "/.well-known/oauth-protected-resource/mcp" || url.pathname === "/.well-known/oauth-protected-resource")) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(prm()));
    }
    if (url.pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    const bearer = req.headers.authorization?.startsWith("Bearer ") ? req.headers.authorization.slice(7) : undefined;
    const token = bearer ? as.lookup(bearer) : undefined;
    const valid = token && !token.revoked && token.expiresAt > Date.now() && token.scopes.includes(baseScope) && (token.resource === null || token.resource === `${origin}/mcp`);
    if (!valid) {
      record({ authorized: false, status: 401, tokenSeq: null });
      res.writeHead(401, { "www-authenticate": challenge(bearer ? ', error="invalid_token"' : ""), "content-type": "application/json" });
      return res.end(JSON.stringify({ error: "invalid_token" }));
    }
    let body: unknown;
    if (req.method === "POST") {
      let size = 0;
      const chunks: Buffer[] = [];
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > BODY_MAX) {
          res.writeHead(413).end();
          return;
        }
        chunks.push(chunk);
      }
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const calls = (Array.isArray(body) ? body : [body]) as { method?: string; params?: { name?: string } }[];
      if (calls.some((m) => m.method === "tools/call" && m.params?.name === "admin-echo") && !token.scopes.includes(adminScope)) {
        record({ authorized: true, status: 403, tokenSeq: token.seq });
        res.writeHead(403, {
          "www-authenticate": `Bearer ${opts.stepUpErrorInBodyOnly ? "" : 'error="insufficient_scope", '}scope="${baseScope} ${adminScope}", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          "content-type": "application/json",
        });
        return res.end(JSON.stringify({ error: "insufficient_scope" }));
      }
    }
    record({ authorized: true, status: 200, tokenSeq: token.seq });
    const mcp = mcpFor(token);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    url: `${origin}/mcp`,
    resourceMetadataUrl: `${origin}/.well-known/oauth-protected-resource/mcp`,
    as,
    requests,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await as.close();
    },
  };
}
