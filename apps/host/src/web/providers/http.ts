import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { WebFetchResult } from "@seam/shared";
import { HostError } from "../../core/errors.js";
import { webError, type CallContext, type FetchProvider, type FetchRequest } from "../provider.js";
import { cutChars, HTTP_FETCHER_ID, readBody, tooLarge, type BodyKind } from "./read-body.js";
import { checkDestination, systemResolver, type Allowlist, type Destination, type ResolvedAddress, type Resolver } from "../ssrf.js";

/** The HTTP fetcher's limits (WEB-8). */
export interface FetchLimits {
  maxUrlLength: number;
  /** Response body bytes (after content decoding); more is `too_large`, read no further. */
  maxBytes: number;
  /** Decoded characters kept; more is cut and `truncated` is set. */
  maxChars: number;
  /** One overall deadline for every hop of one fetch. */
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { maxUrlLength: 2_048, maxBytes: 5_000_000, maxChars: 100_000, timeoutMs: 30_000, maxRedirects: 5 };
export const USER_AGENT = "Seam/0.1 (+web_fetch)";
export { cutChars, HTTP_FETCHER_ID };

export interface HttpFetcherOptions {
  limits?: Partial<FetchLimits>;
  resolve?: Resolver;
  /** Read once per fetch, so a settings change applies from the next call. */
  allowlist: () => Allowlist;
  userAgent?: string;
}

/** Throws `invalid_settings` for a limit that is not a positive integer (maxRedirects may be 0). */
export function validateLimits(partial: Partial<FetchLimits> = {}): FetchLimits {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...partial };
  for (const [name, value] of Object.entries(limits)) {
    const min = name === "maxRedirects" ? 0 : 1;
    const max = name === "timeoutMs" ? 2_147_483_647 : Number.MAX_SAFE_INTEGER;
    if (!Number.isInteger(value) || value < min || value > max) {
      throw webError("invalid_settings", `HTTP fetcher limit ${name} must be an integer ${min === 0 ? "≥ 0" : "≥ 1"}, got ${String(value)}.`);
    }
  }
  return limits;
}

/** The built-in fetch provider: anonymous public HTTP(S) behind the SSRF guard (WEB-8, WEB-9). */
export function createHttpFetcher(options: HttpFetcherOptions): FetchProvider {
  const limits = validateLimits(options.limits);
  const resolve = options.resolve ?? systemResolver;
  const userAgent = options.userAgent ?? USER_AGENT;

  const fetchOnce = async (raw: string, ctx: CallContext): Promise<WebFetchResult> => {
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    const signal = AbortSignal.any([ctx.signal, deadline]);
    const settle = (error: unknown): never => {
      if (ctx.signal.aborted) throw webError("aborted", `The fetch of ${raw} was cancelled.`, { provider: HTTP_FETCHER_ID });
      if (deadline.aborted) throw webError("timeout", `Fetching ${raw} took longer than ${limits.timeoutMs / 1000} s.`, { provider: HTTP_FETCHER_ID });
      if (error instanceof HostError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      throw webError("provider_failed", `Fetching ${raw} failed: ${code ? `${code} ` : ""}${(error as Error).message ?? String(error)}`.trim(), { provider: HTTP_FETCHER_ID, cause: error });
    };

    try {
      let current = checkUrl(raw, limits);
      const allowlist = options.allowlist();
      for (let hop = 0; ; hop++) {
        if (signal.aborted) settle(signal.reason);
        const destination = await untilAborted(checkDestination(current, { resolve, allowlist }), signal);
        const response = await request(current, destination, userAgent, signal);
        const location = response.headers.location;
        if (isRedirect(response.statusCode) && location) {
          response.resume();
          response.destroy();
          const target = redirectTarget(current, location);
          if (target.origin !== current.origin) {
            throw webError("blocked_redirect", `${current.href} redirects to ${target.href}, a different origin; it was not followed. Fetch ${target.href} in a new call if you want it.`, {
              provider: HTTP_FETCHER_ID,
              data: { url: current.href, target: target.href },
            });
          }
          if (hop + 1 > limits.maxRedirects) {
            throw webError("blocked_redirect", `Stopped after ${limits.maxRedirects} redirects (the next would go to ${target.href}); the page redirects too often or in a loop.`, {
              provider: HTTP_FETCHER_ID,
              data: { url: current.href, target: target.href },
            });
          }
          current = checkUrl(target.href, limits);
          continue;
        }
        return await readResponse(current, response, limits, signal);
      }
    } catch (error) {
      return settle(error);
    }
  };

  return {
    id: HTTP_FETCHER_ID,
    label: "HTTP fetch (built-in, SSRF-guarded)",
    available: () => true,
    describe: () => ({ problem: null, keySource: null, endpoint: null }),
    fetch: (req: FetchRequest, ctx: CallContext) => fetchOnce(req.url, ctx),
  };
}

/** http(s) only, bounded length, no credentials (WEB-8). */
export function checkUrl(raw: string, limits: Pick<FetchLimits, "maxUrlLength">): URL {
  if (raw.length > limits.maxUrlLength) throw webError("invalid_url", `The URL is ${raw.length} characters long; the limit is ${limits.maxUrlLength}.`, { provider: HTTP_FETCHER_ID });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw webError("invalid_url", `${JSON.stringify(raw.slice(0, 200))} is not a valid absolute URL.`, { provider: HTTP_FETCHER_ID });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw webError("invalid_url", `Only http and https URLs can be fetched, not ${url.protocol}.`, { provider: HTTP_FETCHER_ID });
  if (url.username || url.password) throw webError("invalid_url", "URLs with credentials (user:password@) are refused; web_fetch sends no credentials.", { provider: HTTP_FETCHER_ID });
  if (url.href.length > limits.maxUrlLength) throw webError("invalid_url", `The URL is longer than ${limits.maxUrlLength} characters once normalized.`, { provider: HTTP_FETCHER_ID });
  return url;
}

function redirectTarget(from: URL, location: string): URL {
  try {
    return new URL(location, from);
  } catch {
    throw webError("invalid_url", `${from.href} redirects to an invalid URL ${JSON.stringify(location.slice(0, 200))}.`, { provider: HTTP_FETCHER_ID });
  }
}

const isRedirect = (status: number | undefined) => status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/** A lookup that only ever answers with the validated addresses: the socket goes where the guard said. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = typeof options === "object" && options !== null ? options.family : undefined;
    const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
    const done = callback as (err: NodeJS.ErrnoException | null, address: string | { address: string; family: number }[], family?: number) => void;
    if (wanted.length === 0) {
      const err: NodeJS.ErrnoException = Object.assign(new Error("no validated address of the requested family"), { code: "ENOTFOUND" });
      done(err, "", 0);
      return;
    }
    if (typeof options === "object" && options !== null && options.all) done(null, wanted.map((a) => ({ address: a.address, family: a.family })));
    else done(null, wanted[0]!.address, wanted[0]!.family);
  };
}

function request(url: URL, destination: Destination, userAgent: string, signal: AbortSignal): Promise<IncomingMessage> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request({
      protocol: url.protocol,
      hostname: destination.hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: "GET",
      // A fresh connection per request: a pooled socket could belong to another, earlier validation.
      agent: false,
      lookup: pinnedLookup(destination.addresses),
      signal,
      headers: {
        "user-agent": userAgent,
        accept: "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,text/*;q=0.8,application/xml;q=0.8,*/*;q=0.1",
        "accept-encoding": "gzip, deflate, br",
      },
    }, resolve);
    req.on("error", reject);
    req.end();
  });
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

