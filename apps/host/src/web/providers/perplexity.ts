import type { WebSearchResult, WebSource } from "@seam/shared";
import { webError, type SearchProvider } from "../provider.js";
import { apiSearchProvider, isRecord, sourceOf, str, type ApiProviderDeps } from "./api.js";

export const PERPLEXITY_ID = "perplexity";

/**
 * Perplexity (WEB-10): chat completions with built-in search. The answer becomes `content`; the
 * structured `search_results` are preferred, the URL-only `citations` are the fallback.
 */
export function createPerplexityProvider(deps: ApiProviderDeps): SearchProvider {
  const defaults = { id: PERPLEXITY_ID, label: "Perplexity", baseURL: "https://api.perplexity.ai", keyEnv: "PERPLEXITY_API_KEY", model: "sonar" };
  return apiSearchProvider(deps, defaults, async (req, _ctx, s) => {
    const messages = [
      { role: "system", content: "Answer the search query concisely from current web sources." },
      { role: "user", content: req.query },
    ];
    return mapPerplexity(await s.post("/chat/completions", { authorization: `Bearer ${s.key}` }, { model: s.model, messages }));
  });
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
    const source = sourceOf({ url: item.url, title: item.title, snippet: item.snippet, publishedAt: str(item.date) ?? item.last_updated });
    if (source) add(source);
  }
  if (sources.length === 0 && Array.isArray(body.citations)) {
    for (const c of body.citations) {
      const url = str(c);
      if (url) add({ url });
    }
  }
  return content ? { content, sources, truncated: false } : { sources, truncated: false };
}
