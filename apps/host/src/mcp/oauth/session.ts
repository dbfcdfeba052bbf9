/**
 * What the host remembers about one server's OAuth in memory (MCP-11): never a secret (those are in the
 * secrets file), only where the flow stands — discovery results, the scope to ask for, a pending step-up,
 * why authorization is needed and the last sign-in error.
 */
export class OAuthSession {
  /** The SDK's discovery state (authorization server, metadata); not secret, re-discovered after a restart. */
  discovery: unknown;
  /** The scope the last authorization URL asked for (from the server's challenge or metadata). */
  scope: string | undefined;
  /** The scope an `insufficient_scope` answer asked for; cleared once a token covers it. */
  stepUp: string | undefined;
  /** Why the server needs authorization now, in words; null when it does not. */
  needs: string | null = null;
  lastError: string | null = null;
  /** The `state` of the sign-in started by "Authorize" and its expiry. */
  pending: { state: string; expiresAt: number } | null = null;

  constructor(readonly url: string) {}

  signedIn(scope: string | undefined) {
    this.needs = null;
    this.lastError = null;
    if (this.stepUp && (scope === undefined || this.stepUp.split(/\s+/).every((s) => scope.split(/\s+/).includes(s)))) this.stepUp = undefined;
  }
}

/** The resource-metadata URL the SDK's discovery kept (the server's challenge named it), if any. */
export const resourceMetadataUrlOf = (discovery: unknown): string | undefined => {
  const v = (discovery as { resourceMetadataUrl?: unknown } | undefined)?.resourceMetadataUrl;
  return typeof v === "string" ? v : undefined;
};
/** The authorization server discovery found, if any. */
export const authorizationServerOf = (discovery: unknown): string | undefined => {
  const v = (discovery as { authorizationServerUrl?: unknown } | undefined)?.authorizationServerUrl;
  return typeof v === "string" ? v : undefined;
};
