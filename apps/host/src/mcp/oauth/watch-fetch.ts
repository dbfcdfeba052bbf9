import type { OAuthSession } from "./session.js";

/**
 * The fetch of an OAuth connection (MCP-11), around the one the flows use. It reads the server's challenges for the
 * session — the scope a 401 names (client_credentials asks for it), the larger scope a 403 `insufficient_scope` names
 * (step-up) — and smooths two edges of the SDK:
 * - a 401 to a request sent with a token another request renewed meanwhile is sent once more with the current token
 *   (the SDK would take the second 401 for a failed sign-in);
 * - a 403 that names a scope but leaves `error` to the body is marked `insufficient_scope`, so the SDK steps up.
 */
export function watchChallenges(inner: typeof fetch, session: OAuthSession, currentToken: () => unknown): typeof fetch {
  return async (input, init) => {
    let res = await inner(input, init);
    if (res.status === 401) {
      const headers = new Headers(init?.headers);
      const sent = headers.get("authorization");
      const current = currentToken();
      if (sent?.startsWith("Bearer ") && typeof current === "string" && sent !== `Bearer ${current}` && (init?.body === undefined || typeof init.body === "string")) {
        await res.body?.cancel();
        headers.set("authorization", `Bearer ${current}`);
        res = await inner(input, { ...init, headers });
      }
    }
    const challenge = res.headers.get("www-authenticate") ?? "";
    const scope = /scope="([^"]*)"/.exec(challenge)?.[1];
    if (res.status === 401 && scope) session.scope = scope;
    if (res.status === 403 && scope) {
      if (/error="?insufficient_scope/.test(challenge)) session.stepUp = scope;
      else if (/^\s*Bearer\b/i.test(challenge) && !/error=/.test(challenge)) {
        session.stepUp = scope;
        const headers = new Headers(res.headers);
        headers.set("www-authenticate", `${challenge}, error="insufficient_scope"`);
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
      }
    }
    return res;
  };
}
