import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { createHttpFetcher } from "../../src/web/providers/http.js";
import { blockedRange, checkDestination, compileAllowlist, normalizeHost, type Resolver } from "../../src/web/ssrf.js";
import { loopback, neverAborted, type Loopback } from "./helpers.js";

/** Names the fake DNS knows; anything else is NXDOMAIN. */
const DNS: Record<string, string[]> = {
  "example.test": ["93.184.215.14"],
  "v6.example.test": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
  "intranet.test": ["10.0.0.5"],
  "x.corp.test": ["10.9.8.7"],
  "metadata.test": ["169.254.169.254"],
  "mixed.test": ["93.184.215.14", "192.168.0.10"],
  "v6local.test": ["::1"],
  "mapped.test": ["::ffff:192.168.0.1"],
  "ula.test": ["fd00::5"],
  "cgnat.test": ["100.100.1.1"],
  "zero.test": ["0.0.0.0"],
};
const resolve: Resolver = async (name) => {
  const answers = DNS[name];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

type Row = [input: string, verdict: "allow" | "block", allowlist?: string[]];

// ≥ 60 forms (WEB-9): numeric encodings, IPv6 embeddings, metadata, names resolving inward, the allowlist.
const TABLE: Row[] = [
  ["http://127.0.0.1/", "block"],
  ["http://127.1/", "block"],
  ["http://0x7f.1/", "block"],
  ["http://0177.0.0.1/", "block"],
  ["http://2130706433/", "block"],
  ["http://0x7f000001/", "block"],
  ["http://017700000001/", "block"],
  ["http://127.000.000.001/", "block"],
  ["http://0x7f.0x0.0x0.0x1/", "block"],
  ["http://127.0.0.1./", "block"],
  ["http://127.255.255.254:8080/x", "block"],
  ["http://localhost/", "block"],
  ["http://LOCALHOST./", "block"],
  ["http://api.localhost/", "block"],
  ["http://[::1]/", "block"],
  ["http://[0:0:0:0:0:0:0:1]/", "block"],
  ["http://[::ffff:127.0.0.1]/", "block"],
  ["http://[::ffff:7f00:1]/", "block"],
  ["http://[::127.0.0.1]/", "block"],
  ["http://[::8.8.8.8]/", "block"],
  ["http://[::ffff:0:7f00:1]/", "block"],
  ["http://[::]/", "block"],
  ["http://0.0.0.0/", "block"],
  ["http://0/", "block"],
  ["http://10.0.0.1/", "block"],
  ["http://10.255.255.255/", "block"],
  ["http://012.1/", "block"],
  ["http://172.16.0.1/", "block"],
  ["http://172.31.255.254/", "block"],
  ["http://192.168.1.1/", "block"],
  ["http://3232235777/", "block"],
  ["http://169.254.169.254/latest/meta-data/", "block"],
  ["http://169.254.170.2/", "block"],
  ["http://169.254.1.1/", "block"],
  ["http://100.64.0.1/", "block"],
  ["http://100.127.255.254/", "block"],
  ["http://224.0.0.1/", "block"],
  ["http://239.255.255.250/", "block"],
  ["http://255.255.255.255/", "block"],
  ["http://240.0.0.1/", "block"],
  ["http://192.0.2.10/", "block"],
  ["http://198.51.100.7/", "block"],
  ["http://203.0.113.9/", "block"],
  ["http://198.18.0.1/", "block"],
  ["http://192.0.0.170/", "block"],
  ["http://[fc00::1]/", "block"],
  ["http://[fd12:3456::1]/", "block"],
  ["http://[fe80::1]/", "block"],
  ["http://[fec0::1]/", "block"],
  ["http://[fd00:ec2::254]/", "block"],
  ["http://[ff02::1]/", "block"],
  ["http://[2001:db8::1]/", "block"],
  ["http://[2001::1]/", "block"],
  ["http://[100::1]/", "block"],
  ["http://[64:ff9b::a00:1]/", "block"],
  ["http://[64:ff9b::7f00:1]/", "block"],
  ["http://[64:ff9b:1::808:808]/", "block"],
  ["http://[2002:7f00:1::]/", "block"],
  ["http://[2002:c0a8:101::1]/", "block"],
  ["http://[::ffff:169.254.169.254]/", "block"],
  ["http://[::ffff:a9fe:a9fe]/", "block"],
  ["http://metadata.google.internal/computeMetadata/v1/", "block"],
  ["http://metadata.google.internal./", "block"],
  ["http://intranet.test/", "block"],
  ["http://metadata.test/", "block"],
  ["http://mixed.test/", "block"],
  ["http://v6local.test/", "block"],
  ["http://mapped.test/", "block"],
  ["http://ula.test/", "block"],
  ["http://cgnat.test/", "block"],
  ["http://zero.test/", "block"],
  ["http://169.254.169.254/", "block", ["127.0.0.1/32"]],
  ["http://10.1.2.3/", "block", ["10.1.2.4"]],
  // Public destinations pass.
  ["http://8.8.8.8/", "allow"],
  ["https://1.1.1.1/dns-query", "allow"],
  ["http://1.1/", "allow"],
  ["http://172.32.0.1/", "allow"],
  ["http://100.128.0.1/", "allow"],
  ["http://11.0.0.1/", "allow"],
  ["http://[2606:4700:4700::1111]/", "allow"],
  ["http://[::ffff:8.8.8.8]/", "allow"],
  ["http://[64:ff9b::808:808]/", "allow"],
  ["http://[2002:808:808::1]/", "allow"],
  ["https://example.test/page", "allow"],
  ["https://EXAMPLE.test./page", "allow"],
  ["https://v6.example.test/", "allow"],
  // The allowlist is the only way through.
  ["http://127.0.0.1/", "allow", ["127.0.0.1/32"]],
  ["http://127.1/", "allow", ["127.0.0.0/8"]],
  ["http://[::1]/", "allow", ["::1"]],
  ["http://intranet.test/", "allow", ["intranet.test"]],
  ["http://x.corp.test/", "allow", ["*.corp.test"]],
  ["http://10.1.2.3/", "allow", ["10.0.0.0/8"]],
  ["http://[::ffff:10.1.2.3]/", "allow", ["10.0.0.0/8"]],
  ["http://intranet.test/", "allow", ["10.0.0.0/24"]],
];

describe("SSRF guard verdicts (WEB-9)", () => {
  it("has at least 60 forms", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
  });

  for (const [input, verdict, allow] of TABLE) {
    it(`${verdict}: ${input}${allow ? ` (allowlist ${allow.join(", ")})` : ""}`, async () => {
      const run = checkDestination(new URL(input), { resolve, allowlist: compileAllowlist(allow ?? []) });
      if (verdict === "allow") {
        const destination = await run;
        expect(destination.addresses.length).toBeGreaterThan(0);
        expect(destination.allowlisted).toBe(allow !== undefined);
      } else {
        await expect(run).rejects.toMatchObject({ publicCode: "blocked_url" });
      }
    });
  }

  it("normalizes numeric host strings the way the URL parser does", () => {
    for (const form of ["2130706433", "0x7f.1", "0177.0.0.1", "127.1", "[::ffff:7f00:1]", "127.0.0.1."]) {
      const host = normalizeHost(form);
      expect(host.kind).toBe("ip");
      expect(blockedRange(host.kind === "ip" ? host.ip : "")).not.toBeNull();
    }
    expect(normalizeHost("Example.COM.")).toEqual({ kind: "name", name: "example.com" });
  });

  it("an unresolvable name is provider_failed, not a block", async () => {
    await expect(checkDestination(new URL("http://nowhere.test/"), { resolve, allowlist: compileAllowlist([]) })).rejects.toMatchObject({ publicCode: "provider_failed" });
  });

  it("refuses malformed allowlist entries", () => {
    for (const bad of ["10.1", "10.0.0.0/33", "not a host", "::1/129", "0x7f.1"]) {
      expect(() => compileAllowlist([bad]), bad).toThrow(HostError);
    }
  });
});

