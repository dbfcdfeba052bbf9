import type { WebFetchToolResult, WebSearchToolResult, WebToolError } from "@seam/shared";
import { afterEach, describe, expect, it } from "vitest";
import { createToolRegistry, type ToolChange } from "../../src/agent/registry.js";
import { createToolRuntime } from "../../src/agent/runtime.js";
import { createScope } from "../../src/core/scope.js";
import { createWebSeam, PROBE_QUERY, type WebSeamDeps } from "../../src/web/web.js";
import { loopback, memoryStore, secretsOf, type Loopback } from "./helpers.js";

const KEY = "sk-seam-test-abcdef";

let servers: Loopback[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function exaFake() {
  const s = await loopback((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ results: [{ url: "https://rust-lang.org/", title: "Rust", highlights: ["A language"] }, { url: "https://docs.rs/" }] }));
  });
  servers.push(s);
  return s;
}

async function setup(opts: { keys?: Record<string, string>; env?: Record<string, string>; stored?: unknown; deps?: Partial<WebSeamDeps> } = {}) {
  const scope = createScope("test");
  const registry = createToolRegistry();
  const changes: ToolChange[] = [];
  registry.onChange((c) => changes.push(c));
  const memory = memoryStore(opts.stored === undefined ? {} : { web: opts.stored });
  const warnings: string[] = [];
  const seam = await createWebSeam(scope, {
    store: memory.store,
    secrets: secretsOf(opts.keys ?? {}),
    registry,
    env: opts.env ?? {},
    warn: (m) => warnings.push(m),
    ...opts.deps,
  });
  const runtime = createToolRuntime({ registry });
  const call = (name: string, args: unknown, sessionId = "s1") => runtime.invoke({ sessionId, workspace: "/ws", callId: "c1", name, args, signal: new AbortController().signal });
  return { scope, registry, changes, memory, seam, call, warnings, [Symbol.asyncDispose]: () => scope.dispose() };
}

describe("createWebSeam: tools by enablement, not by provider health (WEB-7)", () => {
  it("registers web_search and web_fetch by default, even with no provider usable", async () => {
    await using t = await setup();
    expect(t.registry.visible().map((tool) => tool.name)).toEqual(["web_fetch", "web_search"]);
    const outcome = await t.call("web_search", { queries: ["anything"] });
    expect(outcome.status).toBe("error");
    expect(outcome.error?.code).toBe("no_provider_available");
    expect(outcome.error?.message).toContain("EXA_API_KEY is not set");
    expect((outcome.canonical as WebToolError).error).toMatchObject({ code: "no_provider_available", kind: "search", provider: null });
  });

  it("two configured keys → ambiguous; choosing one in settings makes the same call succeed", async () => {
    const exa = await exaFake();
    await using t = await setup({ keys: { EXA_API_KEY: KEY, PERPLEXITY_API_KEY: KEY } });
    await t.seam.settings.set({ ...t.seam.settings.get(), providers: { exa: { baseURL: exa.url } } });
    const first = await t.call("web_search", { queries: ["rust"] });
    expect(first.error?.code).toBe("ambiguous_provider");
    expect(t.seam.health().search.selection).toMatchObject({ ok: false, code: "ambiguous_provider" });

    await t.seam.settings.set({ ...t.seam.settings.get(), searchProvider: "exa" });
    const second = await t.call("web_search", { queries: ["rust"] });
    expect(second.status).toBe("ok");
    expect(second.rendered).toBe("Sources:\n- [Rust](https://rust-lang.org/) — A language\n- [https://docs.rs/](https://docs.rs/)");
    expect((second.canonical as WebSearchToolResult).results[0]).toMatchObject({ query: "rust", provider: "exa" });
  });

  it("disabling removes a tool, enabling brings it back; only shape-changing settings re-register", async () => {
    await using t = await setup();
    const base = t.seam.settings.get();
    const before = t.registry.get("web_search");
    t.changes.length = 0;
    await t.seam.settings.set({ ...base, searchMaxResults: 3 });
    expect(t.registry.get("web_search")).toBe(before);
    expect(t.changes).toEqual([]);

    await t.seam.settings.set({ ...base, searchEnabled: false });
    expect(t.registry.visible().map((tool) => tool.name)).toEqual(["web_fetch"]);
    await t.seam.settings.set({ ...base, searchMaxQueries: 2, searchTimeoutMs: 45_000 });
    const tool = t.registry.get("web_search")!;
    expect(tool.timeoutMs).toBe(45_000);
    expect((tool.inputSchema as { properties: { queries: { maxItems: number } } }).properties.queries.maxItems).toBe(2);
    expect(t.seam.health().search.enabled).toBe(true);
  });

  it("disposing the scope unregisters both tools", async () => {
    const t = await setup();
    await t.scope.dispose();
    expect(t.registry.visible()).toEqual([]);
  });
});