const TEXT_TYPES = new Set([
  "application/json", "application/ld+json", "application/xml", "application/javascript", "application/x-javascript", "application/ecmascript",
  "application/x-ndjson", "application/yaml", "application/x-yaml", "application/toml", "application/rss+xml", "application/atom+xml",
]);

/** The content-type allowlist: html, text, json, xml, markdown…; anything else is refused before the body is read. */
export function classify(contentType: string | undefined): BodyKind | null {
  if (!contentType) return null;
  const [mimeRaw, ...params] = contentType.split(";");
  const mime = mimeRaw!.trim().toLowerCase();
  const charsetParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("charset="));
  const charset = charsetParam ? charsetParam.slice(8).trim().replace(/^["']|["']$/g, "") || null : null;
  if (mime === "text/html" || mime === "application/xhtml+xml") return { kind: "html", charset };
  if (mime === "text/event-stream") return null;
  if (mime.startsWith("text/") || TEXT_TYPES.has(mime) || /^application\/[\w.+-]+\+(json|xml)$/.test(mime)) return { kind: "text", charset };
  return null;
}

async function readResponse(url: URL, res: IncomingMessage, limits: FetchLimits, signal: AbortSignal): Promise<WebFetchResult> {
  const status = res.statusCode ?? 0;
  const declared = Number(res.headers["content-length"]);
  const type = res.headers["content-type"];
  const kind = classify(type);
  const empty = status === 204 || status === 304 || declared === 0;
  if (!kind) {
    res.destroy();
    if (empty && !type) return { url: url.href, statusCode: status, body: { kind: "text", content: "" }, truncated: false };
    throw webError("unsupported_content_type", `${url.href} answered with content type ${type ? JSON.stringify(type.split(";")[0]!.trim()) : "(none)"}; web_fetch only reads HTML, text, JSON, XML and markdown.`, {
      provider: HTTP_FETCHER_ID,
      data: { url: url.href, contentType: type ?? null, statusCode: status },
    });
  }
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    res.destroy();
    throw tooLarge(url, limits.maxBytes, `declares ${declared} bytes`);
  }
  const { content, truncated } = await readBody(url, res, kind, limits, signal);
  return { url: url.href, statusCode: status, body: { kind: kind.kind, content }, truncated };
}