describe("blocked fetches never open a socket (WEB-9)", () => {
  let sockets = 0;
  const count = () => void sockets++;
  let server: Loopback;
  beforeAll(async () => {
    subscribe("net.client.socket", count);
    server = await loopback((_req, res) => res.end("should never be reached"));
  });
  afterAll(async () => {
    unsubscribe("net.client.socket", count);
    await server.close();
  });

  it("every blocked table row fails with blocked_url before any connection", async () => {
    const blocked = TABLE.filter(([, verdict]) => verdict === "block");
    for (const [input, , allow] of blocked) {
      const fetcher = createHttpFetcher({ resolve, allowlist: () => compileAllowlist(allow ?? []) });
      await expect(fetcher.fetch({ url: input }, { signal: neverAborted() }), input).rejects.toMatchObject({ publicCode: "blocked_url" });
    }
    expect(sockets).toBe(0);
  });

  it("a real loopback server that is not allowlisted sees no connection", async () => {
    const fetcher = createHttpFetcher({ resolve, allowlist: () => compileAllowlist([]) });
    for (const url of [server.url, `http://localhost:${server.port}/`, `http://0x7f.1:${server.port}/`, `http://[::ffff:127.0.0.1]:${server.port}/`]) {
      await expect(fetcher.fetch({ url }, { signal: neverAborted() })).rejects.toMatchObject({ publicCode: "blocked_url" });
    }
    expect(server.connections()).toBe(0);
    expect(sockets).toBe(0);
  });
});
