import { describe, expect, it } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { createWebService, type WebService } from "../../src/web/service.js";
import { fakeFetch, fakeSearch, neverAborted } from "./helpers.js";
import { rejection, thrown } from "../support/errors.js";

function serviceWith(configured: { search?: string | null; fetch?: string | null } = {}) {
  const config = { search: configured.search ?? null, fetch: configured.fetch ?? null };
  const service = createWebService({ configured: () => config, envVar: (k) => `SEAM_WEB_${k.toUpperCase()}_PROVIDER` });
  return { service, config };
}

const search = (service: WebService, query = "q", maxResults = 8) => service.search({ query, maxResults }, { signal: neverAborted() });

describe("web service registries (WEB-1)", () => {
  it("refuses a duplicate id with duplicate_provider and keeps the first registration", async () => {
    const { service } = serviceWith();
    const a = fakeSearch("exa");
    service.registerSearch(a.provider);
    const error = thrown(() => service.registerSearch(fakeSearch("exa").provider));
    expect(error.publicCode).toBe("duplicate_provider");
    expect(error.data?.provider).toBe("exa");
    expect((await search(service)).provider).toBe("exa");
    expect(a.calls).toHaveLength(1);
  });

  it("keeps search and fetch registries apart: the same id may exist in both", () => {
    const { service } = serviceWith();
    service.registerSearch(fakeSearch("same").provider);
    expect(() => service.registerFetch(fakeFetch("same"))).not.toThrow();
    expect(service.providers("search").map((p) => p.id)).toEqual(["same"]);
    expect(service.providers("fetch").map((p) => p.id)).toEqual(["same"]);
  });

  it("the disposer removes exactly its registration, once", async () => {
    const { service } = serviceWith();
    const dispose = service.registerSearch(fakeSearch("exa").provider);
    await dispose();
    const again = service.registerSearch(fakeSearch("exa").provider);
    await dispose(); // stale disposer: must not remove the new registration
    expect(service.get("search", "exa")).toBeDefined();
    await again();
    expect(service.get("search", "exa")).toBeUndefined();
  });

  it("refuses a malformed provider id", () => {
    const { service } = serviceWith();
    expect(() => service.registerSearch(fakeSearch("Bad Id").provider)).toThrow(/Invalid search provider id/);
  });
});

describe("selection by the closed six-row table (WEB-3)", () => {
  type Row = { name: string; configured: string | null; providers: { id: string; available: boolean }[]; expect: { use: string } | { code: string } };
  const rows: Row[] = [
    { name: "set, registered and available → use it", configured: "b", providers: [{ id: "a", available: true }, { id: "b", available: true }], expect: { use: "b" } },
    { name: "set, not registered → provider_not_found", configured: "zzz", providers: [{ id: "a", available: true }], expect: { code: "provider_not_found" } },
    { name: "set, registered but not available → provider_unavailable", configured: "b", providers: [{ id: "a", available: true }, { id: "b", available: false }], expect: { code: "provider_unavailable" } },
    { name: "unset, exactly one available → use it", configured: null, providers: [{ id: "a", available: false }, { id: "b", available: true }], expect: { use: "b" } },
    { name: "unset, none available → no_provider_available", configured: null, providers: [{ id: "a", available: false }, { id: "b", available: false }], expect: { code: "no_provider_available" } },
    { name: "unset, several available → ambiguous_provider (never first-wins)", configured: null, providers: [{ id: "a", available: true }, { id: "b", available: true }], expect: { code: "ambiguous_provider" } },
  ];

  for (const row of rows) {
    for (const order of ["forward", "reverse"] as const) {
      it(`${row.name} (registered ${order})`, async () => {
        const { service } = serviceWith({ search: row.configured, fetch: row.configured });
        const list = order === "forward" ? row.providers : [...row.providers].reverse();
        const fakes = list.map((p) => fakeSearch(p.id, { available: p.available }));
        for (const f of fakes) service.registerSearch(f.provider);
        for (const p of list) service.registerFetch(fakeFetch(p.id, p.available));

        if ("use" in row.expect) {
          expect((await search(service)).provider).toBe(row.expect.use);
          expect((await service.fetch({ url: "https://x.example/" }, { signal: neverAborted() })).provider).toBe(row.expect.use);
          expect(service.selection("search")).toEqual({ ok: true, id: row.expect.use });
        } else {
          expect((await rejection(search(service))).publicCode).toBe(row.expect.code);
          expect((await rejection(service.fetch({ url: "https://x.example/" }, { signal: neverAborted() }))).publicCode).toBe(row.expect.code);
          expect(service.selection("search")).toMatchObject({ ok: false, code: row.expect.code });
          // A selection error never reaches any provider.
          expect(fakes.every((f) => f.calls.length === 0)).toBe(true);
        }
      });
    }
  }

  it("re-selects on every call: availability and configuration changes apply at once", async () => {
    const { service, config } = serviceWith();
    const a = fakeSearch("a");
    const b = fakeSearch("b", { available: false });
    service.registerSearch(a.provider);
    service.registerSearch(b.provider);
    expect((await search(service)).provider).toBe("a");
    b.setAvailable(true);
    expect((await rejection(search(service))).publicCode).toBe("ambiguous_provider");
    config.search = "b";
    expect((await search(service)).provider).toBe("b");
  });

  it("a late registration of the configured id is picked up without any reload", async () => {
    const { service } = serviceWith({ search: "late" });
    service.registerSearch(fakeSearch("early").provider);
    expect((await rejection(search(service))).publicCode).toBe("provider_not_found");
    service.registerSearch(fakeSearch("late").provider);
    expect((await search(service)).provider).toBe("late");
  });

  it("messages explain the error in words and say where to choose", async () => {
    const { service } = serviceWith();
    service.registerSearch(fakeSearch("exa").provider);
    service.registerSearch(fakeSearch("deepseek").provider);
    const error = await rejection(search(service));
    expect(error.message).toContain("deepseek, exa");
    expect(error.message).toContain("Settings → Web");
    expect(error.message).toContain("SEAM_WEB_SEARCH_PROVIDER");
  });

  it("an available() that throws counts as not available", async () => {
    const { service } = serviceWith();
    const broken = fakeSearch("broken");
    broken.provider.available = () => {
      throw new Error("config explodes");
    };
    service.registerSearch(broken.provider);
    service.registerSearch(fakeSearch("fine").provider);
    expect((await search(service)).provider).toBe("fine");
  });
});

