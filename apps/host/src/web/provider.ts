import type { ErrorKind, WebFetchResult, WebKind, WebSearchResult } from "@seam/shared";
import { HostError } from "../core/errors.js";

/** What a provider call knows about its caller. `sessionId`/`callId` are absent for probes. */
export interface CallContext {
  signal: AbortSignal;
  sessionId?: string;
  callId?: string;
}

export interface SearchRequest { query: string; maxResults: number }
export interface FetchRequest { url: string }

/** A provider's local self-description for the health view; never touches the network. */
export interface ProviderDescription {
  problem: string | null;
  keySource: string | null;
  endpoint: string | null;
}

interface ProviderBase {
  readonly id: string;
  readonly label: string;
  /** Cheap, local (WEB-2): credentials present, config parses. Never the network. */
  available(): boolean;
  describe?(): ProviderDescription;
}

export interface SearchProvider extends ProviderBase {
  /** Providers with native count control use `maxResults`; the seam truncates anyway (WEB-4). */
  search(request: SearchRequest, ctx: CallContext): Promise<WebSearchResult>;
}

export interface FetchProvider extends ProviderBase {
  fetch(request: FetchRequest, ctx: CallContext): Promise<WebFetchResult>;
}

export type Provider = SearchProvider | FetchProvider;

/**
 * Open codes by owner (WEB-6). The seam owns the first seven; the HTTP fetcher the next six; the
 * rest are provider-owned codes of the built-in search adapters. Unknown codes map to `unavailable`.
 */
const KIND_OF: Record<string, ErrorKind> = {
  provider_not_found: "not_found",
  provider_unavailable: "unavailable",
  no_provider_available: "unavailable",
  ambiguous_provider: "conflict",
  duplicate_provider: "conflict",
  aborted: "closed",
  provider_failed: "unavailable",
  invalid_url: "bad_input",
  blocked_url: "denied",
  blocked_redirect: "denied",
  too_large: "bad_input",
  timeout: "timeout",
  unsupported_content_type: "bad_input",
  invalid_response: "unavailable",
  search_failed: "unavailable",
  provider_setting_conflict: "conflict",
  invalid_settings: "bad_input",
};

/** A web-seam failure: HostError `<kind>:web` whose public code is the open `code`. */
export function webError(code: string, message: string, extra: { provider?: string; kind?: WebKind; cause?: unknown; data?: Record<string, unknown> } = {}): HostError {
  const data: Record<string, unknown> & { reason: string } = { ...extra.data, reason: code };
  if (extra.provider) data.provider = extra.provider;
  if (extra.kind) data.webKind = extra.kind;
  return new HostError(`${KIND_OF[code] ?? "unavailable"}:web`, message, data, extra.cause === undefined ? undefined : { cause: extra.cause });
}

/** The open code of a web failure (`provider_failed` for anything that is not a HostError). */
export function codeOf(error: unknown): string {
  return error instanceof HostError ? error.publicCode : "provider_failed";
}

export function providerOf(error: unknown): string | null {
  if (!(error instanceof HostError)) return null;
  const p = error.data?.provider;
  return typeof p === "string" ? p : null;
}

/** Throws `aborted` when the signal has fired. */
export function throwIfAborted(signal: AbortSignal, provider?: string): void {
  if (signal.aborted) throw webError("aborted", "The web request was cancelled.", { provider });
}
