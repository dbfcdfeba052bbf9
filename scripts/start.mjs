// `npm start`: install what is missing, build, migrate (the host migrates at start), start host + web, print the URL.
import { spawn } from "node:child_process";
import { ensureDependencies, ensureSystemTools, quietEnv, root, run, step } from "./lib.mjs";
import { hostServer } from "./host-server.mjs";
import { webServer, webServerMissing } from "./web-server.mjs";

const hostPort = process.env.SEAM_HOST_PORT ?? "4317";
const webPort = process.env.SEAM_WEB_PORT ?? "3000";

ensureDependencies();
ensureSystemTools();
step("Building (turbo; cached after the first run)");
run("npx", ["turbo", "run", "build", "--output-logs=errors-only"]);

const env = { ...process.env, ...quietEnv, SEAM_HOST_PORT: hostPort, SEAM_WEB_PORT: webPort, SEAM_HOST_URL: `http://127.0.0.1:${hostPort}` };
const children = [];
const start = (name, args, extraEnv = {}) => {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, ...extraEnv }, stdio: ["ignore", "inherit", "inherit"] });
  child.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`✗ ${name} exited (${code ?? signal}); stopping Seam.`);
    stop(1);
  });
  children.push(child);
};
let stopping = false;
const stop = (code = 0) => {
  stopping = true;
  for (const c of children) c.kill("SIGTERM");
  setTimeout(() => process.exit(code), 3_000).unref();
  Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r() : c.on("exit", r))))).then(() => process.exit(code));
};
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
// npm does not always pass signals on; if whoever started us goes away, take host and web down too.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop(0), 1_000).unref();

const missing = webServerMissing(root);
if (missing) {
  console.error(`✗ ${missing}`);
  process.exit(1);
}

step(`Starting the host on 127.0.0.1:${hostPort} and the web UI on 127.0.0.1:${webPort} (Ctrl+C stops both)`);
start("host", hostServer(root).args);
// The standalone Next.js server next build emits (scripts/web-server.mjs says why not `next start`).
const web = webServer(root, webPort);
start("web", web.args, web.env);
