import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { webError } from "./provider.js";

/**
 * The SSRF guard (WEB-9). A destination is checked after DNS resolution: every resolved address must
 * be public unicast (or allowlisted), and the connection is then pinned to those validated addresses
 * so no second lookup can swap them (DNS rebinding, TOCTOU). Numeric host forms are normalized first.
 */

export interface ResolvedAddress { address: string; family: 4 | 6 }
/** Resolves a host name to all its addresses. Injectable so tests can simulate rebinding. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** A validated destination: connect only to `addresses`. */
export interface Destination {
  /** The host as the URL names it, without brackets or trailing dot (used for Host/SNI). */
  hostname: string;
  addresses: ResolvedAddress[];
  /** True when an allowlist entry let it through. */
  allowlisted: boolean;
}

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

const BLOCKED_NAMES = new Set(["localhost", "metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"]);
const METADATA = ["169.254.169.254", "169.254.170.2", "100.100.100.200", "fd00:ec2::254", "fd00:ec2::23"].map((a) => ipaddr.parse(a).toNormalizedString());

/** Why an address is refused (an ipaddr.js range name or ours), or null when it is public unicast. */
export function blockedRange(address: string | Addr): string | null {
  const ip = typeof address === "string" ? parseAddress(address) : address;
  if (!ip) return "invalid";
  if (METADATA.includes(ip.toNormalizedString())) return "cloudMetadata";
  if (ip.kind() === "ipv4") {
    const range = ip.range();
    return range === "unicast" ? null : range;
  }
  const v6 = ip as ipaddr.IPv6;
  const parts = v6.parts;
  // ::/96 — unspecified, loopback and the deprecated IPv4-compatible form (::a.b.c.d): never public.
  if (parts.slice(0, 6).every((p) => p === 0)) {
    if (parts[6] === 0 && parts[7] === 0) return "unspecified";
    if (parts[6] === 0 && parts[7] === 1) return "loopback";
    const inner = blockedRange(embeddedV4(parts, 6));
    return inner ? `ipv4Compatible(${inner})` : "ipv4Compatible";
  }
  const range = v6.range();
  if (range === "ipv4Mapped" || range === "rfc6145") {
    const inner = blockedRange(embeddedV4(parts, 6));
    return inner ? `${range}(${inner})` : null;
  }
  if (range === "rfc6052") {
    // Only the well-known 64:ff9b::/96 has a fixed place for the IPv4 address; local-use prefixes are refused.
    if (parts[1] !== 0xff9b || parts[2] !== 0 || parts[3] !== 0 || parts[4] !== 0 || parts[5] !== 0) return "nat64LocalUse";
    const inner = blockedRange(embeddedV4(parts, 6));
    return inner ? `nat64(${inner})` : null;
  }
  if (range === "6to4") {
    const inner = blockedRange(embeddedV4(parts, 1));
    return inner ? `6to4(${inner})` : null;
  }
  return range === "unicast" ? null : range;
}

function embeddedV4(parts: number[], at: number): ipaddr.IPv4 {
  const hi = parts[at]!;
  const lo = parts[at + 1]!;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/** Parses an IP in any form a URL host or resolver may carry (brackets, zone ids, short/octal/hex IPv4). */
export function parseAddress(text: string): Addr | null {
  let s = text.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (ipaddr.IPv6.isValid(s)) return ipaddr.IPv6.parse(s);
  // ipaddr's IPv4 parser accepts the inet_aton forms the URL standard also normalizes: 127.1, 0x7f.1, 0177.0.0.1, 2130706433.
  if (ipaddr.IPv4.isValid(s)) return ipaddr.IPv4.parse(s);
  return null;
}

export type HostForm = { kind: "ip"; ip: Addr; text: string } | { kind: "name"; name: string };

/** Lowercases, strips brackets and trailing dots, and turns every numeric form into one canonical address. */
export function normalizeHost(host: string): HostForm {
  let h = host.trim().toLowerCase();
  if (!(h.startsWith("[") && h.endsWith("]"))) h = h.replace(/\.+$/, "");
  const ip = parseAddress(h);
  if (ip) return { kind: "ip", ip, text: ip.toString() };
  return { kind: "name", name: h };
}

/** A compiled allowlist: exact host names, `*.suffix` wildcards, and CIDRs (a bare IP is a /32 or /128). */
export interface Allowlist {
  hasName(name: string): boolean;
  hasAddress(ip: Addr): boolean;
  readonly entries: readonly string[];
}

/** Throws `invalid_settings` naming the first bad entry. */
export function compileAllowlist(entries: readonly string[]): Allowlist {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const cidrs: [Addr, number][] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    const cidr = parseCidr(entry);
    if (cidr) {
      cidrs.push(cidr);
      continue;
    }
    const wildcard = entry.startsWith("*.");
    const name = (wildcard ? entry.slice(2) : entry).replace(/\.+$/, "");
    if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(name) || name.length > 253) {
      throw webError("invalid_settings", `Fetch allowlist entry ${JSON.stringify(raw)} is neither a host name, an IP address nor a CIDR (e.g. 10.0.0.0/8).`);
    }
    if (/^[0-9.]+$/.test(name) || name.startsWith("0x")) {
      throw webError("invalid_settings", `Fetch allowlist entry ${JSON.stringify(raw)} looks like an IP address but is not a valid one.`);
    }
    if (wildcard) suffixes.push(`.${name}`);
    else names.add(name);
  }
  return {
    entries: [...entries],
    hasName: (name) => names.has(name) || suffixes.some((s) => name.endsWith(s)),
    hasAddress: (ip) => cidrs.some(([net, bits]) => matches(ip, net, bits)),
  };
}

