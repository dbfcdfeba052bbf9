import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";

/** Reads the host token from `<home>/host-token`, creating it (0600) on first start (SEC-1). */
export function loadHostToken(home: string): string {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = join(home, "host-token");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("base64url") + "\n", { mode: 0o600, flag: "wx" });
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  const token = readFileSync(file, "utf8").trim();
  if (token.length < 32) throw new Error(`${file} holds no usable token; delete it and restart to generate a new one`);
  return token;
}

export interface AuthPolicy {
  token: string;
  /** `host:port` values accepted in the Host header. */
  hosts: Set<string>;
  /** Origins accepted in the Origin header (browser requests). */
  origins: Set<string>;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Loopback names at each given port, as Host values and as http origins. */
export function loopbackPolicy(token: string, ports: number[], extraOrigins: string[] = []): AuthPolicy {
  const policy: AuthPolicy = { token, hosts: new Set(), origins: new Set(extraOrigins) };
  for (const port of ports) allowLoopbackPort(policy, port);
  return policy;
}

/** Accepts loopback Host and Origin values at `port` (e.g. once an ephemeral port is known). */
export function allowLoopbackPort(policy: AuthPolicy, port: number): void {
  for (const name of LOOPBACK_NAMES) {
    policy.hosts.add(`${name}:${port}`);
    policy.origins.add(`http://${name}:${port}`);
  }
}

export const TOKEN_COOKIE = "seam_token";

function presentedToken(req: IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim();
  const header = req.headers["x-seam-token"];
  if (typeof header === "string") return header;
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === TOKEN_COOKIE) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Returns why a request is refused, or null when it may pass. */
export function refusal(req: IncomingMessage, policy: AuthPolicy): { status: number; message: string } | null {
  const host = req.headers.host?.toLowerCase();
  if (!host || !policy.hosts.has(host)) {
    return { status: 421, message: `Host header "${host ?? ""}" is not allowed; open Seam through the URL the start command printed.` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !policy.origins.has(origin.toLowerCase())) {
    return { status: 403, message: `Origin "${origin}" is not allowed to call this host.` };
  }
  const token = presentedToken(req);
  if (!token || !sameToken(token, policy.token)) {
    return { status: 401, message: "Missing or wrong host token; open Seam through the URL the start command printed." };
  }
  return null;
}
