import type { WebSearchResult, WebSource } from "@seam/shared";
import { webError, type SearchProvider } from "../provider.js";
import { apiSearchProvider, isRecord, sourceOf, type ApiProviderDeps } from "./api.js";

export const EXA_ID = "exa";

/** Exa (WEB-10): POST /search with native `numResults`; the first highlight is the snippet. */
export function createExaProvider(deps: ApiProviderDeps): SearchProvider {
  return apiSearchProvider(deps, { id: EXA_ID, label: "Exa", baseURL: "https://api.exa.ai", keyEnv: "EXA_API_KEY" }, async (req, _ctx, s) => {
    const body = { query: req.query, type: "auto", numResults: req.maxResults, contents: { highlights: true } };
    return mapExa(await s.post("/search", { "x-api-key": s.key }, body));
  });
}

export function mapExa(body: unknown): WebSearchResult {
  if (!isRecord(body) || !Array.isArray(body.results)) {
    throw webError("invalid_response", "Exa answered without a results array.", { provider: EXA_ID });
  }
  const sources: WebSource[] = [];
  for (const item of body.results) {
    if (!isRecord(item)) continue;
    const source = sourceOf({ url: item.url, title: item.title, snippet: Array.isArray(item.highlights) ? item.highlights[0] : undefined, publishedAt: item.publishedDate });
    if (source) sources.push(source);
  }
  return { sources, truncated: false };
}