describe("settings: one setting, two doors (WEB-3)", () => {
  it("the env var holds the provider setting; the page cannot set a different value", async () => {
    await using t = await setup({ env: { SEAM_WEB_SEARCH_PROVIDER: "exa" } });
    expect(t.seam.settings.get().searchProvider).toBe("exa");
    await expect(t.seam.settings.set({ ...t.seam.settings.get(), searchProvider: "perplexity" })).rejects.toMatchObject({ publicCode: "provider_setting_conflict" });
    await expect(t.seam.settings.set({ ...t.seam.settings.get(), searchProvider: null })).rejects.toMatchObject({ publicCode: "provider_setting_conflict" });
    expect(t.memory.settings.get("web")).toBeUndefined();
    const saved = await t.seam.settings.set({ ...t.seam.settings.get(), searchMaxResults: 3 });
    expect(saved).toMatchObject({ searchProvider: "exa", searchMaxResults: 3 });
    // A form that leaves the locked field out keeps the door's value.
    expect(await t.seam.settings.set({ searchMaxResults: 4 })).toMatchObject({ searchProvider: "exa", searchMaxResults: 4 });
    const health = t.seam.health().search;
    expect(health).toMatchObject({ configuredId: "exa", configuredBy: "env", envVar: "SEAM_WEB_SEARCH_PROVIDER", lockedByEnv: true });
    expect(health.selection).toMatchObject({ ok: false, code: "provider_unavailable" });
  });

  it("a malformed env id is refused at start", async () => {
    await expect(setup({ env: { SEAM_WEB_FETCH_PROVIDER: "Not An Id" } })).rejects.toMatchObject({ publicCode: "invalid_settings" });
  });

  it("validates and persists settings; a new seam over the same store loads them", async () => {
    await using t = await setup();
    await expect(t.seam.settings.set({ fetchAllowlist: ["10.1"] })).rejects.toMatchObject({ publicCode: "invalid_settings" });
    await expect(t.seam.settings.set({ searchMaxResults: 0 })).rejects.toMatchObject({ publicCode: "invalid_settings" });
    expect(t.memory.settings.get("web")).toBeUndefined();
    await t.seam.settings.set({ fetchAllowlist: ["10.0.0.0/8"], fetchProvider: "http", providers: { exa: { apiKeyEnv: "MY_EXA" } } });
    await using again = await setup({ stored: t.memory.settings.get("web") });
    expect(again.seam.settings.get()).toMatchObject({ fetchAllowlist: ["10.0.0.0/8"], fetchProvider: "http", providers: { exa: { apiKeyEnv: "MY_EXA" } } });
  });

  it("invalid stored settings fall back to defaults with a warning", async () => {
    await using t = await setup({ stored: { searchMaxResults: "lots" } });
    expect(t.seam.settings.get().searchMaxResults).toBe(8);
    expect(t.warnings.join("\n")).toContain("stored web settings are invalid");
  });
});

