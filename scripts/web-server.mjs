// How the web UI is started — by `npm start`, the e2e run and the benches alike, so tests run what users run:
// the standalone Next.js server that `next build` emits (`output: "standalone"` in apps/web/next.config.ts),
// with a small young generation. Why this and not `next start`: bench/README.md, "The web process: options measured".
// Node built-ins only: scripts/start.mjs imports it before `npm ci`.
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The standalone server, relative to the repository root (Next mirrors the workspace layout under `standalone/`). */
export const WEB_SERVER_PATH = "apps/web/.next/standalone/apps/web/server.js";

/**
 * Node flags for the web server: a 1 MiB semi-space instead of V8's 16 MiB keeps the young generation from
 * growing to 32 MiB under a page load. Costs a few more scavenges, measured in bench/web-server.bench.ts.
 */
export const WEB_NODE_FLAGS = ["--max-semi-space-size=1"];

/** `node` arguments and the environment additions that start the web server on 127.0.0.1:`port`. */
export function webServer(root, port) {
  return {
    args: [...WEB_NODE_FLAGS, join(root, WEB_SERVER_PATH)],
    env: { PORT: String(port), HOSTNAME: "127.0.0.1", NEXT_TELEMETRY_DISABLED: "1" },
  };
}

/** Why the web server cannot start from this checkout, or null when it can. */
export function webServerMissing(root) {
  if (existsSync(join(root, WEB_SERVER_PATH))) return null;
  return `The web app's standalone server (${WEB_SERVER_PATH}) is missing: build it with \`npm run build\` (next build emits it).`;
}
