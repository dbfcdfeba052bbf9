/**
 * A throwaway PostgreSQL server for tests, e2e and benches (SCALE-1): the Debian `postgresql` package's
 * binaries, a fresh cluster in a temporary folder, listening on 127.0.0.1 only (and a socket in that
 * folder), trust authentication for the user `seam`. As root the cluster runs as the `postgres` user
 * (PostgreSQL refuses root). Stopped and deleted by `stop()`, and on process exit as a last resort.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "../free-port.js";

export interface PostgresServer {
  /** `postgres://seam@127.0.0.1:<port>/<database>` */
  url(database: string): string;
  port: number;
  /** The cluster's folder (data, socket, log). */
  dir: string;
  /** Stops the server at once and deletes its folder; idempotent. */
  stop(): void;
}

export interface PostgresOptions {
  /** Parent of the cluster folder; default the OS temp dir. */
  parent?: string;
  /** Default: a free port. */
  port?: number;
}

/** The newest installed `/usr/lib/postgresql/<version>/bin` with initdb, or SEAM_PG_BIN. */
export function postgresBinDir(): string | null {
  const fromEnv = process.env.SEAM_PG_BIN;
  if (fromEnv) return existsSync(join(fromEnv, "initdb")) ? fromEnv : null;
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(base, versions[0], "bin") : null;
}

export async function startPostgres(opts: PostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb). Install it with: sudo apt-get install -y postgresql — `npm test` does this by itself when run as root.");
  const dir = mkdtempSync(join(opts.parent ?? tmpdir(), "seam-pg-"));
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const ids = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    if (ids.status !== 0) throw new Error("running as root, but there is no `postgres` user to run the server as (it comes with the Debian postgresql package)");
    chownSync(dir, Number(ids.stdout.trim()), Number(gid.stdout.trim()));
  }
  chmodSync(dir, 0o700);
  const run = (tool: string, args: string[]) => {
    const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]] : [join(bin, tool), args];
    const r = spawnSync(command, argv, { encoding: "utf8", env: { ...process.env, LC_ALL: "C" } });
    if (r.status !== 0) {
      const log = existsSync(join(dir, "log")) ? readFileSync(join(dir, "log"), "utf8").slice(-2000) : "";
      throw new Error(`${tool} failed (${r.status}): ${(r.stderr || r.stdout).trim()}${log ? `\n${log}` : ""}`);
    }
  };
  const data = join(dir, "data");
  const port = opts.port ?? (await freePort());
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", stop);
    if (existsSync(join(data, "postmaster.pid"))) {
      try { run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]); } catch { /* already gone */ }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", stop);
  try {
    run("initdb", ["-D", data, "-A", "trust", "-U", "seam", "-E", "UTF8", "--no-locale", "--no-sync"]);
    const server = ["-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300"];
    run("pg_ctl", ["-D", data, "-o", server.join(" "), "-l", join(dir, "log"), "-w", "-t", "60", "start"]);
  } catch (error) {
    stop();
    throw error;
  }
  return { url: (database) => `postgres://seam@127.0.0.1:${port}/${database}`, port, dir, stop };
}

/**
 * A database of its own on `server` (a URL naming the `postgres` database) for the data at `path`: the same
 * path always names the same database (a restart finds its data), two paths never share one. The host
 * creates it at its first start.
 */
export function databaseFor(server: string, path: string, prefix: string): string {
  const name = `${prefix}${createHash("sha256").update(resolve(path)).digest("hex").slice(0, 24)}`;
  return server.replace(/\/postgres$/, `/${name}`);
}

/** A database as SQL text (`pg_dump`), to check what is (not) stored in it. */
export function dumpDatabase(url: string): string {
  const bin = postgresBinDir();
  if (!bin) throw new Error("pg_dump not found: install PostgreSQL (sudo apt-get install -y postgresql)");
  return execFileSync(join(bin, "pg_dump"), ["--no-owner", "--dbname", url], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
}

/**
 * Everything a host stored, as text: with `url` (PostgreSQL) a dump of that database, else the bytes of
 * `<home>/seam.db` and its WAL (SQLite).
 */
export function storedText(home: string, url: string | undefined): string {
  if (url) return dumpDatabase(url);
  return ["seam.db", "seam.db-wal"].map((f) => join(home, f)).filter(existsSync).map((f) => readFileSync(f).toString("latin1")).join("");
}
