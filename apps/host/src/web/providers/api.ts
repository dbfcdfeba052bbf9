import type { WebProviderOptions, WebSearchResult, WebSettings, WebSource } from "@seam/shared";
import { HostError, messageOf } from "../../core/errors.js";
import type { SecretSource } from "../../llm/secrets.js";
import { webError, type CallContext, type ProviderDescription, type SearchProvider, type SearchRequest } from "../provider.js";

/** What every search adapter reads: the live settings (snapshotted once per operation) and the secrets. */
export interface ApiProviderDeps {
  settings: () => WebSettings;
  secrets: SecretSource;
}

export interface ApiDefaults { id: string; baseURL: string; keyEnv: string; model?: string }

/** One operation's settings: endpoint, key, model and timeout, read once (WEB-10). */
export interface ApiSnapshot {
  baseURL: string;
  keyEnv: string;
  key: string;
  keySource: string;
  model: string;
  timeoutMs: number;
}

type KeyState = { key: string; source: string } | { problem: string };

function keyState(secrets: SecretSource, keyEnv: string): KeyState {
  try {
    const found = secrets.get(keyEnv);
    if (found) return { key: found.value, source: found.source };
    return { problem: `${keyEnv} is not set. Export it before starting Seam, or add it to $SEAM_HOME/secrets.json (mode 0600).` };
  } catch (error) {
    return { problem: error instanceof HostError ? error.message : `Cannot look up ${keyEnv}: ${messageOf(error)}` };
  }
}

/** Shared plumbing for the key-based search adapters: local availability, description and per-call snapshot. */
export function apiConfig(deps: ApiProviderDeps, defaults: ApiDefaults) {
  const options = (): WebProviderOptions => deps.settings().providers[defaults.id] ?? {};
  const baseURL = (o: WebProviderOptions) => (o.baseURL ?? defaults.baseURL).replace(/\/+$/, "");
  const keyEnv = (o: WebProviderOptions) => o.apiKeyEnv ?? defaults.keyEnv;

  const describe = (): ProviderDescription => {
    const o = options();
    const state = keyState(deps.secrets, keyEnv(o));
    const endpoint = baseURL(o);
    const badUrl = URL.canParse(endpoint) ? null : `The base URL ${JSON.stringify(endpoint)} is not a valid URL.`;
    return { problem: "problem" in state ? state.problem : badUrl, keySource: "source" in state ? state.source : null, endpoint };
  };

  return {
    describe,
    available: () => describe().problem === null,
    snapshot(): ApiSnapshot {
      const settings = deps.settings();
      const o = settings.providers[defaults.id] ?? {};
      const state = keyState(deps.secrets, keyEnv(o));
      if ("problem" in state) throw webError("provider_unavailable", state.problem, { provider: defaults.id });
      return { baseURL: baseURL(o), keyEnv: keyEnv(o), key: state.key, keySource: state.source, model: o.model ?? defaults.model ?? "", timeoutMs: settings.searchTimeoutMs };
    },
  };
}

/** One search operation's snapshot, and a POST to its endpoint under the call's signal and the snapshot's timeout. */
export interface ApiCall extends ApiSnapshot {
  post(path: string, headers: Record<string, string>, body: unknown): Promise<unknown>;
}

/**
 * A key-based search adapter: availability and description come from `apiConfig`, and `search` runs
 * with one snapshot of the settings per operation.
 */
export function apiSearchProvider(
  deps: ApiProviderDeps,
  defaults: ApiDefaults & { label: string },
  search: (request: SearchRequest, ctx: CallContext, call: ApiCall) => Promise<WebSearchResult>,
): SearchProvider {
  const config = apiConfig(deps, defaults);
  return {
    id: defaults.id,
    label: defaults.label,
    available: config.available,
    describe: config.describe,
    async search(request, ctx) {
      const s = config.snapshot();
      const post = (path: string, headers: Record<string, string>, body: unknown) =>
        postJson({ provider: defaults.id, url: `${s.baseURL}${path}`, headers, body, signal: ctx.signal, timeoutMs: s.timeoutMs });
      return search(request, ctx, { ...s, post });
    },
  };
}

export interface PostJson {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  timeoutMs: number;
  /** Response bytes read at most (default 5 MB). */
  maxBytes?: number;
}

/**
 * POSTs JSON to a configured provider endpoint and returns the parsed body. Redirects are refused,
 * one timeout covers the whole exchange, the caller's signal aborts it. Not behind the SSRF guard:
 * these are endpoints the deployment configured, not URLs the model chose.
 */
export async function postJson(req: PostJson): Promise<unknown> {
  const deadline = AbortSignal.timeout(req.timeoutMs);
  const signal = AbortSignal.any([req.signal, deadline]);
  const where = endpointName(req.url);
  const fail = (error: unknown): never => {
    if (req.signal.aborted) throw webError("aborted", `The ${req.provider} request was cancelled.`, { provider: req.provider });
    if (deadline.aborted) throw webError("timeout", `${req.provider} did not answer within ${req.timeoutMs / 1000} s.`, { provider: req.provider });
    if (error instanceof HostError) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? messageOf(error);
    throw webError("provider_failed", `Cannot reach ${req.provider} at ${where}: ${detail}.`, { provider: req.provider, cause: error });
  };

  try {
    const res = await fetch(req.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...req.headers },
      body: JSON.stringify(req.body),
      redirect: "manual",
      signal,
    });
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      throw webError("provider_failed", `${req.provider} at ${where} answered with a redirect (HTTP ${res.status}); provider requests never follow redirects. Check the base URL in Settings → Web.`, {
        provider: req.provider,
        data: { status: res.status },
      });
    }
    const text = await readCapped(res, req.maxBytes ?? 5_000_000, req.provider);
    if (!res.ok) {
      const hint = res.status === 401 || res.status === 403 ? " Check the API key." : res.status === 429 ? " The provider is rate-limiting or out of quota." : "";
      throw webError("provider_failed", `${req.provider} answered HTTP ${res.status}: ${errorDetail(text)}${hint}`, { provider: req.provider, data: { status: res.status } });
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw webError("invalid_response", `${req.provider} answered with a body that is not JSON.`, { provider: req.provider });
    }
  } catch (error) {
    return fail(error);
  }
}

async function readCapped(res: Response, maxBytes: number, provider: string): Promise<string> {
  if (!res.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > maxBytes) {
      await res.body.cancel().catch(() => {});
      throw webError("invalid_response", `${provider} sent more than ${maxBytes} bytes.`, { provider });
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}

/** The provider's own error message if the body carries one, else the first characters of the body. */
function errorDetail(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof parsed.error === "string" ? parsed.error : parsed.error?.message ?? parsed.message;
    if (typeof m === "string" && m) return m.slice(0, 300);
  } catch {
    // not JSON: fall through
  }
  return text.trim().slice(0, 300) || "(empty body)";
}

function endpointName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** Narrowing helpers for untyped JSON. */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);

/** A source from an untyped result item: none without a URL; blank fields left out, title and snippet trimmed. */
export function sourceOf(item: { url: unknown; title?: unknown; snippet?: unknown; publishedAt?: unknown }): WebSource | undefined {
  const url = str(item.url);
  if (!url) return undefined;
  const source: WebSource = { url };
  const title = str(item.title);
  if (title) source.title = title.trim();
  const snippet = str(item.snippet);
  if (snippet) source.snippet = snippet.trim();
  const publishedAt = str(item.publishedAt);
  if (publishedAt) source.publishedAt = publishedAt;
  return source;
}
