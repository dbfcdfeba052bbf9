import type { WebSearchResult, WebSource } from "@seam/shared";
import { messageOf } from "../../core/errors.js";
import { webError, type CallContext, type SearchProvider } from "../provider.js";
import { apiSearchProvider, isRecord, postJson, sourceOf, str, type ApiProviderDeps } from "./api.js";

export const DEEPSEEK_ID = "deepseek";
export const ANTHROPIC_VERSION = "2023-06-01";
export const WEB_SEARCH_TOOL = { type: "web_search_20250305", name: "web_search" } as const;

/** Records the redacted auxiliary request as a session fact; must resolve before the request is sent. */
export type AuxRecorder = (ctx: CallContext, fact: { text: string; payload: unknown }) => Promise<void>;

export interface DeepSeekDeps extends ApiProviderDeps {
  recordAux: AuxRecorder;
  /** Searches the auxiliary model may run per query (Anthropic's `max_uses`; default 1). */
  maxUses?: number;
  maxTokens?: number;
}

/**
 * DeepSeek search (WEB-10): one auxiliary, non-streaming Anthropic-compatible `/v1/messages` request
 * per query with the `web_search_20250305` server tool. The response must carry a
 * `web_search_tool_result` block; there is no prose fallback. It does not go through the chat model
 * adapter: it is a private wire behind the public seam, billed as one extra model request.
 */
export function createDeepSeekProvider(deps: DeepSeekDeps): SearchProvider {
  const defaults = { id: DEEPSEEK_ID, label: "DeepSeek search", baseURL: "https://api.deepseek.com/anthropic", keyEnv: "DEEPSEEK_API_KEY", model: "deepseek-v4-flash" };
  const maxUses = deps.maxUses ?? 1;
  const maxTokens = deps.maxTokens ?? 2_048;
  // `s`: one snapshot of endpoint, key source, model, token and search-use caps for the whole operation.
  return apiSearchProvider(deps, defaults, async (req, ctx, s) => {
    const url = `${s.baseURL}/v1/messages`;
    const body = {
      model: s.model,
      max_tokens: maxTokens,
      system: "You are a search helper. Use the web_search tool for the user's query, then list the most relevant findings briefly, citing them.",
      messages: [{ role: "user", content: `Search the web for: ${req.query}` }],
      tools: [{ ...WEB_SEARCH_TOOL, max_uses: maxUses }],
    };
    const headers = { "anthropic-version": ANTHROPIC_VERSION, "x-api-key": s.key, authorization: `Bearer ${s.key}` };
    try {
      await deps.recordAux(ctx, {
        text: "",
        payload: {
          provider: DEEPSEEK_ID,
          purpose: "web_search",
          query: req.query,
          request: {
            method: "POST",
            url,
            headers: { "content-type": "application/json", "anthropic-version": ANTHROPIC_VERSION, "x-api-key": "[redacted]", authorization: "[redacted]" },
            body,
          },
          keySource: s.keySource,
        },
      });
    } catch (error) {
      throw webError("provider_failed", `The DeepSeek search request was not sent because it could not be recorded first: ${messageOf(error)}`, { provider: DEEPSEEK_ID, cause: error });
    }
    const response = await postJson({ provider: DEEPSEEK_ID, url, headers, body, signal: ctx.signal, timeoutMs: s.timeoutMs });
    return mapDeepSeek(response);
  });
}

export function mapDeepSeek(body: unknown): WebSearchResult {
  if (!isRecord(body) || !Array.isArray(body.content)) {
    throw webError("invalid_response", "DeepSeek answered without a content array.", { provider: DEEPSEEK_ID });
  }
  const blocks = body.content.filter(isRecord);
  const results = blocks.filter((b) => b.type === "web_search_tool_result");
  if (results.length === 0) {
    throw webError("missing_search_results", "DeepSeek answered without a web_search_tool_result block, so no web search ran; its prose is not used as a result.", {
      provider: DEEPSEEK_ID,
    });
  }

  const sources = new Map<string, WebSource>();
  const snippets = new Map<string, string[]>();
  let searchError: string | undefined;
  for (const block of results) {
    if (isRecord(block.content) && block.content.type === "web_search_tool_result_error") {
      searchError ??= str(block.content.error_code) ?? "unknown";
      continue;
    }
    if (!Array.isArray(block.content)) {
      throw webError("invalid_response", "DeepSeek sent a web_search_tool_result block whose content is neither a result list nor an error.", { provider: DEEPSEEK_ID });
    }
    for (const item of block.content) {
      if (!isRecord(item) || item.type !== "web_search_result") continue;
      const source = sourceOf({ url: item.url, title: item.title, publishedAt: item.page_age });
      if (source && !sources.has(source.url)) sources.set(source.url, source);
    }
  }
  if (sources.size === 0 && searchError) {
    throw webError("search_failed", `DeepSeek's web search failed (${searchError}).`, { provider: DEEPSEEK_ID, data: { errorCode: searchError } });
  }

  // Snippets come from the citation text of the answer, joined per URL.
  for (const block of blocks) {
    if (block.type !== "text" || !Array.isArray(block.citations)) continue;
    for (const c of block.citations) {
      if (!isRecord(c) || c.type !== "web_search_result_location") continue;
      const url = str(c.url);
      const cited = str(c.cited_text)?.trim();
      if (!url) continue;
      if (!sources.has(url)) {
        const title = str(c.title);
        sources.set(url, title ? { url, title: title.trim() } : { url });
      }
      if (!cited) continue;
      const list = snippets.get(url) ?? [];
      if (!list.includes(cited)) list.push(cited);
      snippets.set(url, list);
    }
  }
  const out = [...sources.values()].map((s) => {
    const cited = snippets.get(s.url);
    return cited ? { ...s, snippet: cited.join(" … ") } : s;
  });
  return { sources: out, truncated: false };
}
