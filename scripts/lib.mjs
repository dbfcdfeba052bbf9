// Helpers shared by the two entry commands. Node built-ins only: they run before `npm ci`.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));

export const quietEnv = {
  TURBO_TELEMETRY_DISABLED: "1",
  NEXT_TELEMETRY_DISABLED: "1",
  CHECKPOINT_DISABLE: "1",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  DO_NOT_TRACK: "1",
};

export function step(title) {
  console.log(`\n▸ ${title}`);
}

/** Runs a command in the repo root, inheriting stdio; exits the script on failure. */
export function run(command, args, opts = {}) {
  const r = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...quietEnv, ...opts.env } });
  if (r.status !== 0) {
    console.error(`\n✗ ${command} ${args.join(" ")} failed (exit ${r.status ?? r.signal}).`);
    process.exit(r.status || 1);
  }
}

/** Installs dependencies when node_modules is missing or older than package-lock.json. */
export function ensureDependencies() {
  const marker = join(root, "node_modules", ".package-lock.json");
  const lock = join(root, "package-lock.json");
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  step("Installing dependencies (npm ci; better-sqlite3 compiles from source, about two minutes)");
  run("npm", ["ci", "--no-audit", "--no-fund"]);
}

export function chromiumPath() {
  return process.env.CHROMIUM_PATH || "/usr/bin/chromium";
}

/** Installs Debian's Chromium for the e2e tests when it is missing (Playwright's own download cannot work offline). */
export function ensureChromium() {
  if (existsSync(chromiumPath())) return;
  if (process.getuid?.() !== 0) {
    console.error(`✗ Chromium is missing at ${chromiumPath()}. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  step("Installing Chromium from Debian (apt-get) for the e2e tests");
  run("apt-get", ["update", "-qq"]);
  run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], { env: { DEBIAN_FRONTEND: "noninteractive" } });
}
