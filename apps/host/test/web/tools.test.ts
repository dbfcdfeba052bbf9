import { WebSettings, type WebSearchResult, type WebSearchToolResult, type WebToolError } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime } from "../../src/agent/runtime.js";
import { HostError } from "../../src/core/errors.js";
import { mergeSources, renderFetch, renderSearch, sourceLine } from "../../src/web/render.js";
import { createWebService } from "../../src/web/service.js";
import { webFetchTool } from "../../src/web/web-fetch.js";
import { webSearchTool } from "../../src/web/web-search.js";
import { aborted, fakeSearch } from "./helpers.js";

function harness(overrides: Partial<WebSettings> = {}) {
  const settings = WebSettings.parse({ ...overrides });
  const config = { search: settings.searchProvider, fetch: settings.fetchProvider };
  const service = createWebService({ configured: () => config });
  const registry = createToolRegistry();
  registry.register(webSearchTool({ service, settings: () => settings }));
  registry.register(webFetchTool({ service, settings: () => settings }));
  const runtime = createToolRuntime({ registry });
  const call = (name: string, args: unknown) => runtime.invoke({ sessionId: "s1", workspace: "/ws", callId: "c1", name, args, signal: new AbortController().signal });
  return { service, registry, call, settings };
}

const src = (host: string, n: number) => Array.from({ length: n }, (_, i) => ({ url: `https://${host}/${i + 1}`, title: `${host} ${i + 1}` }));

describe("web_search multi-query semantics (WEB-7)", () => {
  it("runs each distinct query once, concurrently", async () => {
    const h = harness();
    let inFlight = 0;
    let peak = 0;
    const p = fakeSearch("p", {
      answer: async (query) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        return { sources: src(query.replace(/\s/g, ""), 1), truncated: false };
      },
    });
    h.service.registerSearch(p.provider);
    const outcome = await h.call("web_search", { queries: ["alpha", "beta", "alpha", " beta "] });
    expect(outcome.status).toBe("ok");
    expect(p.calls.map((c) => c.query).sort()).toEqual(["alpha", "beta"]);
    expect(peak).toBe(2);
  });

  it("the first failure aborts its siblings and is the call's result", async () => {
    const h = harness();
    const p = fakeSearch("p", {
      answer: async (query) => {
        if (query === "fails") {
          await new Promise((r) => setTimeout(r, 5));
          throw new HostError("unavailable:web", "quota exhausted", { reason: "provider_failed" });
        }
        const signal = p.calls.find((c) => c.query === query)!.signal;
        await aborted(signal); // only ends because the sibling failed
        throw new HostError("closed:web", "aborted", { reason: "aborted" });
      },
    });
    h.service.registerSearch(p.provider);
    const outcome = await h.call("web_search", { queries: ["slow one", "fails", "slow two"] });
    expect(outcome.status).toBe("error");
    expect(outcome.error).toEqual({ code: "provider_failed", message: "quota exhausted" });
    const siblings = p.calls.filter((c) => c.query !== "fails");
    expect(siblings).toHaveLength(2);
    expect(siblings.every((c) => c.signal.aborted)).toBe(true);
    expect((outcome.canonical as WebToolError).error).toMatchObject({ code: "provider_failed", provider: "p", kind: "search" });
    expect(outcome.rendered).toContain("Error [provider_failed] (search provider: p)");
  });

  it("merges round-robin by rank, dedupes by URL and caps at searchMaxResults", async () => {
    const h = harness({ searchMaxResults: 5 });
    const shared = { url: "https://shared.example/x", title: "shared" };
    const p = fakeSearch("p", {
      answer: (q) => (q === "one"
        ? { sources: [{ url: "https://a.example/1" }, shared, { url: "https://a.example/3" }, { url: "https://a.example/4" }], truncated: false }
        : { sources: [{ url: "https://b.example/1" }, { url: "https://shared.example/x#frag" }, { url: "https://b.example/3" }], truncated: false }),
    });
    h.service.registerSearch(p.provider);
    const outcome = await h.call("web_search", { queries: ["one", "two"] });
    const canonical = outcome.canonical as WebSearchToolResult;
    expect(canonical.sources.map((s) => s.url)).toEqual(["https://a.example/1", "https://b.example/1", "https://shared.example/x", "https://a.example/3", "https://b.example/3"]);
    expect(canonical.truncated).toBe(true);
    expect(canonical.results.map((r) => r.query)).toEqual(["one", "two"]);
    expect(outcome.rendered).toContain("[Showing the first 5 sources; more were found.");
  });

  it("validates queries: 1..searchMaxQueries non-empty strings, never a model-chosen count", async () => {
    const h = harness({ searchMaxQueries: 2 });
    h.service.registerSearch(fakeSearch("p").provider);
    expect((await h.call("web_search", { queries: [] })).error?.code).toBe("invalid_arguments");
    expect((await h.call("web_search", { queries: ["a", "b", "c"] })).error?.code).toBe("invalid_arguments");
    expect((await h.call("web_search", { queries: ["  "] })).error?.code).toBe("invalid_arguments");
    expect((await h.call("web_search", { queries: ["a"], maxResults: 50 })).status).toBe("ok"); // unknown keys are stripped
    const schema = h.registry.get("web_search")!.inputSchema as { properties: Record<string, { maxItems?: number }> };
    expect(Object.keys(schema.properties)).toEqual(["queries"]);
    expect(schema.properties.queries!.maxItems).toBe(2);
  });

  it("a selection error reaches the model with its code and guidance, as a failed call", async () => {
    const h = harness();
    h.service.registerSearch(fakeSearch("exa").provider);
    h.service.registerSearch(fakeSearch("deepseek").provider);
    const outcome = await h.call("web_search", { queries: ["x"] });
    expect(outcome.status).toBe("error");
    expect(outcome.error?.code).toBe("ambiguous_provider");
    expect(outcome.rendered).toMatch(/^Error \[ambiguous_provider\]: Several search providers are available \(deepseek, exa\)/);
    expect(outcome.rendered).toContain("tell the user to choose a provider in Settings → Web");
    expect((outcome.canonical as WebToolError).error.provider).toBeNull();
  });
});

