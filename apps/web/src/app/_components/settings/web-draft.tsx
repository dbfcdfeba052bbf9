import { WebAllowlistEntry, WebSettings, type WebKindHealth, type WebProviderOptions } from "@seam/shared";

/**
 * Settings → Web form state (WEB-11): the editable draft, its validation with the shared schema, and
 * the defaults the host documents for the built-in providers (shown as placeholders, never sent).
 */

export interface ProviderDraft {
  baseURL: string;
  apiKeyEnv: string;
  model: string;
}

export interface AllowRow {
  id: string;
  value: string;
}

export interface WebDraft {
  searchEnabled: boolean;
  fetchEnabled: boolean;
  /** "" = unset: selection uses the single available provider. */
  searchProvider: string;
  fetchProvider: string;
  searchMaxQueries: string;
  searchMaxResults: string;
  fetchMaxChars: string;
  /** Seconds in the form; milliseconds in the settings. */
  searchTimeoutS: string;
  fetchTimeoutS: string;
  fetchProbeUrl: string;
  fetchAllowlist: AllowRow[];
  providers: Record<string, ProviderDraft>;
}

/** Field path → message. Paths: `searchMaxQueries`, `providers.exa.baseURL`, `fetchAllowlist.<rowId>`. */
export type WebDraftErrors = Record<string, string>;

export interface ProviderDefaults {
  baseURL?: string;
  keyEnv?: string;
  /** Present when the provider calls a model. */
  model?: string;
}

/** What the host uses when a field is left empty (apps/host/src/web/README.md). */
export const PROVIDER_DEFAULTS: Record<string, ProviderDefaults> = {
  exa: { baseURL: "https://api.exa.ai", keyEnv: "EXA_API_KEY" },
  perplexity: { baseURL: "https://api.perplexity.ai", keyEnv: "PERPLEXITY_API_KEY", model: "sonar" },
  deepseek: { baseURL: "https://api.deepseek.com/anthropic", keyEnv: "DEEPSEEK_API_KEY", model: "deepseek-v4-flash" },
};

/** Providers whose options are edited here: every registered search provider plus any id the settings name. */
export function optionProviderIds(search: WebKindHealth | undefined, settings: WebSettings): string[] {
  const ids = new Set<string>();
  for (const p of search?.providers ?? []) if (p.registered) ids.add(p.id);
  for (const id of Object.keys(settings.providers)) ids.add(id);
  return [...ids];
}

let rowSeq = 0;
export const allowRow = (value: string): AllowRow => ({ id: `allow-${++rowSeq}`, value });

const seconds = (ms: number) => String(Math.round(ms / 100) / 10);

export function draftFrom(s: WebSettings): WebDraft {
  const providers: Record<string, ProviderDraft> = {};
  for (const [id, o] of Object.entries(s.providers)) providers[id] = { baseURL: o.baseURL ?? "", apiKeyEnv: o.apiKeyEnv ?? "", model: o.model ?? "" };
  return {
    searchEnabled: s.searchEnabled,
    fetchEnabled: s.fetchEnabled,
    searchProvider: s.searchProvider ?? "",
    fetchProvider: s.fetchProvider ?? "",
    searchMaxQueries: String(s.searchMaxQueries),
    searchMaxResults: String(s.searchMaxResults),
    fetchMaxChars: String(s.fetchMaxChars),
    searchTimeoutS: seconds(s.searchTimeoutMs),
    fetchTimeoutS: seconds(s.fetchTimeoutMs),
    fetchProbeUrl: s.fetchProbeUrl,
    fetchAllowlist: s.fetchAllowlist.map(allowRow),
    providers,
  };
}

const FIELD_MESSAGES: Record<string, string> = {
  searchMaxQueries: "Queries per call must be a whole number from 1 to 10",
  searchMaxResults: "Sources per call must be a whole number from 1 to 50",
  fetchMaxChars: "Characters shown must be a whole number from 1,000 to 1,000,000",
  searchTimeoutMs: "The search timeout must be from 1 to 600 seconds",
  fetchTimeoutMs: "The fetch timeout must be from 1 to 600 seconds",
};

