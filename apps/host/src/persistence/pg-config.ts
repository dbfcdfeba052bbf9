import type { PoolConfig } from "pg";
import { HostError } from "../core/errors.js";

/**
 * A postgres:// URL as discrete pg settings (SCALE-1). Discrete fields rather than `connectionString`:
 * pg lets a connection string override `database`, which would point Prisma's shadow database (and our
 * maintenance connection) back at the real one. `sslmode` maps to pg's `ssl` the usual way.
 */
export function pgConfig(url: string, override: { database?: string } = {}): PoolConfig {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new HostError("bad_input:db", "the PostgreSQL URL is not valid; expected postgres://user[:password]@host[:port]/database");
  }
  const sslmode = u.searchParams.get("sslmode") ?? "disable";
  const ssl = sslmode === "disable" || sslmode === "allow" ? undefined
    : sslmode === "verify-ca" || sslmode === "verify-full" ? { rejectUnauthorized: true }
    : { rejectUnauthorized: false };
  return {
    host: decodeURIComponent(u.hostname.replace(/^\[|\]$/g, "")),
    port: u.port ? Number(u.port) : 5432,
    user: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: override.database ?? decodeURIComponent(u.pathname.replace(/^\//, "")),
    ssl,
    application_name: u.searchParams.get("application_name") ?? "seam",
    connectionTimeoutMillis: Number(u.searchParams.get("connect_timeout") ?? 10) * 1000,
  };
}

/** The database a postgres:// URL names. */
export function pgDatabase(url: string): string {
  return String(pgConfig(url).database);
}
