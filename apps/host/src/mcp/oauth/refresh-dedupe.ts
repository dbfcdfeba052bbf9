/**
 * One refresh per refresh token (MCP-11). Authorization servers rotate refresh tokens, so when several requests
 * are refused at once and each asks for a refresh with the same token, all but the first would get
 * `invalid_grant` — and the SDK answers that by deleting the (just renewed) tokens. Wrapped around the fetch the
 * SDK's token requests go through, this sends a `grant_type=refresh_token` request once per refresh token and
 * gives every caller the same answer; the answer is kept `REFRESH_REUSE_MS` for callers that arrive late.
 * The answers (new tokens) stay in this process's memory only, and only that long.
 */
export const REFRESH_REUSE_MS = 30_000;

interface Answer { status: number; statusText: string; headers: [string, string][]; body: ArrayBuffer }

export function dedupeRefreshes(inner: typeof fetch, now: () => number = Date.now): typeof fetch {
  const answers = new Map<string, { at: number; answer: Promise<Answer> }>();
  return async (input, init) => {
    const body = init?.body;
    const params = body instanceof URLSearchParams ? body : typeof body === "string" && body.includes("grant_type=refresh_token") ? new URLSearchParams(body) : undefined;
    const token = params?.get("grant_type") === "refresh_token" ? params.get("refresh_token") : null;
    if (!token || (init?.method ?? "GET").toUpperCase() !== "POST") return inner(input, init);
    const t = now();
    for (const [key, entry] of answers) if (t - entry.at > REFRESH_REUSE_MS) answers.delete(key);
    let entry = answers.get(token);
    if (!entry) {
      const answer = inner(input, init).then(async (res) => ({
        status: res.status, statusText: res.statusText, headers: [...res.headers.entries()], body: await res.arrayBuffer(),
      }));
      entry = { at: t, answer };
      answers.set(token, entry);
      // A failed request (network) is not kept: the next caller tries again.
      answer.catch(() => answers.delete(token));
    }
    const a = await entry.answer;
    return new Response(a.body.slice(0), { status: a.status, statusText: a.statusText, headers: a.headers });
  };
}
