// Helpers shared by the two entry commands. Node built-ins only: they run before `npm ci`.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readdirSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
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

let aptUpdated = false;
/** `apt-get update` once per run, then `apt-get install`; returns whether both succeeded (root only). */
function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  if (!aptUpdated) {
    aptUpdated = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env }).status === 0;
    if (!aptUpdated) return false;
  }
  return spawnSync("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...packages], { stdio: "inherit", env }).status === 0;
}

/** Installs Debian's Chromium for the e2e tests when it is missing (Playwright's own download cannot work offline). */
export function ensureChromium() {
  if (existsSync(chromiumPath())) return;
  if (process.getuid?.() !== 0) {
    console.error(`✗ Chromium is missing at ${chromiumPath()}. Install it with: sudo apt-get install -y chromium (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  step("Installing Chromium from Debian (apt-get) for the e2e tests");
  if (!aptInstall(["chromium"])) {
    console.error("\n✗ apt-get could not install chromium.");
    process.exit(1);
  }
}

/** Whether `command` is an executable on PATH. */
function onPath(command) {
  return (process.env.PATH ?? "/usr/bin:/bin").split(delimiter).some((dir) => {
    try {
      accessSync(join(dir || ".", command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Installs what the coding tools use where it is missing: Debian `bubblewrap` (the bash sandbox, CODE-4) and
 * `git` (checkpoints, CODE-5). As root it runs apt-get; otherwise, or when apt-get fails, it prints the exact
 * command and goes on: Seam starts without them and says so in the capability overview.
 */
export function ensureSystemTools() {
  const missing = [["bwrap", "bubblewrap"], ["git", "git"]].filter(([command]) => !onPath(command)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  const command = `sudo apt-get update && sudo apt-get install -y ${missing.join(" ")}`;
  if (process.getuid?.() !== 0) {
    console.error(`! Missing ${missing.join(" and ")} (the command sandbox and checkpoints need them). Install with: ${command}`);
    return;
  }
  step(`Installing ${missing.join(" and ")} from Debian (apt-get) for the sandbox and checkpoints`);
  if (!aptInstall(missing)) console.error(`! apt-get could not install ${missing.join(" ")}; going on without. Try: ${command}`);
}

/** The Debian PostgreSQL server binaries (`initdb`, `pg_ctl`) the PostgreSQL test run starts a throwaway cluster with (SCALE-1). */
function postgresInstalled() {
  const base = "/usr/lib/postgresql";
  return existsSync(base) && readdirSync(base).some((v) => existsSync(join(base, v, "bin", "initdb")));
}

/**
 * Installs Debian `postgresql` where missing: the host's integration tests run a second time against a
 * PostgreSQL server they start on 127.0.0.1 (SCALE-1). As root it runs apt-get; otherwise it stops with the command.
 */
export function ensurePostgres() {
  if (postgresInstalled()) return;
  const command = "sudo apt-get update && sudo apt-get install -y --no-install-recommends postgresql";
  if (process.getuid?.() !== 0) {
    console.error(`✗ PostgreSQL is missing; the tests run the host against it too. Install it with: ${command}`);
    process.exit(1);
  }
  step("Installing PostgreSQL from Debian (apt-get) for the PostgreSQL test run");
  if (!aptInstall(["postgresql"]) || !postgresInstalled()) {
    console.error(`\n✗ apt-get could not install postgresql. Try: ${command}`);
    process.exit(1);
  }
  // The package starts a cluster of its own on port 5432; the tests start theirs, so stop it to free the port and memory.
  spawnSync("service", ["postgresql", "stop"], { stdio: "ignore" });
}
