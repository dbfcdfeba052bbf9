import { join, resolve } from "node:path";
import { HostError } from "../core/errors.js";

export interface DatabaseEnv { SEAM_DATABASE_URL?: string; DATABASE_URL?: string }

/**
 * The database of a data directory (SCALE-1): `SEAM_DATABASE_URL`, else `DATABASE_URL`, else
 * `file:<home>/seam.db`. A `file:` URL is SQLite (a relative path is resolved against the working
 * directory); `postgres://` / `postgresql://` is PostgreSQL and must name a database. Anything else is
 * refused rather than silently ignored.
 */
export function databaseUrl(home: string, env: DatabaseEnv = process.env): string {
  const name = env.SEAM_DATABASE_URL ? "SEAM_DATABASE_URL" : "DATABASE_URL";
  const value = env.SEAM_DATABASE_URL || env.DATABASE_URL;
  if (!value) return `file:${join(resolve(home), "seam.db")}`;
  if (/^postgres(ql)?:\/\//i.test(value)) return postgresUrl(name, value);
  if (!value.startsWith("file:")) {
    throw new HostError("bad_input:db", `${name} must be a file: SQLite URL or a postgres:// URL (got "${value.split(":")[0]}:")`);
  }
  const path = value.slice("file:".length).split("?")[0]!.replace(/^\/\/(?=\/)/, "");
  if (!path || path === ":memory:") throw new HostError("bad_input:db", `${name} must name a database file`);
  return `file:${resolve(path)}`;
}

function postgresUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HostError("bad_input:db", `${name} is not a valid URL; expected postgres://user[:password]@host[:port]/database`);
  }
  if (!url.hostname) throw new HostError("bad_input:db", `${name} names no host; expected postgres://user[:password]@host[:port]/database`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!database || database.includes("/")) throw new HostError("bad_input:db", `${name} names no database; expected postgres://user[:password]@host[:port]/database`);
  return value;
}