describe("health view and probes (WEB-11)", () => {
  it("shows registered / configured / available / selected per provider, with problems in words", async () => {
    await using t = await setup({ keys: { EXA_API_KEY: KEY }, stored: { searchProvider: "nosuch" } });
    const h = t.seam.health();
    expect(h.search.selection).toMatchObject({ ok: false, code: "provider_not_found" });
    const rows = Object.fromEntries(h.search.providers.map((p) => [p.id, p]));
    expect(Object.keys(rows)).toEqual(["deepseek", "exa", "perplexity", "nosuch"]);
    expect(rows.exa).toMatchObject({ registered: true, configured: false, available: true, selected: false, problem: null, keySource: "test EXA_API_KEY", endpoint: "https://api.exa.ai", lastCall: null });
    expect(rows.deepseek).toMatchObject({ available: false, problem: expect.stringContaining("DEEPSEEK_API_KEY is not set") });
    expect(rows.nosuch).toMatchObject({ registered: false, configured: true, available: false });
    expect(h.fetch).toMatchObject({ enabled: true, configuredId: null, configuredBy: null, lockedByEnv: false, selection: { ok: true, id: "http" } });
    expect(h.fetch.providers[0]).toMatchObject({ id: "http", available: true, selected: true });
    expect(JSON.stringify(h)).not.toContain(KEY);
  });

  it("a probe makes one real request and is recorded as the last call", async () => {
    const exa = await exaFake();
    const page = await loopback((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("probe page"));
    servers.push(page);
    await using t = await setup({ keys: { EXA_API_KEY: KEY }, stored: { providers: { exa: { baseURL: exa.url } }, fetchAllowlist: ["127.0.0.1"], fetchProbeUrl: `${page.url}/probe` } });
    const search = await t.seam.probe("search", "exa");
    expect(search).toMatchObject({ kind: "search", id: "exa", ok: true, code: null });
    expect(JSON.parse(exa.requests[0]!.body)).toMatchObject({ query: PROBE_QUERY });
    expect(t.seam.health().search.providers.find((p) => p.id === "exa")!.lastCall).toMatchObject({ ok: true, probe: true });

    const fetch = await t.seam.probe("fetch", "http");
    expect(fetch).toMatchObject({ ok: true, message: expect.stringContaining("HTTP 200") });
    expect(page.requests.map((r) => r.path)).toEqual(["/probe"]);
  });

  it("probing an unavailable or unknown provider fails locally, without a request", async () => {
    const exa = await exaFake();
    await using t = await setup({ stored: { providers: { exa: { baseURL: exa.url } } } });
    expect(await t.seam.probe("search", "exa")).toMatchObject({ ok: false, code: "provider_unavailable" });
    expect(await t.seam.probe("search", "bing")).toMatchObject({ ok: false, code: "provider_not_found" });
    expect(exa.requests).toHaveLength(0);
    expect(t.seam.health().search.providers.find((p) => p.id === "exa")!.lastCall).toBeNull();
  });

  it("a failed probe records the error code", async () => {
    const down = await loopback((_req, res) => res.writeHead(503, { "content-type": "application/json" }).end("{\"error\":\"maintenance\"}"));
    servers.push(down);
    await using t = await setup({ keys: { PERPLEXITY_API_KEY: KEY }, stored: { providers: { perplexity: { baseURL: down.url } } } });
    expect(await t.seam.probe("search", "perplexity")).toMatchObject({ ok: false, code: "provider_failed", message: expect.stringContaining("maintenance") });
    expect(t.seam.health().search.providers.find((p) => p.id === "perplexity")!.lastCall).toMatchObject({ ok: false, code: "provider_failed", probe: true });
  });
});

describe("end to end through the tool runtime", () => {
  it("web_fetch of an allowlisted loopback page shows markdown; a private address is blocked", async () => {
    const page = await loopback((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<html><head><title>Fixture</title></head><body><h2>Table</h2><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table></body></html>");
    });
    servers.push(page);
    await using t = await setup({ stored: { fetchAllowlist: ["127.0.0.1/32"] } });
    const ok = await t.call("web_fetch", { url: `${page.url}/doc` });
    expect(ok.status).toBe("ok");
    expect(ok.rendered).toMatch(/^Fetched http:\/\/127\.0\.0\.1:\d+\/doc \(HTTP 200\)\n\nTitle: Fixture\n\n## Table\n\n\| k +\| v +\|/);
    expect((ok.canonical as WebFetchToolResult)).toMatchObject({ provider: "http", result: { statusCode: 200, body: { kind: "html" } } });

    const blocked = await t.call("web_fetch", { url: "http://192.168.1.1/admin" });
    expect(blocked.status).toBe("error");
    expect(blocked.error?.code).toBe("blocked_url");
    expect(blocked.rendered).toContain("Error [blocked_url] (fetch provider: http)");
    expect(t.seam.health().fetch.providers[0]!.lastCall).toMatchObject({ ok: false, code: "blocked_url" });
  });

  it("web_fetch output is capped by fetchMaxChars, not the runtime's default, and its notices survive (WEB-7)", async () => {
    const page = await loopback((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("z".repeat(300_000)));
    servers.push(page);
    {
      await using t = await setup({ stored: { fetchAllowlist: ["127.0.0.1"] } });
      const outcome = await t.call("web_fetch", { url: page.url });
      expect(outcome.status).toBe("ok");
      // The fetcher reads 100,000 characters; the default 200,000 output cap leaves them all visible.
      expect(outcome.rendered.length).toBeGreaterThan(100_000);
      expect(outcome.rendered).not.toContain("output truncated"); // the runtime's generic cut never hit
      expect(outcome.rendered).toContain("[The page is longer than the fetch limit; only its beginning was read.]");
    }
    {
      await using t = await setup({ stored: { fetchAllowlist: ["127.0.0.1"], fetchMaxChars: 50_000 } });
      const outcome = await t.call("web_fetch", { url: page.url });
      expect(outcome.rendered).not.toContain("output truncated");
      expect(outcome.rendered).toMatch(/\[Output cut at 50,000 characters; the rest of the page is not shown\.\]$/);
    }
  });

  it("web_fetch of an endless page stops early: Markdown of its beginning, the fetch-limit notice, the connection closed (WEB-8)", async () => {
    let written = 0;
    let closedAt = -1;
    const page = await loopback((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }); // chunked, no length, never ends
      res.write("<html><head><title>Endless</title></head><body>");
      const chunk = Buffer.from("<h2>Part</h2><p>Text with <a href=\"/more\">a link</a>.</p><script>x()</script>\n".repeat(800));
      // One chunk per tick, so `written` says when the client hung up, not what the socket buffers held.
      const timer = setInterval(() => {
        if (res.destroyed) return;
        written += chunk.length;
        res.write(chunk);
      }, 1);
      res.on("close", () => {
        clearInterval(timer);
        closedAt = written;
      });
    });
    servers.push(page);
    await using t = await setup({ stored: { fetchAllowlist: ["127.0.0.1"] } });
    const outcome = await t.call("web_fetch", { url: page.url });
    expect(outcome.status).toBe("ok");
    expect(outcome.rendered).toMatch(/^Fetched http:\/\/127\.0\.0\.1:\d+\/ \(HTTP 200\)\n\nTitle: Endless\n\n## Part\n\nText with \[a link\]\(http:\/\/127\.0\.0\.1:\d+\/more\)\.\n\n## Part/);
    expect(outcome.rendered).not.toContain("x()");
    expect(outcome.rendered).toMatch(/\[The page is longer than the fetch limit; only its beginning was read\.\]$/);
    expect((outcome.canonical as WebFetchToolResult).result.truncated).toBe(true);
    for (let i = 0; i < 200 && closedAt < 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt).toBeLessThan(2_000_000); // stopped after a few chunks, long before the 5 MB byte cap
  });

  it("DeepSeek search records an aux_request fact (no key) in the calling session before dispatch", async () => {
    const order: string[] = [];
    const ds = await loopback((_req, res) => {
      order.push("request");
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ content: [{ type: "web_search_tool_result", tool_use_id: "t", content: [{ type: "web_search_result", url: "https://x.example/", title: "X", encrypted_content: "e" }] }] }));
    });
    servers.push(ds);
    await using t = await setup({
      keys: { DEEPSEEK_API_KEY: KEY },
      stored: { searchProvider: "deepseek", providers: { deepseek: { baseURL: ds.url, model: "deepseek-v4-pro" } } },
      deps: { turnOf: (sessionId) => `turn-of-${sessionId}` },
    });
    const original = t.memory.store.items.appendFact;
    t.memory.store.items.appendFact = async (sessionId, f) => {
      order.push("fact");
      return original(sessionId, f);
    };
    const outcome = await t.call("web_search", { queries: ["x"] }, "sess-9");
    expect(outcome.rendered).toBe("Sources:\n- [X](https://x.example/)");
    expect(order).toEqual(["fact", "request"]);
    expect(t.memory.facts).toHaveLength(1);
    const fact = t.memory.facts[0]!;
    expect(fact).toMatchObject({ sessionId: "sess-9", turnId: "turn-of-sess-9", factKind: "aux_request", text: "" });
    expect(JSON.stringify(fact.payload)).not.toContain(KEY);
    expect(fact.payload).toMatchObject({ provider: "deepseek", request: { body: { model: "deepseek-v4-pro" } } });
  });
});
