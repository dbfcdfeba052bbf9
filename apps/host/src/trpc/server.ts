import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { Scope } from "../core/scope.js";
import type { HostApi } from "../host-api.js";
import { refusal, type AuthPolicy } from "./auth.js";
import { BODY_MAX_BYTES, BODY_TOO_LARGE } from "./limits.js";
import { appRouter } from "./root.js";
import { CALLBACK_PATH } from "../mcp/oauth/manager.js";
import { callbackPage } from "../mcp/oauth/callback-page.js";
import { createLog } from "../core/log.js";
import { probePath, serveProbe } from "./probes.js";

const log = createLog("trpc");

export interface ServeOptions { host: HostApi; policy: AuthPolicy; bind: string; port: number }

/**
 * Starts the tRPC endpoint at `/trpc/`, behind the host-token, Host and Origin checks (SEC-1). Bodies
 * over BODY_MAX_BYTES get 413 before they are parsed (SEC-5): a declared Content-Length is checked
 * before a byte is read; a chunked body is counted as it streams (tRPC's `maxBodySize`), so the host
 * never holds more than the limit of it.
 */
export async function serveTrpc(scope: Scope, opts: ServeOptions): Promise<{ server: Server; port: number }> {
  const handler = createHTTPHandler({
    router: appRouter,
    basePath: "/trpc/",
    maxBodySize: BODY_MAX_BYTES,
    createContext: () => ({ host: opts.host }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") log.error(`${path ?? "?"}: ${error.message}`);
    },
  });
  const server = createServer((req, res) => {
    // The OAuth redirect lands here from the authorization server (MCP-11): no host token (it is a plain
    // navigation), but the Host check applies, and the sign-in's single-use `state` is what authorizes it.
    if (req.method === "GET" && (req.url === CALLBACK_PATH || req.url?.startsWith(`${CALLBACK_PATH}?`))) {
      void serveOAuthCallback(req, res, opts);
      return;
    }
    // Health probes (SCALE-4): before every check, since they answer no data to anyone (see probes.ts).
    const probe = probePath(req.url);
    if (probe) {
      void serveProbe(probe, req, res, opts.host);
      return;
    }
    const refused = refusal(req, opts.policy);
    if (refused) {
      res.writeHead(refused.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: refused.message } }));
      return;
    }
    if (!req.url?.startsWith("/trpc/")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "Not found; the API lives under /trpc/" } }));
      return;
    }
    if (Number(req.headers["content-length"]) > BODY_MAX_BYTES) {
      // The rest of the body is not read: the connection closes after this answer.
      res.writeHead(413, { "content-type": "application/json", connection: "close" });
      res.end(JSON.stringify({ error: { message: BODY_TOO_LARGE, code: -32013, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413, hostCode: null } } }));
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.bind, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  opts.host.mcpOAuth.listening(`http://127.0.0.1:${port}`);
  scope.add(() => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }), "trpc:server");
  return { server, port };
}

/** `GET /oauth/callback?code&state` (or `?error&state`): finishes a sign-in and answers with a small page. */
async function serveOAuthCallback(req: IncomingMessage, res: ServerResponse, opts: ServeOptions): Promise<void> {
  const host = req.headers.host?.toLowerCase();
  const headers = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" };
  if (!host || !opts.policy.hosts.has(host)) {
    res.writeHead(421, headers);
    res.end(callbackPage({ ok: false, status: 421, name: null, message: `Host "${host ?? ""}" is not allowed; the sign-in must come back to the loopback address Seam gave.` }));
    return;
  }
  const params = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
  try {
    const outcome = await opts.host.mcpOAuth.callback(params);
    res.writeHead(outcome.status, headers);
    res.end(callbackPage(outcome));
  } catch {
    res.writeHead(500, headers);
    res.end(callbackPage({ ok: false, status: 500, name: null, message: "Seam could not finish the sign-in. Try Authorize again." }));
  }
}
