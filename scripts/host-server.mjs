// How the host is started — by `npm start`, the e2e run and the benches alike, so tests run what users run:
// the host's bundle (apps/host/scripts/bundle.mjs).
// Node built-ins only: scripts/start.mjs imports it before `npm ci`.
import { join } from "node:path";

/** The host's entry point, relative to the repository root. */
export const HOST_MAIN_PATH = "apps/host/dist/bundle/main.js";

/**
 * Node flags for the host: none. A small young generation (`--max-semi-space-size=1`, as the web server has) was
 * measured in bench/startup.bench.ts (bench/README.md, "Fifth pass"): idle RSS −12 to −20 MiB, but ready +50 to
 * +70 ms and more CPU until ready, because start-up allocates much and scavenges more often; not taken.
 */
export const HOST_NODE_FLAGS = [];

/** `node` arguments that start the host at `main` (default: this checkout's bundle), then `extra` arguments. */
export function hostServer(root, extra = [], main = join(root, HOST_MAIN_PATH)) {
  return { args: [...HOST_NODE_FLAGS, main, ...extra] };
}
