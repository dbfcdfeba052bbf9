import { WebSettings, type WebProviderOptions } from "@seam/shared";
import { afterEach, describe, expect, it } from "vitest";
import type { CallContext } from "../../src/web/provider.js";
import { createDeepSeekProvider } from "../../src/web/providers/deepseek.js";
import { createExaProvider } from "../../src/web/providers/exa.js";
import { createPerplexityProvider } from "../../src/web/providers/perplexity.js";
import { loopback, neverAborted, secretsOf, type Handler, type Loopback } from "./helpers.js";
import { rejection } from "../support/errors.js";

const KEY = "sk-web-test-0123456789";

let servers: Loopback[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** A loopback fake answering every request with `reply` (JSON unless a string). */
async function fake(reply: Handler | Record<string, unknown> | unknown[] | string, status = 200): Promise<Loopback> {
  const handler: Handler = typeof reply === "function"
    ? (reply as Handler)
    : (_req, res) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof reply === "string" ? reply : JSON.stringify(reply));
    };
  const s = await loopback(handler);
  servers.push(s);
  return s;
}

function settingsFor(id: string, options: WebProviderOptions) {
  let reads = 0;
  const value = WebSettings.parse({ providers: { [id]: options }, searchTimeoutMs: 5_000 });
  return { settings: () => (reads++, value), reads: () => reads };
}

const ctx = (): CallContext => ({ signal: neverAborted(), sessionId: "s1", callId: "c1" });

describe("Exa adapter (WEB-10)", () => {
  const exa = (baseURL: string, keys: Record<string, string> = { EXA_API_KEY: KEY }, extra: WebProviderOptions = {}) =>
    createExaProvider({ settings: settingsFor("exa", { baseURL, ...extra }).settings, secrets: secretsOf(keys) });

  it("POSTs /search with x-api-key, native numResults and highlight contents", async () => {
    const s = await fake({ requestId: "r1", results: [] });
    await exa(s.url).search({ query: "rust async", maxResults: 5 }, ctx());
    const [req] = s.requests;
    expect(req).toMatchObject({ method: "POST", path: "/search" });
    expect(req!.headers["x-api-key"]).toBe(KEY);
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(req!.body)).toEqual({ query: "rust async", type: "auto", numResults: 5, contents: { highlights: true } });
  });

  it("maps title, first highlight and publishedDate; never invents missing fields", async () => {
    const s = await fake({
      results: [
        { id: "1", url: "https://a.example/", title: "A", highlights: ["first one", "second"], highlightScores: [0.9, 0.1], publishedDate: "2025-03-01T00:00:00.000Z", author: "x" },
        { id: "2", url: "https://b.example/", title: null, highlights: [] },
        { id: "3", url: "https://c.example/" },
        { id: "4", title: "no url" },
      ],
    });
    const r = await exa(s.url).search({ query: "q", maxResults: 8 }, ctx());
    expect(r).toEqual({
      sources: [
        { url: "https://a.example/", title: "A", snippet: "first one", publishedAt: "2025-03-01T00:00:00.000Z" },
        { url: "https://b.example/" },
        { url: "https://c.example/" },
      ],
      truncated: false,
    });
    expect(r.content).toBeUndefined();
  });

  it("malformed responses are invalid_response; HTTP errors are provider_failed without the key", async () => {
    expect((await rejection(exa((await fake({ nope: 1 })).url).search({ query: "q", maxResults: 3 }, ctx()))).publicCode).toBe("invalid_response");
    expect((await rejection(exa((await fake("<html>oops</html>")).url).search({ query: "q", maxResults: 3 }, ctx()))).publicCode).toBe("invalid_response");
    const denied = await rejection(exa((await fake({ error: "Invalid API key" }, 401)).url).search({ query: "q", maxResults: 3 }, ctx()));
    expect(denied.publicCode).toBe("provider_failed");
    expect(denied.message).toContain("HTTP 401: Invalid API key");
    expect(denied.message).toContain("Check the API key");
    expect(denied.message).not.toContain(KEY);
  });

  it("refuses redirects from the endpoint", async () => {
    const target = await fake({ results: [] });
    const s = await fake((_req, res) => res.writeHead(307, { location: `${target.url}/search` }).end());
    const error = await rejection(exa(s.url).search({ query: "q", maxResults: 3 }, ctx()));
    expect(error.publicCode).toBe("provider_failed");
    expect(error.message).toContain("redirect");
    expect(target.requests).toHaveLength(0);
  });

  it("available() is local: no key → unavailable with the reason; a custom key variable is honoured", async () => {
    const s = await fake({ results: [] });
    const none = exa(s.url, {});
    expect(none.available()).toBe(false);
    expect(none.describe!().problem).toContain("EXA_API_KEY is not set");
    const custom = exa(s.url, { MY_EXA: KEY }, { apiKeyEnv: "MY_EXA" });
    expect(custom.available()).toBe(true);
    expect(custom.describe!()).toMatchObject({ problem: null, keySource: "test MY_EXA", endpoint: s.url });
    expect(s.requests).toHaveLength(0);
  });
});

