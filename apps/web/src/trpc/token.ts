/** The cookie that carries the host token with every same-origin tRPC request and EventSource (SEC-1). */
export const TOKEN_COOKIE = "seam_token";

/** The host writes 32 random bytes as base64url; anything else in `?token=` is not a host token. */
const TOKEN = /^[A-Za-z0-9_-]{16,256}$/;

/** The token of a `?token=…` URL and the same URL without it; null when it carries none (or not a token). */
export function takeToken(url: URL): { token: string; rest: URL } | null {
  const token = url.searchParams.get("token");
  if (token === null || !TOKEN.test(token)) return null;
  const rest = new URL(url);
  rest.searchParams.delete("token");
  return { token, rest };
}
