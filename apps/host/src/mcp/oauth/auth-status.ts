import type { McpAuthStatus, McpServerConfig } from "@seam/shared";
import { messageOf } from "../../core/errors.js";
import { idTokenSubject } from "./id-token.js";
import type { OAuthRecord } from "./secret-store.js";
import { authorizationServerOf, type OAuthSession } from "./session.js";

/** A server calls for OAuth unless it is stdio or sends its own Authorization (bearerTokenEnv or a header). */
export function usesOAuth(config: McpServerConfig): boolean {
  const t = config.transport;
  if (t.type !== "http") return false;
  return !t.bearerTokenEnv && !Object.keys(t.headers).some((h) => h.toLowerCase() === "authorization");
}

/** What the Authorization tab shows (MCP-11), from the session and the stored record; never a token. */
export function authStatus(config: McpServerConfig, session: OAuthSession | undefined, readRecord: () => OAuthRecord | undefined, now: number): McpAuthStatus {
  const base: McpAuthStatus = {
    name: config.name, state: "not_needed", reason: null, signedInAs: null, clientId: null, registration: null, scopes: [], expiresAt: null,
    authorizationServer: null, pending: false, lastError: null,
  };
  const t = config.transport;
  if (t.type !== "http" || !session) return { ...base, reason: "OAuth applies to Streamable HTTP servers only." };
  if (!usesOAuth(config)) return { ...base, reason: "This server sends its own Authorization (bearerTokenEnv or an Authorization header)." };
  let record: OAuthRecord | undefined;
  try {
    record = readRecord();
  } catch (error) {
    return { ...base, state: "needs_authorization", reason: messageOf(error), lastError: messageOf(error) };
  }
  const tokens = record?.tokens as { access_token?: string; scope?: string; id_token?: string; issuer?: string } | undefined;
  const client = record?.client as { client_id?: string; issuer?: string } | undefined;
  const clientId = t.oauth?.clientId ?? client?.client_id ?? null;
  const registration = t.oauth?.clientId ? "pre_registered" : clientId && clientId === t.oauth?.clientMetadataUrl ? "metadata_document" : clientId ? "dynamic" : null;
  const signedIn = typeof tokens?.access_token === "string";
  return {
    ...base,
    state: session.needs ? "needs_authorization" : signedIn ? "signed_in" : "not_needed",
    reason: session.needs,
    signedInAs: signedIn ? idTokenSubject(tokens?.id_token) ?? clientId : null,
    clientId,
    registration,
    scopes: (tokens?.scope ?? (signedIn ? session.scope : "") ?? "").split(/\s+/).filter(Boolean),
    expiresAt: signedIn && record?.expiresAt ? new Date(record.expiresAt).toISOString() : null,
    authorizationServer: tokens?.issuer ?? client?.issuer ?? authorizationServerOf(session.discovery) ?? null,
    pending: session.pending !== null && session.pending.expiresAt > now,
    lastError: session.lastError,
  };
}
