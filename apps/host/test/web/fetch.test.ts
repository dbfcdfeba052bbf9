import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHttpFetcher, DEFAULT_FETCH_LIMITS, USER_AGENT, type FetchLimits } from "../../src/web/providers/http.js";
import { compileAllowlist, type Resolver } from "../../src/web/ssrf.js";
import { loopback, neverAborted, type Loopback } from "./helpers.js";
import { rejection } from "../support/errors.js";

const ALLOW = compileAllowlist(["127.0.0.1"]);
const fetcher = (limits: Partial<FetchLimits> = {}, resolve?: Resolver) => createHttpFetcher({ allowlist: () => ALLOW, limits, resolve });
const get = (url: string, limits: Partial<FetchLimits> = {}, signal = neverAborted()) => fetcher(limits).fetch({ url }, { signal });

let servers: Loopback[] = [];
const serve = async (...args: Parameters<typeof loopback>) => {
  const s = await loopback(...args);
  servers.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe("HTTP fetcher results (WEB-5, WEB-8)", () => {
  it("returns HTML with scripts and styles removed, the status and the final URL", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<html><head><style>body{}</style><script>var secret = 1</script></head><body><!-- note --><p>Hello <b>world</b></p></body></html>");
    });
    const r = await get(`${s.url}/page`);
    expect(r).toEqual({ url: `${s.url}/page`, statusCode: 200, body: { kind: "html", content: "<html><head></head><body><p>Hello <b>world</b></p></body></html>" }, truncated: false });
  });

  it("404 and 500 are results with their bodies, not errors", async () => {
    const s = await serve((req, res) => {
      const status = req.url === "/missing" ? 404 : 500;
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status === 404 ? "no such page" : "it broke");
    });
    expect(await get(`${s.url}/missing`)).toMatchObject({ statusCode: 404, body: { kind: "text", content: "no such page" } });
    expect(await get(`${s.url}/boom`)).toMatchObject({ statusCode: 500, body: { kind: "text", content: "it broke" } });
  });

  it("sends the product User-Agent and no cookies, even after a redirect that sets one", async () => {
    const s = await serve((req, res) => {
      if (req.url === "/start") {
        res.writeHead(302, { location: "/end", "set-cookie": "sid=abc; Path=/" });
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{\"ok\":true}");
    });
    const r = await get(`${s.url}/start`);
    expect(r).toMatchObject({ url: `${s.url}/end`, statusCode: 200, body: { kind: "text", content: "{\"ok\":true}" } });
    expect(s.requests.map((q) => q.headers["user-agent"])).toEqual([USER_AGENT, USER_AGENT]);
    expect(s.requests.every((q) => q.headers.cookie === undefined && q.headers.authorization === undefined)).toBe(true);
  });

  it("follows same-origin redirects (relative and absolute) and reports the final URL", async () => {
    const s = await serve((req, res) => {
      if (req.url === "/a") return void res.writeHead(301, { location: "b" }).end();
      if (req.url === "/b") return void res.writeHead(307, { location: `${s.url}/c?x=1` }).end();
      res.writeHead(200, { "content-type": "text/markdown" }).end("# done");
    });
    expect(await get(`${s.url}/a`)).toMatchObject({ url: `${s.url}/c?x=1`, statusCode: 200, body: { kind: "text", content: "# done" } });
  });

  it("a cross-origin redirect is blocked_redirect naming the target, which is never contacted", async () => {
    const other = await serve((_req, res) => res.end("other"));
    const s = await serve((_req, res) => res.writeHead(302, { location: `${other.url}/landing` }).end());
    const error = await rejection(get(`${s.url}/go`));
    expect(error.publicCode).toBe("blocked_redirect");
    expect(error.message).toContain(`${other.url}/landing`);
    expect(error.data?.target).toBe(`${other.url}/landing`);
    expect(other.connections()).toBe(0);
  });

  it("a redirect to a private address is not followed and opens no socket to it", async () => {
    let sockets = 0;
    const count = () => void sockets++;
    subscribe("net.client.socket", count);
    try {
      const s = await serve((_req, res) => res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end());
      const error = await rejection(get(s.url));
      expect(error.publicCode).toBe("blocked_redirect");
      expect(error.message).toContain("http://169.254.169.254/latest/meta-data/");
      expect(sockets).toBe(1); // only the allowlisted first hop
    } finally {
      unsubscribe("net.client.socket", count);
    }
  });

  it("caps a redirect loop", async () => {
    const s = await serve((_req, res) => res.writeHead(302, { location: "/loop" }).end());
    const error = await rejection(get(`${s.url}/loop`));
    expect(error.publicCode).toBe("blocked_redirect");
    expect(error.message).toContain("Stopped after 5 redirects");
    expect(s.requests).toHaveLength(DEFAULT_FETCH_LIMITS.maxRedirects + 1);
  });

  it("maxRedirects 0 follows none", async () => {
    const s = await serve((_req, res) => res.writeHead(302, { location: "/x" }).end());
    expect((await rejection(get(s.url, { maxRedirects: 0 }))).publicCode).toBe("blocked_redirect");
    expect(s.requests).toHaveLength(1);
  });

  it("decodes gzip bodies", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "content-encoding": "gzip" });
      res.end(gzipSync(Buffer.from("compressed text ✓")));
    });
    expect((await get(s.url)).body).toEqual({ kind: "text", content: "compressed text ✓" });
  });

  it("cuts text at the char cap and sets truncated", async () => {
    const s = await serve((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(5_000)));
    const r = await get(s.url, { maxChars: 1_000 });
    expect(r.truncated).toBe(true);
    expect(r.body.content).toHaveLength(1_000);
  });
});