/** Checks one allowlist entry the way the shared schema does; null when it is fine. */
export function allowlistProblem(value: string): string | null {
  const r = WebAllowlistEntry.safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? "Not a host name, IP address or CIDR");
}

/** Validates the draft with the shared WebSettings schema; returns the value to send or errors by field path. */
export function parseDraft(d: WebDraft): { ok: true; value: WebSettings } | { ok: false; errors: WebDraftErrors } {
  const num = (v: string) => (v.trim() === "" ? undefined : Number(v.trim()));
  const ms = (v: string) => {
    const n = num(v);
    return n === undefined || Number.isNaN(n) ? n : Math.round(n * 1000);
  };
  const opt = (v: string) => (v.trim() ? v.trim() : undefined);
  const providers: Record<string, WebProviderOptions> = {};
  for (const [id, p] of Object.entries(d.providers)) {
    const o: WebProviderOptions = {};
    if (opt(p.baseURL)) o.baseURL = opt(p.baseURL);
    if (opt(p.apiKeyEnv)) o.apiKeyEnv = opt(p.apiKeyEnv);
    if (opt(p.model)) o.model = opt(p.model);
    if (Object.keys(o).length > 0) providers[id] = o;
  }
  const rows = d.fetchAllowlist.filter((r) => r.value.trim() !== "");
  const candidate = {
    searchEnabled: d.searchEnabled,
    fetchEnabled: d.fetchEnabled,
    searchProvider: d.searchProvider || null,
    fetchProvider: d.fetchProvider || null,
    searchMaxQueries: num(d.searchMaxQueries),
    searchMaxResults: num(d.searchMaxResults),
    fetchMaxChars: num(d.fetchMaxChars),
    searchTimeoutMs: ms(d.searchTimeoutS),
    fetchTimeoutMs: ms(d.fetchTimeoutS),
    fetchProbeUrl: opt(d.fetchProbeUrl),
    fetchAllowlist: rows.map((r) => r.value.trim()),
    providers,
  };
  const parsed = WebSettings.safeParse(candidate);
  const errors: WebDraftErrors = {};
  const seen = new Map<string, string>();
  for (const r of rows) {
    const key = r.value.trim().toLowerCase();
    if (seen.has(key)) errors[`fetchAllowlist.${r.id}`] = "Already in the list";
    seen.set(key, r.id);
  }
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, value: parsed.data };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const [head, second, third] = issue.path;
    let key: string;
    let message = issue.message;
    if (head === "fetchAllowlist" && typeof second === "number") key = `fetchAllowlist.${rows[second]?.id ?? second}`;
    else if (head === "providers" && typeof second === "string") {
      key = `providers.${second}.${String(third ?? "")}`;
      if (third === "model") message = "Enter a model id (up to 200 characters) or leave it empty";
    } else {
      key = String(head ?? "form");
      if (key === "searchTimeoutMs") key = "searchTimeoutS";
      if (key === "fetchTimeoutMs") key = "fetchTimeoutS";
      message = FIELD_MESSAGES[String(head)] ?? (key === "fetchProbeUrl" ? "The probe URL must be an http(s) URL" : message);
    }
    if (!errors[key]) errors[key] = message;
  }
  return { ok: false, errors };
}

/** Labels for the messages under the Save button: which fields are wrong, in words. */
export function describeErrorKey(key: string): string {
  if (key.startsWith("fetchAllowlist.")) return "fetch allowlist";
  if (key.startsWith("providers.")) {
    const [, id, field] = key.split(".");
    return `${id} ${field === "baseURL" ? "base URL" : field === "apiKeyEnv" ? "key variable" : field}`;
  }
  const names: Record<string, string> = {
    searchMaxQueries: "queries per call",
    searchMaxResults: "sources per call",
    fetchMaxChars: "characters shown",
    searchTimeoutS: "search timeout",
    fetchTimeoutS: "fetch timeout",
    fetchProbeUrl: "probe URL",
  };
  return names[key] ?? key;
}