function parseCidr(entry: string): [Addr, number] | null {
  const slash = entry.indexOf("/");
  const addrText = slash < 0 ? entry : entry.slice(0, slash);
  const ip = parseAddress(addrText);
  if (!ip) return null;
  // Only canonical dotted-quad IPv4 in the allowlist: a typo like "10.1" must not silently mean 10.0.0.1.
  if (ip.kind() === "ipv4" && !ipaddr.IPv4.isValidFourPartDecimal(addrText)) return null;
  const max = ip.kind() === "ipv4" ? 32 : 128;
  if (slash < 0) return [ip, max];
  const bitsText = entry.slice(slash + 1);
  const bits = Number(bitsText);
  if (!/^\d{1,3}$/.test(bitsText) || bits > max) throw webError("invalid_settings", `Fetch allowlist entry ${JSON.stringify(entry)} has an invalid prefix length.`);
  return [ip, bits];
}

function matches(ip: Addr, net: Addr, bits: number): boolean {
  let candidate: Addr = ip;
  if (candidate.kind() !== net.kind()) {
    // An IPv4-mapped IPv6 address matches IPv4 entries; nothing else crosses families.
    if (candidate.kind() === "ipv6" && (candidate as ipaddr.IPv6).isIPv4MappedAddress()) candidate = (candidate as ipaddr.IPv6).toIPv4Address();
    else return false;
  }
  return candidate.kind() === net.kind() && (candidate as ipaddr.IPv4).match(net as ipaddr.IPv4, bits);
}

export interface GuardOptions {
  resolve: Resolver;
  allowlist: Allowlist;
}

/**
 * Validates a URL's host and returns where to connect. Throws `blocked_url` for any refused address or
 * name, `provider_failed` when the name does not resolve. Never opens a connection.
 */
export async function checkDestination(url: URL, opts: GuardOptions): Promise<Destination> {
  const form = normalizeHost(url.hostname);
  if (form.kind === "ip") {
    const address = form.ip.toString();
    const family = form.ip.kind() === "ipv4" ? 4 : 6;
    if (opts.allowlist.hasAddress(form.ip)) return { hostname: address, addresses: [{ address, family }], allowlisted: true };
    const range = blockedRange(form.ip);
    if (range) throw blocked(url, `${address} is a ${describeRange(range)} address`);
    return { hostname: address, addresses: [{ address, family }], allowlisted: false };
  }

  const name = form.name;
  const byName = opts.allowlist.hasName(name);
  if (!byName && (BLOCKED_NAMES.has(name) || name.endsWith(".localhost"))) throw blocked(url, `${name} names this machine or a cloud metadata service`);

  let answers: ResolvedAddress[];
  try {
    answers = await opts.resolve(name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw webError("provider_failed", `Cannot resolve ${name}${code ? ` (${code})` : ""}.`, { provider: "http", cause: error, data: { url: url.href } });
  }
  if (answers.length === 0) throw webError("provider_failed", `${name} has no addresses.`, { provider: "http", data: { url: url.href } });

  const addresses: ResolvedAddress[] = [];
  let allowlisted = byName;
  for (const answer of answers) {
    const ip = parseAddress(answer.address);
    if (!ip) throw blocked(url, `${name} resolved to ${JSON.stringify(answer.address)}, which is not an IP address`);
    const address = ip.toString();
    const family = ip.kind() === "ipv4" ? 4 : 6;
    if (!byName) {
      if (opts.allowlist.hasAddress(ip)) allowlisted = true;
      else {
        // One refused answer refuses the name: a client may try any of them.
        const range = blockedRange(ip);
        if (range) throw blocked(url, `${name} resolves to ${address}, a ${describeRange(range)} address`);
      }
    }
    addresses.push({ address, family });
  }
  return { hostname: name, addresses, allowlisted };
}

function blocked(url: URL, why: string) {
  return webError("blocked_url", `Refused to fetch ${url.href}: ${why}. web_fetch only reaches public internet addresses; an administrator can allow specific hosts or networks in Settings → Web (fetch allowlist).`, {
    provider: "http",
    data: { url: url.href },
  });
}

const RANGE_WORDS: Record<string, string> = {
  loopback: "loopback",
  private: "private-network",
  linkLocal: "link-local",
  carrierGradeNat: "carrier-grade NAT (100.64.0.0/10)",
  multicast: "multicast",
  unspecified: "unspecified",
  broadcast: "broadcast",
  reserved: "reserved",
  uniqueLocal: "unique-local (fc00::/7)",
  cloudMetadata: "cloud metadata",
  benchmarking: "benchmarking",
  teredo: "Teredo tunnel",
  nat64LocalUse: "local-use NAT64",
  ipv4Compatible: "deprecated IPv4-compatible IPv6",
};

function describeRange(range: string): string {
  const inner = /^(\w+)\((.+)\)$/.exec(range);
  if (inner) return `${inner[1]} form of a ${describeRange(inner[2]!)}`;
  return RANGE_WORDS[range] ?? `non-public (${range})`;
}
