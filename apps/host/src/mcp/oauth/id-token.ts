/**
 * The subject of an OpenID Connect id_token, for "signed in as" only (MCP-11). The token came from the
 * token endpoint over the connection Seam opened, and nothing is authorized on its strength, so its
 * signature is not checked here; prefers a readable claim (email, preferred_username) over `sub`.
 */
export function idTokenSubject(idToken: unknown): string | null {
  if (typeof idToken !== "string") return null;
  const payload = idToken.split(".")[1];
  if (!payload || payload.length > 16_384) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
    for (const key of ["email", "preferred_username", "sub"]) {
      const v = claims[key];
      if (typeof v === "string" && v.length > 0 && v.length <= 256) return v;
    }
  } catch {
    return null;
  }
  return null;
}