describe("HTTP fetcher refusals (WEB-8)", () => {
  it("refuses binary and missing content types without reading the body", async () => {
    const s = await serve((req, res) => {
      if (req.url === "/png") return void res.writeHead(200, { "content-type": "image/png" }).end(Buffer.alloc(1024));
      if (req.url === "/bin") return void res.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.alloc(10));
      if (req.url === "/sse") return void res.writeHead(200, { "content-type": "text/event-stream" }).end("data: x\n\n");
      res.removeHeader("content-type");
      res.writeHead(200).end("mystery");
    });
    for (const path of ["/png", "/bin", "/sse", "/none"]) {
      const error = await rejection(get(`${s.url}${path}`));
      expect(error.publicCode, path).toBe("unsupported_content_type");
    }
  });

  it("refuses credentials in the URL, other schemes, over-long and malformed URLs", async () => {
    const s = await serve((_req, res) => res.end("x"));
    const host = new URL(s.url).host;
    for (const url of [`http://user:pass@${host}/`, `http://user@${host}/`, "ftp://example.com/file", "file:///etc/passwd", "javascript:alert(1)", "not a url", `${s.url}/${"a".repeat(2_100)}`]) {
      const error = await rejection(get(url));
      expect(error.publicCode, url).toBe("invalid_url");
    }
    expect(s.connections()).toBe(0);
  });

  it("a declared Content-Length over the byte cap is too_large before the body is read", async () => {
    let written = 0;
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-length": String(50_000_000) });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (written < 50_000_000) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => undefined);
      pump();
    });
    const error = await rejection(get(s.url));
    expect(error.publicCode).toBe("too_large");
    expect(written).toBeLessThan(50_000_000);
  });

  it("a 50 MB streamed body with no content in its first 5 MB stops at the byte cap: bytes sent and memory stay bounded", async () => {
    let written = 0;
    let closedAt = -1;
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }); // chunked: no length to refuse up front
      res.write("<html><body><script>"); // never closed: nothing after it is content, so the char cap never fills
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (written < 50_000_000 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => {
        closedAt = written;
      });
      pump();
    });
    global.gc?.();
    const base = process.memoryUsage();
    let peak = 0;
    const sample = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.arrayBuffers - (base.heapUsed + base.arrayBuffers));
    }, 2);
    try {
      const error = await rejection(get(s.url));
      expect(error.publicCode).toBe("too_large");
      expect(error.message).toContain("5,000,000 bytes");
    } finally {
      clearInterval(sample);
    }
    await new Promise((r) => setTimeout(r, 50));
    // The server could only push what the client read plus the socket buffers before the close.
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt).toBeLessThan(20_000_000);
    expect(peak).toBeLessThan(40_000_000);
  });

  it("times out a server that never answers and one that trickles its body", async () => {
    const silent = await serve(() => undefined);
    expect((await rejection(get(silent.url, { timeoutMs: 300 }))).publicCode).toBe("timeout");
    const trickle = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const t = setInterval(() => res.write("."), 50);
      res.on("close", () => clearInterval(t));
    });
    expect((await rejection(get(trickle.url, { timeoutMs: 300 }))).publicCode).toBe("timeout");
  });

  it("the caller's abort is `aborted`, also mid-body", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("partial");
    });
    const controller = new AbortController();
    const pending = get(s.url, {}, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect((await rejection(pending)).publicCode).toBe("aborted");
  });

  it("rejects invalid limits at construction", () => {
    for (const bad of [{ maxBytes: 0 }, { maxChars: -1 }, { timeoutMs: Number.NaN }, { maxRedirects: -1 }, { maxUrlLength: 1.5 }, { timeoutMs: 2 ** 40 }]) {
      expect(() => fetcher(bad as Partial<FetchLimits>), JSON.stringify(bad)).toThrow(/HTTP fetcher limit/);
    }
    expect(() => fetcher({ maxRedirects: 0 })).not.toThrow();
  });
});

