import { createServer, type Server } from "node:http";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { Scope } from "../core/scope.js";
import type { HostApi } from "../host-api.js";
import { refusal, type AuthPolicy } from "./auth.js";
import { BODY_MAX_BYTES, BODY_TOO_LARGE } from "./limits.js";
import { appRouter } from "./root.js";

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
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path ?? "?"}: ${error.message}`);
    },
  });
  const server = createServer((req, res) => {
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
  scope.add(() => new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }), "trpc:server");
  return { server, port };
}