describe("search rendering (WEB-7)", () => {
  const result = (content: string | undefined, sources: WebSearchResult["sources"]): WebSearchResult => (content ? { content, sources, truncated: false } : { sources, truncated: false });

  it("renders a source line with title, snippet and date, falling back to the URL", () => {
    expect(sourceLine({ url: "https://a.example/x", title: "A [page]", snippet: "some\n  text", publishedAt: "2025-01-02" }))
      .toBe("- [A \\[page\\]](https://a.example/x) — some text (2025-01-02)");
    expect(sourceLine({ url: "https://b.example/(y)" })).toBe("- [https://b.example/(y)](https://b.example/%28y%29)");
  });

  it("one query: the answer then Sources", () => {
    const r = [{ query: "q", provider: "p", result: result("The answer.", [{ url: "https://a.example/" }]) }];
    expect(renderSearch(r, r[0]!.result.sources, false, 8)).toBe("The answer.\n\nSources:\n- [https://a.example/](https://a.example/)");
  });

  it("several queries: each answer headed by its query", () => {
    const r = [
      { query: "first", provider: "p", result: result("One.", []) },
      { query: "second", provider: "p", result: result(undefined, []) },
      { query: "third", provider: "p", result: result("Three.", []) },
    ];
    expect(renderSearch(r, [{ url: "https://x.example/", title: "X" }], false, 8)).toBe("### first\nOne.\n\n### third\nThree.\n\nSources:\n- [X](https://x.example/)");
  });

  it("nothing at all: No results found.", () => {
    expect(renderSearch([{ query: "q", provider: "p", result: result(undefined, []) }], [], false, 8)).toBe("No results found.");
  });

  it("merge keeps rank order and reports the cap only when a distinct source was dropped", () => {
    const a = result(undefined, [{ url: "https://x/1" }, { url: "https://x/2" }]);
    const b = result(undefined, [{ url: "https://x/1" }]);
    expect(mergeSources([a, b], 2)).toEqual({ sources: [{ url: "https://x/1" }, { url: "https://x/2" }], capped: false });
    expect(mergeSources([a, b], 1)).toEqual({ sources: [{ url: "https://x/1" }], capped: true });
  });
});

describe("fetch rendering (WEB-7)", () => {
  it("renders the header and HTML as Markdown with GFM tables and absolute links", async () => {
    const html = "<html><head><title>Doc &amp; more</title><style>p{}</style></head><body><h1>Hello</h1><p>See <a href=\"/next\">next</a>.</p><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></body></html>";
    const { text } = await renderFetch({ url: "https://site.example/dir/page", statusCode: 200, body: { kind: "html", content: html }, truncated: false }, 200_000);
    expect(text.startsWith("Fetched https://site.example/dir/page (HTTP 200)\n\nTitle: Doc & more\n\n# Hello\n\nSee [next](https://site.example/next).\n\n")).toBe(true);
    expect(text).not.toContain("p{}");
    expect(text).toMatch(/\| a +\| b +\|\n\| -+ \| -+ \|\n\| 1 +\| 2 +\|/);
  });

  it("keeps non-HTML text as is, says when the fetcher cut the page, and caps the output", async () => {
    const cut = await renderFetch({ url: "https://x.example/a.txt", statusCode: 404, body: { kind: "text", content: "not here" }, truncated: true }, 200_000);
    expect(cut.text).toBe("Fetched https://x.example/a.txt (HTTP 404)\n\nnot here\n\n[The page is longer than the fetch limit; only its beginning was read.]");
    const long = await renderFetch({ url: "https://x.example/b.txt", statusCode: 200, body: { kind: "text", content: "y".repeat(5_000) }, truncated: false }, 1_000);
    expect(long.cut).toBe(true);
    expect(long.text.length).toBeLessThanOrEqual(1_000);
    expect(long.text).toMatch(/\[Output cut at 1,000 characters; the rest of the page is not shown\.\]$/);
  });
});