describe("Perplexity adapter (WEB-10)", () => {
  const pplx = (baseURL: string, extra: WebProviderOptions = {}) =>
    createPerplexityProvider({ settings: settingsFor("perplexity", { baseURL, ...extra }).settings, secrets: secretsOf({ PERPLEXITY_API_KEY: KEY }) });

  it("POSTs chat completions with a bearer key, the sonar model and the query as the user message", async () => {
    const s = await fake({ choices: [{ index: 0, message: { role: "assistant", content: "x" } }] });
    await pplx(s.url).search({ query: "what is new in node", maxResults: 4 }, ctx());
    const [req] = s.requests;
    expect(req).toMatchObject({ method: "POST", path: "/chat/completions" });
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = JSON.parse(req!.body) as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).toBe("sonar");
    expect(body.messages.at(-1)).toEqual({ role: "user", content: "what is new in node" });
    await pplx(s.url, { model: "sonar-pro" }).search({ query: "q", maxResults: 4 }, ctx());
    expect((JSON.parse(s.requests[1]!.body) as { model: string }).model).toBe("sonar-pro");
  });

  it("answer → content; structured search_results are preferred over citations", async () => {
    const s = await fake({
      id: "x", model: "sonar",
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "Node 22 ships X [1]." } }],
      citations: ["https://ignored.example/"],
      search_results: [
        { title: "Node 22", url: "https://nodejs.org/en/blog/22", date: "2024-04-24", snippet: "Node.js 22 is out" },
        { title: "", url: "https://other.example/", date: null, last_updated: "2024-05-01" },
        { title: "dup", url: "https://nodejs.org/en/blog/22" },
      ],
    });
    expect(await pplx(s.url).search({ query: "q", maxResults: 4 }, ctx())).toEqual({
      content: "Node 22 ships X [1].",
      sources: [
        { url: "https://nodejs.org/en/blog/22", title: "Node 22", snippet: "Node.js 22 is out", publishedAt: "2024-04-24" },
        { url: "https://other.example/", publishedAt: "2024-05-01" },
      ],
      truncated: false,
    });
  });

  it("falls back to URL-only citations, and allows an empty answer", async () => {
    const s = await fake({ choices: [{ message: { role: "assistant", content: "" } }], citations: ["https://a.example/", 7, "https://b.example/"] });
    expect(await pplx(s.url).search({ query: "q", maxResults: 4 }, ctx())).toEqual({ sources: [{ url: "https://a.example/" }, { url: "https://b.example/" }], truncated: false });
  });

  it("malformed responses are invalid_response", async () => {
    for (const body of [{ nothing: true }, { choices: [{ message: { content: 42 } }] }, { choices: ["x"] }]) {
      const s = await fake(body);
      expect((await rejection(pplx(s.url).search({ query: "q", maxResults: 4 }, ctx()))).publicCode, JSON.stringify(body)).toBe("invalid_response");
    }
  });
});

