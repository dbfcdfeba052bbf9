import { WebFetchResult, WebSearchResult, type WebCallOutcome, type WebKind, type WebSelection } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import type { Disposer } from "../core/scope.js";
import {
  codeOf, throwIfAborted, webError,
  type CallContext, type FetchProvider, type FetchRequest, type Provider, type SearchProvider, type SearchRequest,
} from "./provider.js";

export interface Outcome<R> { provider: string; result: R }

/** The web seam's service (WEB-1..6): two registries, selection on every call, seam-enforced caps, health facts. */
export interface WebService {
  /** Throws `duplicate_provider` when the id is taken; the disposer removes exactly this registration. */
  registerSearch(provider: SearchProvider): Disposer;
  registerFetch(provider: FetchProvider): Disposer;
  /** Selects per the six-row table, calls the provider, truncates `sources` to `maxResults` (WEB-4). */
  search(request: SearchRequest, ctx: CallContext): Promise<Outcome<WebSearchResult>>;
  fetch(request: FetchRequest, ctx: CallContext): Promise<Outcome<WebFetchResult>>;
  /** What selection gives right now, without calling anything. */
  selection(kind: WebKind): WebSelection;
  /** Registered providers of a kind, sorted by id. */
  providers(kind: WebKind): Provider[];
  get(kind: WebKind, id: string): Provider | undefined;
  /** The last real call to a provider (tool call or probe), if any. */
  lastCall(kind: WebKind, id: string): WebCallOutcome | null;
  /** Calls one named provider directly (a probe), recording the outcome. */
  callProvider<R>(kind: WebKind, id: string, run: (p: Provider) => Promise<R>, probe: boolean): Promise<R>;
}

export interface WebServiceOptions {
  /** The configured ids, read on every call (the setting behind both doors). */
  configured: () => { search: string | null; fetch: string | null };
  /** Explains a selection error in terms of where the setting lives. */
  envVar?: (kind: WebKind) => string;
  now?: () => number;
}

