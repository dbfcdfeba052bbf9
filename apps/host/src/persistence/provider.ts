import { HostError } from "../core/errors.js";

/** The databases Seam runs on (SCALE-1): SQLite for one developer, PostgreSQL for a team's hosts. */
export type Provider = "sqlite" | "postgresql";

/** The provider a database URL names: `file:` is SQLite, `postgres://` or `postgresql://` PostgreSQL. */
export function providerOf(url: string): Provider {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgresql";
  throw new HostError("bad_input:db", `unsupported database URL scheme "${url.split(":")[0]}:"; use file:<path> (SQLite) or postgres://user@host:port/database`);
}

/** A URL fit for logs and errors: the password (if any) is never shown. */
export function displayUrl(url: string): string {
  if (providerOf(url) === "sqlite") return url;
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    u.search = "";
    return u.toString();
  } catch {
    return "postgres://…";
  }
}
