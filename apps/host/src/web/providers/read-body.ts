import type { IncomingMessage } from "node:http";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { webError } from "../provider.js";
import { NonContentStripper } from "./strip-non-content.js";

export const HTTP_FETCHER_ID = "http";

export type BodyKind = { kind: "html" | "text"; charset: string | null };
export interface BodyLimits { maxBytes: number; maxChars: number }
export interface ReadBody { content: string; truncated: boolean }

/** How many leading bytes an HTML page without a declared charset may use to name one in a meta tag. */
const META_SNIFF_BYTES = 2_048;

/**
 * Streams a response body into at most `maxChars` characters of content (WEB-8), holding no more than
 * that plus one network chunk: bytes are content-decoded, charset-decoded and (HTML) stripped of
 * scripts, styles and comments as they arrive. Reading stops, and the connection is closed, as soon as
 * one character past the char cap has been seen (`truncated`: there really is more). The byte cap
 * stays: a body whose first `maxBytes` bytes do not fill the char cap and that goes on is `too_large`.
 */
export async function readBody(url: URL, res: IncomingMessage, kind: BodyKind, limits: BodyLimits, signal: AbortSignal): Promise<ReadBody> {
  let decoder: InstanceType<typeof TextDecoder> | null;
  let body: Readable;
  try {
    decoder = kind.charset !== null || kind.kind === "text" ? textDecoder(kind.charset ?? "utf-8", url) : null;
    body = decoded(res);
  } catch (error) {
    res.destroy();
    throw error;
  }
  const content = new ContentBuffer(limits.maxChars, kind.kind === "html" ? new NonContentStripper() : null);
  let sniffed: Buffer[] = [];
  let sniffedBytes = 0;
  let total = 0;
  const onAbort = () => body.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
  signal.addEventListener("abort", onAbort, { once: true });
  const feed = (bytes: Buffer): boolean => {
    if (decoder) return content.push(decoder.decode(bytes, { stream: true }));
    // No declared charset on an HTML page: hold the first bytes until a meta tag can be looked for.
    sniffed.push(bytes);
    sniffedBytes += bytes.length;
    return sniffedBytes >= META_SNIFF_BYTES ? flushSniffed() : false;
  };
  const flushSniffed = (): boolean => {
    const head = Buffer.concat(sniffed, sniffedBytes);
    sniffed = [];
    decoder = textDecoder(sniffMetaCharset(head) ?? "utf-8", url);
    return content.push(decoder.decode(head, { stream: true }));
  };
  try {
    let full = false;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const room = limits.maxBytes - total;
      total += chunk.length;
      if (total > limits.maxBytes) {
        // The bytes within the cap may still fill the char cap; past it nothing is read.
        if (feed(chunk.subarray(0, room)) || (!decoder && flushSniffed())) {
          full = true;
          break;
        }
        throw tooLarge(url, limits.maxBytes, "is larger than that");
      }
      if (feed(chunk)) {
        full = true;
        break;
      }
    }
    if (signal.aborted) throw signal.reason;
    if (!full) {
      if (!decoder) flushSniffed();
      content.push(decoder!.decode(), true);
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Early stop, too_large or abort: close the connection so the server stops sending.
    body.destroy();
    res.destroy();
  }
  return content.result();
}

/** Keeps the first `max` characters of content, plus whether a character beyond them was seen. */
class ContentBuffer {
  private parts: string[] = [];
  private length = 0;

  constructor(private readonly max: number, private readonly stripper: NonContentStripper | null) {}

  /** True once the content runs past the cap: nothing further can be shown. */
  push(text: string, final = false): boolean {
    const kept = this.stripper ? this.stripper.push(text, final) : text;
    if (kept.length === 0) return false;
    this.parts.push(kept);
    this.length += kept.length;
    if (this.length > this.max) {
      this.parts = [this.parts.join("")];
      return true;
    }
    return false;
  }

  result(): ReadBody {
    const content = this.parts.join("");
    const truncated = content.length > this.max;
    return { content: truncated ? cutChars(content, this.max) : content, truncated };
  }
}

function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  const make = encoding === "gzip" || encoding === "x-gzip" ? createGunzip : encoding === "deflate" ? createInflate : encoding === "br" ? createBrotliDecompress : null;
  if (encoding === "identity" || encoding === "") return res;
  if (!make) {
    res.destroy();
    throw webError("unsupported_content_type", `The response uses content encoding ${JSON.stringify(encoding)}, which web_fetch cannot decode.`, { provider: HTTP_FETCHER_ID });
  }
  const out = make();
  pipeline(res, out, () => {});
  return out;
}

export function tooLarge(url: URL, maxBytes: number, what: string) {
  return webError("too_large", `${url.href} ${what}: web_fetch reads at most ${maxBytes.toLocaleString("en-US")} bytes per page.`, {
    provider: HTTP_FETCHER_ID,
    data: { url: url.href, maxBytes },
  });
}

/** A streaming decoder for the declared charset (header, else an HTML meta declaration, else UTF-8). */
function textDecoder(label: string, url: URL): InstanceType<typeof TextDecoder> {
  try {
    return new TextDecoder(label);
  } catch {
    throw webError("unsupported_content_type", `${url.href} declares the character set ${JSON.stringify(label)}, which web_fetch cannot decode.`, { provider: HTTP_FETCHER_ID });
  }
}

function sniffMetaCharset(bytes: Buffer): string | null {
  const head = bytes.subarray(0, META_SNIFF_BYTES).toString("latin1");
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)/i.exec(head);
  return m ? m[1]! : null;
}

/** The first `max` characters, never splitting a surrogate pair. */
export function cutChars(text: string, max: number): string {
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}