const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function createWebService(options: WebServiceOptions): WebService {
  const registries: Record<WebKind, Map<string, Provider>> = { search: new Map(), fetch: new Map() };
  const calls = new Map<string, WebCallOutcome>();
  const now = options.now ?? (() => performance.now());

  const register = (kind: WebKind, provider: Provider): Disposer => {
    const id = provider?.id;
    if (typeof id !== "string" || !PROVIDER_ID.test(id)) {
      throw new HostError("bad_input:web", `Invalid ${kind} provider id ${JSON.stringify(id)}: use lowercase letters, digits, "-" or "_".`, { reason: "invalid_provider_id" });
    }
    const registry = registries[kind];
    if (registry.has(id)) throw webError("duplicate_provider", `A ${kind} provider with id "${id}" is already registered.`, { provider: id, kind });
    registry.set(id, provider);
    return () => {
      if (registry.get(id) === provider) registry.delete(id);
    };
  };

  const isAvailable = (p: Provider) => {
    try {
      return p.available() === true;
    } catch {
      return false;
    }
  };

  const problemOf = (p: Provider) => {
    try {
      return p.describe?.().problem ?? null;
    } catch (error) {
      return messageOf(error);
    }
  };

  const choose = (kind: WebKind): Provider => {
    const registry = registries[kind];
    const configured = options.configured()[kind];
    const where = `Settings → Web${options.envVar ? ` or ${options.envVar(kind)}` : ""}`;
    if (configured) {
      const provider = registry.get(configured);
      if (!provider) {
        const known = [...registry.keys()].sort();
        throw webError("provider_not_found", `The configured ${kind} provider "${configured}" is not registered${known.length ? ` (registered: ${known.join(", ")})` : ""}. Choose another one in ${where}.`, { provider: configured, kind });
      }
      if (!isAvailable(provider)) {
        const problem = problemOf(provider);
        throw webError("provider_unavailable", `The configured ${kind} provider "${configured}" is not available${problem ? `: ${problem}` : "."}`, { provider: configured, kind });
      }
      return provider;
    }
    const all = [...registry.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
    const available = all.filter(isAvailable);
    if (available.length === 1) return available[0]!;
    if (available.length === 0) {
      const why = all.map((p) => `${p.id}: ${problemOf(p) ?? "not available"}`).join("; ");
      throw webError("no_provider_available", `No ${kind} provider is available${all.length ? ` (${why})` : " (none is registered)"}.`, { kind });
    }
    // Never first-wins: registration order is not product policy.
    throw webError("ambiguous_provider", `Several ${kind} providers are available (${available.map((p) => p.id).join(", ")}) and none is chosen. Choose one in ${where}.`, {
      kind,
      data: { candidates: available.map((p) => p.id) },
    });
  };

  const record = (kind: WebKind, id: string, started: number, error: unknown, probe: boolean) => {
    const code = error === undefined ? null : codeOf(error);
    if (code === "aborted") return; // a cancelled call says nothing about the provider's health
    calls.set(`${kind}:${id}`, {
      ok: error === undefined,
      code,
      message: error === undefined ? null : messageOf(error),
      latencyMs: Math.round((now() - started) * 10) / 10,
      at: new Date().toISOString(),
      probe,
    });
  };

  /** Runs one provider call: abort check, error normalization (provider id attached), health record. */
  const invoke = async <R>(kind: WebKind, provider: Provider, run: () => Promise<R>, signal: AbortSignal | undefined, probe: boolean): Promise<R> => {
    if (signal) throwIfAborted(signal, provider.id);
    const started = now();
    try {
      const result = await run();
      record(kind, provider.id, started, undefined, probe);
      return result;
    } catch (thrown) {
      const error = normalize(thrown, provider.id, kind, signal);
      record(kind, provider.id, started, error, probe);
      throw error;
    }
  };

  const service: WebService = {
    registerSearch: (p) => register("search", p),
    registerFetch: (p) => register("fetch", p),

    async search(request, ctx) {
      if (!Number.isInteger(request.maxResults) || request.maxResults < 1) {
        throw new HostError("bad_input:web", `maxResults must be a positive integer, got ${String(request.maxResults)}.`, { reason: "invalid_request" });
      }
      throwIfAborted(ctx.signal);
      const provider = choose("search") as SearchProvider;
      const result = await invoke("search", provider, async () => {
        const raw = await provider.search(request, ctx);
        const parsed = WebSearchResult.safeParse(raw);
        if (!parsed.success) throw webError("invalid_response", `Search provider "${provider.id}" returned a malformed result.`, { provider: provider.id });
        return parsed.data;
      }, ctx.signal, false);
      const cut = result.sources.length > request.maxResults;
      // The cap is the seam's guarantee, whatever the provider did.
      return { provider: provider.id, result: { ...result, sources: cut ? result.sources.slice(0, request.maxResults) : result.sources, truncated: cut || result.truncated } };
    },

    async fetch(request, ctx) {
      throwIfAborted(ctx.signal);
      const provider = choose("fetch") as FetchProvider;
      const result = await invoke("fetch", provider, async () => {
        const parsed = WebFetchResult.safeParse(await provider.fetch(request, ctx));
        if (!parsed.success) throw webError("invalid_response", `Fetch provider "${provider.id}" returned a malformed result.`, { provider: provider.id });
        return parsed.data;
      }, ctx.signal, false);
      return { provider: provider.id, result };
    },

    selection(kind) {
      try {
        return { ok: true, id: choose(kind).id };
      } catch (error) {
        return { ok: false, code: codeOf(error), message: messageOf(error) };
      }
    },
    providers: (kind) => [...registries[kind].values()].sort((a, b) => (a.id < b.id ? -1 : 1)),
    get: (kind, id) => registries[kind].get(id),
    lastCall: (kind, id) => calls.get(`${kind}:${id}`) ?? null,
    async callProvider(kind, id, run, probe) {
      const provider = registries[kind].get(id);
      if (!provider) throw webError("provider_not_found", `No ${kind} provider "${id}" is registered.`, { provider: id, kind });
      if (!isAvailable(provider)) {
        const problem = problemOf(provider);
        throw webError("provider_unavailable", `The ${kind} provider "${id}" is not available${problem ? `: ${problem}` : "."}`, { provider: id, kind });
      }
      return invoke(kind, provider, () => run(provider), undefined, probe);
    },
  };
  return service;
}

/** Every failure leaves the seam as a HostError with an open code and the provider id (WEB-6). */
function normalize(error: unknown, provider: string, kind: WebKind, signal: AbortSignal | undefined): HostError {
  if (signal?.aborted && !(error instanceof HostError && error.publicCode === "timeout")) {
    return webError("aborted", `The ${kind} request to ${provider} was cancelled.`, { provider, kind, cause: error });
  }
  if (error instanceof HostError) {
    if (error.data?.provider) return error;
    return new HostError(error.code, error.message, { ...error.data, provider, webKind: kind }, { cause: error.cause });
  }
  return webError("provider_failed", `The ${kind} provider "${provider}" failed: ${messageOf(error)}`, { provider, kind, cause: error });
}