describe("DeepSeek search adapter (WEB-10)", () => {
  const searchBlock = (results: unknown) => ({ type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: results });
  const OK = {
    id: "msg_1", type: "message", role: "assistant", model: "deepseek-v4-flash", stop_reason: "end_turn",
    content: [
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
      searchBlock([
        { type: "web_search_result", url: "https://a.example/", title: "A", encrypted_content: "enc", page_age: "April 1, 2025" },
        { type: "web_search_result", url: "https://b.example/", title: "B", encrypted_content: "enc", page_age: null },
        { type: "web_search_result", url: "https://a.example/", title: "A again", encrypted_content: "enc" },
      ]),
      { type: "text", text: "Findings:" },
      { type: "text", text: "A says", citations: [
        { type: "web_search_result_location", url: "https://a.example/", title: "A", encrypted_index: "i", cited_text: "first quote" },
        { type: "web_search_result_location", url: "https://a.example/", title: "A", encrypted_index: "i", cited_text: "second quote" },
        { type: "web_search_result_location", url: "https://a.example/", title: "A", encrypted_index: "i", cited_text: "first quote" },
      ] },
    ],
    usage: { input_tokens: 10, output_tokens: 5 },
  };

  function deepseek(baseURL: string, record: (ctx: CallContext, fact: { text: string; payload: unknown }) => Promise<void> = async () => {}) {
    const config = settingsFor("deepseek", { baseURL });
    return { provider: createDeepSeekProvider({ settings: config.settings, secrets: secretsOf({ DEEPSEEK_API_KEY: KEY }), recordAux: record }), reads: config.reads };
  }

  it("sends one Anthropic-compatible /v1/messages request with the web_search_20250305 tool and both key headers", async () => {
    const s = await fake(OK);
    await deepseek(s.url).provider.search({ query: "latest rust release", maxResults: 6 }, ctx());
    const [req] = s.requests;
    expect(req).toMatchObject({ method: "POST", path: "/v1/messages" });
    expect(req!.headers["x-api-key"]).toBe(KEY);
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req!.headers["anthropic-version"]).toBe("2023-06-01");
    const body = JSON.parse(req!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ model: "deepseek-v4-flash", tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 1 }] });
    expect(body.stream).toBeUndefined();
    expect(JSON.stringify(body.messages)).toContain("latest rust release");
  });

  it("maps result blocks to sources deduped by URL with snippets from citation text; no content", async () => {
    const s = await fake(OK);
    expect(await deepseek(s.url).provider.search({ query: "q", maxResults: 6 }, ctx())).toEqual({
      sources: [
        { url: "https://a.example/", title: "A", publishedAt: "April 1, 2025", snippet: "first quote … second quote" },
        { url: "https://b.example/", title: "B" },
      ],
      truncated: false,
    });
  });

  it("a response without a web_search_tool_result block is an error — no prose fallback", async () => {
    const s = await fake({ ...OK, content: [{ type: "text", text: "Here is what I know: https://made-up.example/" }] });
    const error = await rejection(deepseek(s.url).provider.search({ query: "q", maxResults: 6 }, ctx()));
    expect(error.publicCode).toBe("missing_search_results");
    expect(error.data?.provider).toBe("deepseek");
  });

  it("a search error block is search_failed with its error code; other malformed bodies are invalid_response", async () => {
    const s = await fake({ ...OK, content: [searchBlock({ type: "web_search_tool_result_error", error_code: "max_uses_exceeded" })] });
    const error = await rejection(deepseek(s.url).provider.search({ query: "q", maxResults: 6 }, ctx()));
    expect(error.publicCode).toBe("search_failed");
    expect(error.message).toContain("max_uses_exceeded");
    for (const body of [{ content: "nope" }, { content: [searchBlock("weird")] }, []]) {
      const bad = await fake(body);
      expect((await rejection(deepseek(bad.url).provider.search({ query: "q", maxResults: 6 }, ctx()))).publicCode, JSON.stringify(body)).toBe("invalid_response");
    }
  });

  it("records the full request minus secrets before dispatching it, and snapshots settings once", async () => {
    const order: string[] = [];
    let recorded: { ctx: CallContext; fact: { text: string; payload: unknown } } | undefined;
    const s = await fake((_req, res) => {
      order.push("request");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(OK));
    });
    const { provider, reads } = deepseek(s.url, async (c, fact) => {
      await new Promise((r) => setTimeout(r, 20)); // a slow recorder still finishes first
      order.push("fact");
      recorded = { ctx: c, fact };
    });
    await provider.search({ query: "q", maxResults: 6 }, ctx());
    expect(order).toEqual(["fact", "request"]);
    expect(reads()).toBe(1);
    const payload = recorded!.fact.payload as { request: { url: string; headers: Record<string, string>; body: unknown }; keySource: string };
    expect(JSON.stringify(payload)).not.toContain(KEY);
    expect(payload.request.url).toBe(`${s.url}/v1/messages`);
    expect(payload.request.headers["x-api-key"]).toBe("[redacted]");
    expect(payload.request.body).toEqual(JSON.parse(s.requests[0]!.body));
    expect(payload.keySource).toBe("test DEEPSEEK_API_KEY");
    expect(recorded!.ctx.sessionId).toBe("s1");
  });

  it("a request that cannot be recorded is not sent", async () => {
    const s = await fake(OK);
    const { provider } = deepseek(s.url, async () => {
      throw new Error("database is gone");
    });
    const error = await rejection(provider.search({ query: "q", maxResults: 6 }, ctx()));
    expect(error.publicCode).toBe("provider_failed");
    expect(error.message).toContain("database is gone");
    expect(s.requests).toHaveLength(0);
  });

  it("refuses redirects", async () => {
    const target = await fake(OK);
    const s = await fake((_req, res) => res.writeHead(308, { location: `${target.url}/v1/messages` }).end());
    expect((await rejection(deepseek(s.url).provider.search({ query: "q", maxResults: 6 }, ctx()))).message).toContain("never follow redirects");
    expect(target.requests).toHaveLength(0);
  });

  it("a provider timeout is `timeout`, the caller's abort is `aborted`", async () => {
    const s = await fake(() => undefined);
    const slow = createDeepSeekProvider({
      settings: () => WebSettings.parse({ providers: { deepseek: { baseURL: s.url } }, searchTimeoutMs: 1_000 }),
      secrets: secretsOf({ DEEPSEEK_API_KEY: KEY }),
      recordAux: async () => {},
    });
    expect((await rejection(slow.search({ query: "q", maxResults: 3 }, ctx()))).publicCode).toBe("timeout");
    const controller = new AbortController();
    const pending = slow.search({ query: "q", maxResults: 3 }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    expect((await rejection(pending)).publicCode).toBe("aborted");
  });
});