describe("seam-enforced result caps and errors (WEB-4, WEB-6)", () => {
  it("truncates sources to maxResults and sets truncated, whatever the provider did", async () => {
    const { service } = serviceWith();
    const p = fakeSearch("many", { sources: 12 });
    service.registerSearch(p.provider);
    const { result } = await search(service, "q", 5);
    expect(result.sources).toHaveLength(5);
    expect(result.truncated).toBe(true);
    expect(p.calls[0]!.maxResults).toBe(5); // native count control receives it
  });

  it("does not set truncated when the provider stayed within the cap", async () => {
    const { service } = serviceWith();
    service.registerSearch(fakeSearch("few", { sources: 3 }).provider);
    const { result } = await search(service, "q", 5);
    expect(result).toMatchObject({ truncated: false });
    expect(result.sources).toHaveLength(3);
  });

  it("keeps a provider's own truncated flag", async () => {
    const { service } = serviceWith();
    service.registerSearch(fakeSearch("self", { answer: () => ({ sources: [{ url: "https://a.example/" }], truncated: true }) }).provider);
    expect((await search(service)).result.truncated).toBe(true);
  });

  it("a malformed provider result is invalid_response, an untyped throw is provider_failed, both naming the provider", async () => {
    const { service, config } = serviceWith({ search: "bad" });
    service.registerSearch(fakeSearch("bad", { answer: () => ({ sources: [{ title: "no url" }] }) as never }).provider);
    service.registerSearch(fakeSearch("throws", { answer: () => { throw new TypeError("boom"); } }).provider);
    const bad = await rejection(search(service));
    expect(bad.publicCode).toBe("invalid_response");
    expect(bad.data?.provider).toBe("bad");
    config.search = "throws";
    const crashed = await rejection(search(service));
    expect(crashed.publicCode).toBe("provider_failed");
    expect(crashed.data?.provider).toBe("throws");
    expect(crashed.message).toContain("boom");
  });

  it("an already-aborted signal is `aborted` and the provider is not called", async () => {
    const { service } = serviceWith();
    const p = fakeSearch("a");
    service.registerSearch(p.provider);
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(service.search({ query: "q", maxResults: 3 }, { signal: controller.signal }));
    expect(error.publicCode).toBe("aborted");
    expect(p.calls).toHaveLength(0);
  });

  it("records the last real call per provider for the health view (WEB-11)", async () => {
    const { service, config } = serviceWith({ search: "ok" });
    service.registerSearch(fakeSearch("ok").provider);
    service.registerSearch(fakeSearch("bad", { answer: () => { throw new HostError("unavailable:web", "down", { reason: "provider_failed" }); } }).provider);
    expect(service.lastCall("search", "ok")).toBeNull();
    await search(service);
    expect(service.lastCall("search", "ok")).toMatchObject({ ok: true, code: null, probe: false });
    config.search = "bad";
    await rejection(search(service));
    const last = service.lastCall("search", "bad")!;
    expect(last).toMatchObject({ ok: false, code: "provider_failed", message: "down" });
    expect(typeof last.latencyMs).toBe("number");
    expect(Number.isNaN(Date.parse(last.at))).toBe(false);
  });
});
