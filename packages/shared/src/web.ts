import { z } from "zod";
import { atMostEntries, envVarName, URL_MAX } from "./limits.js";

/**
 * The web seam's wire shapes (SPEC §2, WEB-1..11): settings, the closed result vocabularies, the
 * canonical tool results and the health view. Keys never appear here — only where to find them.
 */

/** A provider id: lowercase letters, digits, `-` and `_` (e.g. `exa`, `perplexity`, `deepseek`, `http`). */
export const WebProviderId = z.string().max(64).trim().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "Use a provider id like exa, perplexity, deepseek or http");
export type WebProviderId = z.infer<typeof WebProviderId>;

export const WebKind = z.enum(["search", "fetch"]);
export type WebKind = z.infer<typeof WebKind>;

const envName = envVarName("EXA_API_KEY", { trim: true });
const httpUrl = z.url({ protocol: /^https?$/, error: "Use an http(s) URL" }).max(URL_MAX);
/** Most entries in `providers` (there are a handful of adapters; the rest is headroom). */
export const WEB_PROVIDERS_MAX = 50;

/** Per-provider options. `apiKeyEnv` names the env var / secrets-file key holding the key, never the key. */
export const WebProviderOptions = z.object({
  baseURL: httpUrl.optional(),
  apiKeyEnv: envName.optional(),
  /** Model id for providers that call a model (Perplexity, DeepSeek). */
  model: z.string().trim().min(1).max(200).optional(),
}).strict();
export type WebProviderOptions = z.infer<typeof WebProviderOptions>;

/**
 * One fetch-allowlist entry: a host name (`intranet.example`, `*.corp.example`), an IP address or a
 * CIDR (`127.0.0.1/32`, `fd12::/16`). The host validates entries strictly when saving.
 */
export const WebAllowlistEntry = z.string().trim().min(1).max(255).regex(
  /^(\*\.)?[A-Za-z0-9_.-]+\.?$|^\[?[0-9A-Fa-f:.]+\]?(\/\d{1,3})?$/,
  "Use a host name, an IP address or a CIDR such as 10.0.0.0/8",
);

/** Settings → Web (WEB-3, WEB-7, WEB-9). Stored under the setting key `web`. */
export const WebSettings = z.object({
  /** Register `web_search` (default on). Registration never depends on provider health. */
  searchEnabled: z.boolean().default(true),
  /** Register `web_fetch` (default on: the SSRF guard is in place). */
  fetchEnabled: z.boolean().default(true),
  /** The configured search provider id; null = unset (auto-select the single available one). */
  searchProvider: WebProviderId.nullable().default(null),
  fetchProvider: WebProviderId.nullable().default(null),
  /** Most queries one web_search call may carry. */
  searchMaxQueries: z.number().int().min(1).max(10).default(4),
  /** Most sources one web_search call returns (merged across its queries). */
  searchMaxResults: z.number().int().min(1).max(50).default(8),
  /** Cap on the text web_fetch shows the model. */
  fetchMaxChars: z.number().int().min(1_000).max(1_000_000).default(200_000),
  searchTimeoutMs: z.number().int().min(1_000).max(600_000).default(30_000),
  fetchTimeoutMs: z.number().int().min(1_000).max(600_000).default(30_000),
  /** The only way past the SSRF guard: host names, IPs or CIDRs web_fetch may reach although private. */
  fetchAllowlist: z.array(WebAllowlistEntry).max(200).default([]),
  /** The URL a fetch-provider probe requests. */
  fetchProbeUrl: httpUrl.default("https://example.com/"),
  /** Options by provider id. */
  providers: z.record(WebProviderId, WebProviderOptions).superRefine(atMostEntries(WEB_PROVIDERS_MAX, "providers")).default({}),
});
export type WebSettings = z.infer<typeof WebSettings>;
/** What a client may send (every field optional; defaults fill the rest). */
export type WebSettingsInput = z.input<typeof WebSettings>;

/** One cited source. Only `url` is required; adapters never invent titles (WEB-4). */
export const WebSource = z.object({
  url: z.string().min(1),
  title: z.string().optional(),
  snippet: z.string().optional(),
  publishedAt: z.string().optional(),
});
export type WebSource = z.infer<typeof WebSource>;

/** The closed search result (WEB-4). */
export const WebSearchResult = z.object({
  content: z.string().optional(),
  sources: z.array(WebSource),
  truncated: z.boolean(),
});
export type WebSearchResult = z.infer<typeof WebSearchResult>;

