import { createServer, type Server } from "node:http";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { Scope } from "../core/scope.js";
import type { HostApi } from "../host-api.js";
import { refusal, type AuthPolicy } from "./auth.js";
import { appRouter } from "./root.js";

export interface ServeOptions { host: HostApi; policy: AuthPolicy; bind: string; port: number }

/** Starts the tRPC endpoint at `/trpc/`, behind the host-token, Host and Origin checks (SEC-1). */
export async function serveTrpc(scope: Scope, opts: ServeOptions): Promise<{ server: Server; port: number }> {
  const handler = createHTTPHandler({
    router: appRouter,
    basePath: "/trpc/",
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
