import type { WebSearchResult, WebSource } from "@seam/shared";
import { webError, type SearchProvider } from "../provider.js";
import { apiConfig, isRecord, postJson, str, type ApiProviderDeps } from "./api.js";

export const EXA_ID = "exa";

/** Exa (WEB-10): POST /search with native `numResults`; the first highlight is the snippet. */
export function createExaProvider(deps: ApiProviderDeps): SearchProvider {
  const config = apiConfig(deps, { id: EXA_ID, baseURL: "https://api.exa.ai", keyEnv: "EXA_API_KEY" });
  return {
    id: EXA_ID,
    label: "Exa",
    available: config.available,
    describe: config.describe,
    async search(req, ctx) {
      const s = config.snapshot();
      const body = await postJson({
        provider: EXA_ID,
        url: `${s.baseURL}/search`,
        headers: { "x-api-key": s.key },
        body: { query: req.query, type: "auto", numResults: req.maxResults, contents: { highlights: true } },
        signal: ctx.signal,
        timeoutMs: s.timeoutMs,
      });
      return mapExa(body);
    },
  };
}

export function mapExa(body: unknown): WebSearchResult {
  if (!isRecord(body) || !Array.isArray(body.results)) {
    throw webError("invalid_response", "Exa answered without a results array.", { provider: EXA_ID });
  }
  const sources: WebSource[] = [];
  for (const item of body.results) {
    if (!isRecord(item)) continue;
    const url = str(item.url);
    if (!url) continue;
    const source: WebSource = { url };
    const title = str(item.title);
    if (title) source.title = title.trim();
    const first = Array.isArray(item.highlights) ? str(item.highlights[0]) : undefined;
    if (first) source.snippet = first.trim();
    const published = str(item.publishedDate);
    if (published) source.publishedAt = published;
    sources.push(source);
  }
  return { sources, truncated: false };
}