/** The closed fetch result (WEB-5): a 404 or 500 is a result, not an error. */
export const WebFetchResult = z.object({
  /** Final URL after the allowed (same-origin) redirects. */
  url: z.string(),
  statusCode: z.number().int(),
  body: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("html"), content: z.string() }),
    z.object({ kind: z.literal("text"), content: z.string() }),
  ]),
  truncated: z.boolean(),
});
export type WebFetchResult = z.infer<typeof WebFetchResult>;

/** Canonical result of a `web_search` tool call: each query's closed result, then the merged source list. */
export const WebSearchToolResult = z.object({
  results: z.array(z.object({ query: z.string(), provider: z.string(), result: WebSearchResult })),
  /** Round-robin by rank across queries, deduped by URL, capped at `searchMaxResults`. */
  sources: z.array(WebSource),
  truncated: z.boolean(),
});
export type WebSearchToolResult = z.infer<typeof WebSearchToolResult>;

/** Canonical result of a `web_fetch` tool call. */
export const WebFetchToolResult = z.object({ provider: z.string(), result: WebFetchResult });
export type WebFetchToolResult = z.infer<typeof WebFetchToolResult>;

/** Canonical result of a failed web tool call: the open code, the provider (when one was chosen). */
export const WebToolError = z.object({
  error: z.object({ code: z.string(), message: z.string(), provider: z.string().nullable(), kind: WebKind }),
});
export type WebToolError = z.infer<typeof WebToolError>;

/** The last real call to a provider (a tool call or a probe). */
export const WebCallOutcome = z.object({
  ok: z.boolean(),
  /** The open error code, null on success. */
  code: z.string().nullable(),
  message: z.string().nullable(),
  latencyMs: z.number(),
  /** ISO time the call ended. */
  at: z.string(),
  probe: z.boolean(),
});
export type WebCallOutcome = z.infer<typeof WebCallOutcome>;

/** One provider row of the health view (WEB-11). */
export const WebProviderHealth = z.object({
  kind: WebKind,
  id: z.string(),
  label: z.string(),
  /** False for a configured id no provider registered. */
  registered: z.boolean(),
  /** The configured id names this provider. */
  configured: z.boolean(),
  /** The local check (credentials present, config parses); never a network call. */
  available: z.boolean(),
  /** Selection would use it for the next call. */
  selected: z.boolean(),
  /** Why it is not available, in words. */
  problem: z.string().nullable(),
  /** Where its key comes from ("env EXA_API_KEY"), never the key. */
  keySource: z.string().nullable(),
  endpoint: z.string().nullable(),
  lastCall: WebCallOutcome.nullable(),
});
export type WebProviderHealth = z.infer<typeof WebProviderHealth>;

export const WebSelection = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), id: z.string() }),
  z.object({ ok: z.literal(false), code: z.string(), message: z.string() }),
]);
export type WebSelection = z.infer<typeof WebSelection>;

export const WebKindHealth = z.object({
  kind: WebKind,
  tool: z.string(),
  /** The tool is registered (enabled in settings). */
  enabled: z.boolean(),
  configuredId: z.string().nullable(),
  /** Which door set the configured id: the env var or the settings field. */
  configuredBy: z.enum(["env", "settings"]).nullable(),
  /** The env var that is the other door to the same setting. */
  envVar: z.string(),
  /** The env var is set, so the page cannot choose a different provider. */
  lockedByEnv: z.boolean(),
  /** What selection gives right now, with the error in words when it fails. */
  selection: WebSelection,
  providers: z.array(WebProviderHealth),
});
export type WebKindHealth = z.infer<typeof WebKindHealth>;

export const WebHealth = z.object({ search: WebKindHealth, fetch: WebKindHealth });
export type WebHealth = z.infer<typeof WebHealth>;

export const WebProbeInput = z.object({ kind: WebKind, id: WebProviderId });
export type WebProbeInput = z.infer<typeof WebProbeInput>;

/** The outcome of one explicit probe (one real request to one provider): a call outcome that always has a message. */
export const WebProbeResult = WebCallOutcome.omit({ probe: true }).extend({
  kind: WebKind,
  id: z.string(),
  message: z.string(),
});
export type WebProbeResult = z.infer<typeof WebProbeResult>;
