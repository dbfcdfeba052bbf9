import { join, resolve } from "node:path";
import { HostError } from "../core/errors.js";

/**
 * The SQLite URL for a data directory: DATABASE_URL when it is a `file:` URL (relative paths are
 * resolved against the working directory), else `file:<home>/seam.db`. Any other scheme is
 * refused rather than silently ignored: PostgreSQL (CORE-17) needs the pg adapter, not wired yet.
 */
export function databaseUrl(home: string, env: string | undefined = process.env.DATABASE_URL): string {
  if (!env) return `file:${join(resolve(home), "seam.db")}`;
  if (!env.startsWith("file:")) {
    throw new HostError("bad_input:db", `DATABASE_URL must be a file: SQLite URL (got "${env.split(":")[0]}:"); PostgreSQL is not supported by this host yet`);
  }
  const path = env.slice("file:".length).split("?")[0]!.replace(/^\/\/(?=\/)/, "");
  if (!path || path === ":memory:") throw new HostError("bad_input:db", "DATABASE_URL must name a database file");
  return `file:${resolve(path)}`;
}