describe("declared-charset decoding (WEB-8)", () => {
  const bytes = (res: import("node:http").ServerResponse, type: string, body: Buffer) => res.writeHead(200, { "content-type": type }).end(body);

  it("decodes ISO-8859-1 and Shift_JIS from the header, Shift_JIS from an HTML meta tag", async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0xa9]); // "café ©"
    const sjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]); // "日本語"
    const s = await serve((req, res) => {
      if (req.url === "/latin1") return bytes(res, "text/plain; charset=ISO-8859-1", latin1);
      if (req.url === "/sjis") return bytes(res, "text/plain; charset=\"Shift_JIS\"", sjis);
      if (req.url === "/meta") return bytes(res, "text/html", Buffer.concat([Buffer.from("<html><head><meta charset=\"shift_jis\"></head><body><p>"), sjis, Buffer.from("</p></body></html>")]));
      return bytes(res, "text/plain; charset=x-unknown-9", Buffer.from("?"));
    });
    expect((await get(`${s.url}/latin1`)).body.content).toBe("café ©");
    expect((await get(`${s.url}/sjis`)).body.content).toBe("日本語");
    expect((await get(`${s.url}/meta`)).body.content).toContain("<p>日本語</p>");
    expect((await rejection(get(`${s.url}/unknown`))).publicCode).toBe("unsupported_content_type");
  });
});

describe("connection pinning against DNS rebinding (WEB-9)", () => {
  let sockets = 0;
  const count = () => void sockets++;
  beforeEach(() => {
    sockets = 0;
    subscribe("net.client.socket", count);
  });
  afterEach(() => {
    unsubscribe("net.client.socket", count);
  });

  it("resolves once per hop and connects to the validated address; a second, private answer is refused", async () => {
    const answers = ["127.0.0.1", "10.0.0.1"];
    const asked: string[] = [];
    const resolve: Resolver = async (name) => {
      asked.push(name);
      const address = answers[Math.min(asked.length - 1, answers.length - 1)]!;
      return [{ address, family: 4 }];
    };
    const s = await serve((req, res) => {
      if (req.url === "/hop") return void res.writeHead(302, { location: "/next" }).end();
      res.writeHead(200, { "content-type": "text/plain" }).end(`host header ${req.headers.host}`);
    });
    const f = fetcher({}, resolve);
    const first = await f.fetch({ url: `http://rebind.test:${s.port}/` }, { signal: neverAborted() });
    // The request reached the validated 127.0.0.1 with the name kept for Host; no other lookup happened.
    expect(first.body.content).toBe(`host header rebind.test:${s.port}`);
    expect(asked).toEqual(["rebind.test"]);

    // The same name now answers 10.0.0.1: the next hop re-resolves and is refused before connecting.
    asked.length = 0;
    answers.splice(0, answers.length, "127.0.0.1", "10.0.0.1");
    const error = await rejection(f.fetch({ url: `http://rebind.test:${s.port}/hop` }, { signal: neverAborted() }));
    expect(error.publicCode).toBe("blocked_url");
    expect(error.message).toContain("10.0.0.1");
    expect(asked).toEqual(["rebind.test", "rebind.test"]);
    expect(s.requests.map((r) => r.path)).toEqual(["/", "/hop"]);
    expect(sockets).toBe(2); // one per allowed request, none for the refused hop
  });

  it("a name resolving to the metadata address is refused without a socket", async () => {
    const f = fetcher({}, async () => [{ address: "169.254.169.254", family: 4 }]);
    const error = await rejection(f.fetch({ url: "http://instance-metadata.test/latest/" }, { signal: neverAborted() }));
    expect(error.publicCode).toBe("blocked_url");
    expect(error.message).toContain("cloud metadata");
    expect(sockets).toBe(0);
  });
});
