import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpFetcher, type FetchLimits } from "../../src/web/providers/http.js";
import { NonContentStripper, stripNonContent } from "../../src/web/providers/strip-non-content.js";
import { compileAllowlist } from "../../src/web/ssrf.js";
import { loopback, neverAborted, type Handler, type Loopback } from "./helpers.js";
import { rejection } from "../support/errors.js";

const ALLOW = compileAllowlist(["127.0.0.1"]);
const get = (url: string, limits: Partial<FetchLimits> = {}) => createHttpFetcher({ allowlist: () => ALLOW, limits }).fetch({ url }, { signal: neverAborted() });

let servers: Loopback[] = [];
const serve = async (handler: Handler) => {
  const s = await loopback(handler);
  servers.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Writes each part as its own chunk, pausing between them so the client reads them one by one. */
async function inPieces(res: ServerResponse, type: string, parts: (string | Buffer)[]) {
  res.writeHead(200, { "content-type": type });
  res.flushHeaders();
  for (const part of parts) {
    res.write(part);
    await pause(8);
  }
  res.end();
}

/**
 * Streams `unit` repeated, one 64 KB chunk per timer tick (no length), until `total` bytes or the client
 * hangs up, counting what was written. Paced so the count reflects when the client closed, not how much
 * the loopback socket buffers (megabytes) could swallow.
 */
function endless(res: ServerResponse, prefix: string, unit: string, total: number) {
  const state = { written: 0, closedAt: -1 };
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.write(prefix);
  const chunk = Buffer.from(unit.repeat(Math.ceil(64 * 1024 / unit.length)));
  const timer = setInterval(() => {
    if (res.destroyed) return;
    if (state.written >= total) return void res.end();
    state.written += chunk.length;
    res.write(chunk);
  }, 1);
  res.on("close", () => {
    clearInterval(timer);
    state.closedAt = state.written;
  });
  return state;
}

async function until(check: () => boolean, ms = 2_000) {
  for (const end = Date.now() + ms; !check() && Date.now() < end;) await pause(10);
}

describe("streaming read: stop once the char cap is full (WEB-8)", () => {
  it("a 50 MB page stops after the content the char cap can use; the connection is closed and little was sent", async () => {
    let state = { written: 0, closedAt: -1 };
    const s = await serve((_req, res) => {
      state = endless(res, "<html><head><title>Big</title></head><body>", "<p>Some paragraph text.</p><script>track()</script>\n", 50_000_000);
    });
    const r = await get(s.url, { maxChars: 10_000 });
    expect(r.truncated).toBe(true);
    expect(r.body.content).toHaveLength(10_000);
    expect(r.body.content.startsWith("<html><head><title>Big</title></head><body><p>Some paragraph text.</p>\n<p>")).toBe(true);
    expect(r.body.content).not.toContain("script");
    await until(() => state.closedAt >= 0);
    expect(state.closedAt).toBeGreaterThan(0); // the client hung up before the server was done
    expect(state.closedAt).toBeLessThan(2_000_000); // a few chunks: well before the 5 MB byte cap, let alone the 50 MB
  });

  it("says truncated only when content past the cap was really seen", async () => {
    const exact = "<p>" + "x".repeat(993) + "</p>"; // 1,000 characters
    const s = await serve((req, res) => {
      if (req.url === "/exact") return inPieces(res, "text/html", [exact.slice(0, 500), exact.slice(500)]);
      if (req.url === "/exact-then-script") return inPieces(res, "text/html", [exact, "<script>", "y".repeat(20_000), "</script><!-- more -->"]);
      return inPieces(res, "text/html", [exact, "z"]);
    });
    expect(await get(`${s.url}/exact`, { maxChars: 1_000 })).toMatchObject({ truncated: false, body: { content: exact } });
    expect(await get(`${s.url}/exact-then-script`, { maxChars: 1_000 })).toMatchObject({ truncated: false, body: { content: exact } });
    expect(await get(`${s.url}/one-more`, { maxChars: 1_000 })).toMatchObject({ truncated: true, body: { content: exact } });
  });

  it("the byte cap still applies when its bytes do not fill the char cap; content within them is truncated, not an error", async () => {
    const s = await serve((req, res) => {
      if (req.url === "/scripts") return inPieces(res, "text/html", [`<script>${"s".repeat(3_000)}</script>`, "<p>late content</p>"]);
      return inPieces(res, "text/html", [`<p>${"c".repeat(3_000)}</p>`]);
    });
    const error = await rejection(get(`${s.url}/scripts`, { maxBytes: 2_000, maxChars: 100 }));
    expect(error.publicCode).toBe("too_large");
    expect(error.message).toContain("2,000 bytes");
    const r = await get(`${s.url}/content`, { maxBytes: 2_000, maxChars: 100 });
    expect(r).toMatchObject({ truncated: true, body: { content: `<p>${"c".repeat(97)}` } });
  });
});

describe("streaming read: incremental decoding (WEB-8)", () => {
  it("multibyte characters split across chunks decode whole, declared or not", async () => {
    const text = Buffer.from("日本語 café ✓ 😀 done");
    const pieces = [...text].map((byte) => Buffer.from([byte])); // every byte its own chunk
    const s = await serve((req, res) => {
      if (req.url === "/text") return inPieces(res, "text/plain; charset=utf-8", pieces);
      if (req.url === "/html") return inPieces(res, "text/html", [Buffer.from("<p>"), ...pieces, Buffer.from("</p>")]);
      // Past the 2,048 bytes an undeclared HTML page may use to name its charset, split mid-character.
      const filler = Buffer.from(`<p>${"f".repeat(2_040)}`);
      return inPieces(res, "text/html", [Buffer.concat([filler, text.subarray(0, 4)]), text.subarray(4, 9), text.subarray(9)]);
    });
    expect((await get(`${s.url}/text`)).body.content).toBe("日本語 café ✓ 😀 done");
    expect((await get(`${s.url}/html`)).body.content).toBe("<p>日本語 café ✓ 😀 done</p>");
    expect((await get(`${s.url}/long`)).body.content).toBe(`<p>${"f".repeat(2_040)}日本語 café ✓ 😀 done`);
  });

  it("takes the charset from a meta tag that arrives in a later chunk, and decodes split Shift_JIS", async () => {
    const sjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]); // "日本語"
    const s = await serve((req, res) => {
      if (req.url === "/windows") {
        return inPieces(res, "text/html", [Buffer.from("<html><head><meta http-equiv=\"content-type\" content=\"text/html; charset=windows-1252\">"), Buffer.from([0x63, 0x61, 0x66]), Buffer.from([0xe9, 0x20, 0x80])]);
      }
      return inPieces(res, "text/html", ["<html><head>", "<meta charset=\"shift_jis\"></head><body><p>", sjis.subarray(0, 3), sjis.subarray(3), "</p></body></html>"]);
    });
    expect((await get(`${s.url}/sjis`)).body.content).toBe("<html><head><meta charset=\"shift_jis\"></head><body><p>日本語</p></body></html>");
    expect((await get(`${s.url}/windows`)).body.content).toContain("café €");
  });

  it("scripts, styles and comments split across chunks are still dropped", async () => {
    const s = await serve((_req, res) => inPieces(res, "text/html; charset=utf-8", ["<p>a</p><scr", "ipt>var x = '</p>'</SCR", "IPT ><!-", "- c -", "-><style>p{}</st", "yle><p>b</p><", "noscript>n</noscript>"]));
    expect((await get(s.url)).body.content).toBe("<p>a</p><p>b</p>");
  });
});

describe("NonContentStripper", () => {
  const page = "<html><head><style>a{}</style><SCRIPT type=x>if (a < b) x('<p>')</SCRIPT></head><body><!-- c <p> --><p>keep <b>this</b> 3 < 4</p>"
    + "<template><p>t</p></template><noscript>ns</noscript><scripted>kept</scripted><p>end</p><script>never closed";
  const expected = "<html><head></head><body><p>keep <b>this</b> 3 < 4</p><scripted>kept</scripted><p>end</p>";

  it("drops the same parts whether the page comes whole or split at any point", () => {
    expect(stripNonContent(page)).toBe(expected);
    for (let at = 0; at <= page.length; at++) {
      const s = new NonContentStripper();
      expect(s.push(page.slice(0, at)) + s.push(page.slice(at), true), `split at ${at}`).toBe(expected);
    }
  });

  it("character by character gives the same result", () => {
    const s = new NonContentStripper();
    let out = "";
    for (const c of page) out += s.push(c);
    expect(out + s.push("", true)).toBe(expected);
  });
});
