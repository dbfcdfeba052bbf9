#!/usr/bin/env node
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createScope } from "./core/scope.js";
import { messageOf } from "./core/errors.js";
import { createLog, logFormat, type LogFormat } from "./core/log.js";
import { startupTrace, traceStartupWanted } from "./core/startup-trace.js";
import { whenQuiet } from "./core/when-quiet.js";
import { createHost } from "./host.js";
import { allowLoopbackPort, loadHostToken, loopbackPolicy } from "./trpc/auth.js";
import { serveTrpc } from "./trpc/server.js";

// Everything above (Node's bootstrap and the static module graph) is the first phase of the start-up trace.
startupTrace.mark("imports");
const VERSION = "0.1.0";

const { values } = parseArgs({
  options: {
    home: { type: "string" },
    port: { type: "string" },
    bind: { type: "string" },
    "web-port": { type: "string" },
  },
});

const env = process.env;
const home = resolve(values.home ?? env.SEAM_HOME ?? ".seam");
const port = Number(values.port ?? env.SEAM_HOST_PORT ?? 4317);
const webPort = Number(values["web-port"] ?? env.SEAM_WEB_PORT ?? 3000);
const bind = values.bind ?? env.SEAM_BIND ?? "127.0.0.1";
const extraOrigins = (env.SEAM_ALLOWED_ORIGINS ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);

// SEAM_LOG_FORMAT is checked before anything logs: a bad value stops the start with the allowed values.
let format: LogFormat;
try {
  format = logFormat();
} catch (error) {
  console.error(`[host] failed to start: ${messageOf(error)}`);
  process.exit(1);
}
const log = createLog("host");

const root = createScope("host", { warn: (message, data) => log.warn(message, data) });
let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info(`${signal}: shutting down`);
  const timer = setTimeout(() => process.exit(1), 15_000);
  timer.unref();
  try {
    await root.dispose();
  } catch (error) {
    log.error(`shutdown: ${messageOf(error)}`);
  }
  process.exit(0);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

try {
  if (bind !== "127.0.0.1" && bind !== "::1" && bind !== "localhost") {
    log.warn(`binding ${bind} exposes the host beyond this machine; the host token is the only guard.`);
  }
  const host = await createHost(root, { home, env, version: VERSION, callbackOrigin: port > 0 ? `http://127.0.0.1:${port}` : undefined });
  const token = loadHostToken(home);
  const policy = loopbackPolicy(token, [port, webPort], extraOrigins);
  const { server, port: actual } = await startupTrace.phase("server listen", () => serveTrpc(root, { host, policy, bind, port }));
  allowLoopbackPort(policy, actual);
  // Off the path to readiness, once the first requests are answered: the first turn then costs what later ones do.
  root.add(whenQuiet(server, () => void host.warmUp()), "warm-up");
  if (traceStartupWanted(env)) {
    const total = performance.now();
    if (format === "json") createLog("startup").info(`ready after ${total.toFixed(1)} ms (since the process started)`, { phases: startupTrace.phases().map((p) => ({ name: p.name, ms: Math.round(p.ms * 10) / 10 })) });
    else console.error(`${startupTrace.format()}\n[startup] ready after ${total.toFixed(1)} ms (since the process started)`);
  }
  if (format === "json") {
    // One JSON object per line on stdout; the token stays out of the log stream (it is in the 0600 token file).
    log.info(`Seam host ${VERSION} listening on http://${bind}:${actual}/trpc`, { version: VERSION, home });
    log.info(`Open Seam: http://127.0.0.1:${webPort}/?token=<the token in ${join(home, "host-token")}>`);
  } else {
    console.log(`[host] Seam host ${VERSION} listening on http://${bind}:${actual}/trpc (data: ${home})`);
    console.log(`[host] Open Seam: http://127.0.0.1:${webPort}/?token=${token}`);
  }
} catch (error) {
  log.error(`failed to start: ${messageOf(error)}`);
  await root.dispose().catch(() => {});
  process.exit(1);
}
