import type { WebSearchResult, WebSource } from "@seam/shared";
import { webError, type SearchProvider } from "../provider.js";
import { apiConfig, isRecord, postJson, str, type ApiProviderDeps } from "./api.js";

export const PERPLEXITY_ID = "perplexity";

/**
 * Perplexity (WEB-10): chat completions with built-in search. The answer becomes `content`; the
 * structured `search_results` are preferred, the URL-only `citations` are the fallback.
 */
export function createPerplexityProvider(deps: ApiProviderDeps): SearchProvider {
  const config = apiConfig(deps, { id: PERPLEXITY_ID, baseURL: "https://api.perplexity.ai", keyEnv: "PERPLEXITY_API_KEY", model: "sonar" });
  return {
    id: PERPLEXITY_ID,
    label: "Perplexity",
    available: config.available,
    describe: config.describe,
    async search(req, ctx) {
      const s = config.snapshot();
      const body = await postJson({
        provider: PERPLEXITY_ID,
        url: `${s.baseURL}/chat/completions`,
        headers: { authorization: `Bearer ${s.key}` },
        body: {
          model: s.model,
          messages: [
            { role: "system", content: "Answer the search query concisely from current web sources." },
            { role: "user", content: req.query },
          ],
        },
        signal: ctx.signal,
        timeoutMs: s.timeoutMs,
      });
      return mapPerplexity(body);
    },
  };
}

export function mapPerplexity(body: unknown): WebSearchResult {
  if (!isRecord(body) || !Array.isArray(body.choices)) {
    throw webError("invalid_response", "Perplexity answered without a choices array.", { provider: PERPLEXITY_ID });
  }
  const first = body.choices[0];
  const message = isRecord(first) && isRecord(first.message) ? first.message : undefined;
  if (body.choices.length > 0 && (!message || (message.content !== undefined && message.content !== null && typeof message.content !== "string"))) {
    throw webError("invalid_response", "Perplexity answered with a malformed choice (no message text).", { provider: PERPLEXITY_ID });
  }
  const content = str(message?.content)?.trim();

  const sources: WebSource[] = [];
  const seen = new Set<string>();
  const add = (source: WebSource) => {
    if (seen.has(source.url)) return;
    seen.add(source.url);
    sources.push(source);
  };
  const structured = Array.isArray(body.search_results) ? body.search_results.filter(isRecord) : [];
  for (const item of structured) {
    const url = str(item.url);
    if (!url) continue;
    const source: WebSource = { url };
    const title = str(item.title);
    if (title) source.title = title.trim();
    const snippet = str(item.snippet);
    if (snippet) source.snippet = snippet.trim();
    const date = str(item.date) ?? str(item.last_updated);
    if (date) source.publishedAt = date;
    add(source);
  }
  if (sources.length === 0 && Array.isArray(body.citations)) {
    for (const c of body.citations) {
      const url = str(c);
      if (url) add({ url });
    }
  }
  return content ? { content, sources, truncated: false } : { sources, truncated: false };
}
