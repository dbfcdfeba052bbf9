import { describe, expect, it } from "vitest";
import { createSkillRegistry, type SkillCandidate, type SkillDefinition, type SkillProvider } from "../../src/skills/registry.js";
import { quietLog } from "./fixture.js";

const cand = (name: string, rank: number, extra: Partial<SkillCandidate> = {}): SkillCandidate => ({
  name, description: `${name} at ${rank}`, modelInvocable: true, userInvocable: true, rank, source: `src-${rank}`, locator: { rank }, ...extra,
});

/** A provider over a mutable list; counts list calls; get returns the candidate as a definition. */
function fakeProvider(id: string, candidates: SkillCandidate[], overrides: Partial<SkillProvider> = {}) {
  const state = { calls: 0, candidates, bodies: new Map<string, string>(), names: new Map<string, string>(), complete: true };
  const provider: SkillProvider = {
    id,
    async list() {
      state.calls += 1;
      return { candidates: state.candidates, complete: state.complete };
    },
    async get(c): Promise<SkillDefinition> {
      return { ...c, name: state.names.get(c.name) ?? c.name, body: state.bodies.get(c.name) ?? `body of ${c.name} from ${id}`, resourceBase: null };
    },
    ...overrides,
  };
  return { provider, state };
}

describe("layered registry (SKL-1)", () => {
  it("rank decides within a layer; then provider order; then local order", async () => {
    const registry = createSkillRegistry({ log: quietLog() });
    const a = fakeProvider("a", [cand("alpha", 400), cand("beta", 300), cand("dup", 300, { source: "first" }), cand("dup", 300, { source: "second" })]);
    const b = fakeProvider("b", [cand("alpha", 100), cand("beta", 300, { source: "b" })]);
    registry.addProvider(a.provider);
    registry.addProvider(b.provider);
    const obs = await registry.list({ cwd: "/w" });
    expect(obs.complete).toBe(true);
    expect(obs.candidates.map((c) => [c.name, c.provider, c.rank, c.source])).toEqual([
      ["alpha", "b", 100, "src-100"],
      ["beta", "a", 300, "src-300"],
      ["dup", "a", 300, "first"],
    ]);
  });

  it("the nearest layer wins outright, whatever the rank", async () => {
    const registry = createSkillRegistry({ log: quietLog() });
    registry.addProvider(fakeProvider("global", [cand("review", 100), cand("only-global", 600)]).provider);
    registry.addProvider(fakeProvider("agent", [cand("review", 600)]).provider, { layer: "agent:coding" });
    registry.addProvider(fakeProvider("session", [cand("review", 900)]).provider, { layer: "session:s1" });

    const global = await registry.list({ cwd: "/w" });
    expect(global.candidates.find((c) => c.name === "review")?.layer).toBe("global");
    const agent = await registry.list({ cwd: "/w", scopes: ["agent:coding"] });
    expect(agent.candidates.find((c) => c.name === "review")?.layer).toBe("agent:coding");
    const session = await registry.list({ cwd: "/w", scopes: ["agent:coding", "session:s1"] });
    expect(session.candidates.map((c) => [c.name, c.layer, c.rank])).toEqual([["only-global", "global", 600], ["review", "session:s1", 900]]);
    // Another session does not see s1's layer.
    const other = await registry.list({ cwd: "/w", scopes: ["session:s2"] });
    expect(other.candidates.find((c) => c.name === "review")?.layer).toBe("global");

    const full = await registry.observe({ cwd: "/w", scopes: ["agent:coding", "session:s1"] });
    const reviews = full.entries.filter((e) => e.name === "review");
    expect(reviews.map((e) => [e.layer, e.shadowedBy?.layer ?? null])).toEqual([["session:s1", null], ["agent:coding", "session:s1"], ["global", "session:s1"]]);
  });

  it("summaries are sorted by name", async () => {
    const registry = createSkillRegistry({ log: quietLog() });
    registry.addProvider(fakeProvider("p", [cand("zeta", 1), cand("alpha", 1), cand("m-2", 1), cand("m-10", 1)]).provider);
    expect((await registry.list({})).candidates.map((c) => c.name)).toEqual(["alpha", "m-10", "m-2", "zeta"]);
  });

  it("runtime registrations: rank 250, first wins, a later one is warned about and gets a no-op disposer", async () => {
    const warnings: string[] = [];
    const registry = createSkillRegistry({ log: quietLog(warnings) });
    registry.addProvider(fakeProvider("fs", [cand("project", 100), cand("helper", 400)]).provider);
    const first = registry.register({ name: "helper", description: "runtime helper", body: "first body" });
    const second = registry.register({ name: "helper", description: "late", body: "second body" });
    registry.register({ name: "project", description: "runtime loses to project", body: "x" });
    expect(warnings.some((w) => w.includes("already registered"))).toBe(true);

    let obs = await registry.list({});
    expect(obs.candidates.map((c) => [c.name, c.rank, c.source])).toEqual([["helper", 250, "runtime"], ["project", 100, "src-100"]]);
    expect((await registry.get("helper", {}))?.body).toBe("first body");

    await second(); // no-op
    obs = await registry.list({});
    expect(obs.candidates.find((c) => c.name === "helper")?.rank).toBe(250);
    await first();
    obs = await registry.list({});
    expect(obs.candidates.find((c) => c.name === "helper")?.rank).toBe(400);
    expect(() => registry.register({ name: "Not_Kebab", description: "d", body: "b" })).toThrow(/kebab-case/);
  });

  it("a rejected provider list is logged and omitted; the observation is incomplete", async () => {
    const warnings: string[] = [];
    const registry = createSkillRegistry({ log: quietLog(warnings) });
    registry.addProvider(fakeProvider("good", [cand("ok", 1)]).provider);
    registry.addProvider(fakeProvider("bad", [], { list: async () => { throw new Error("remote down"); } }).provider);
    registry.addProvider(fakeProvider("odd", [cand("Bad Name", 1)]).provider);
    const obs = await registry.list({});
    expect(obs.complete).toBe(false);
    expect(obs.candidates.map((c) => c.name)).toEqual(["ok"]);
    expect(warnings.join("\n")).toMatch(/bad.*failed to list/);
    expect(warnings.join("\n")).toMatch(/odd.*bad candidate/);
  });

  it("skills/change is diff-less and a failing listener does not stop the others", async () => {
    const warnings: string[] = [];
    const registry = createSkillRegistry({ log: quietLog(warnings) });
    const seen: number[] = [];
    registry.onChange(() => { throw new Error("listener boom"); });
    registry.onChange(async () => { throw new Error("async boom"); });
    const off = registry.onChange((e) => void seen.push(e.revision));
    registry.invalidate("test");
    registry.register({ name: "x", description: "d", body: "b" });
    off();
    registry.invalidate("after off");
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([1, 2]);
    // Three changes, two failing listeners each.
    expect(warnings.filter((w) => w.includes("listener failed"))).toHaveLength(6);
  });
});

describe("observation cache (SKL-4)", () => {
  it("caches complete observations keyed by cwd + scope chain + revision", async () => {
    const registry = createSkillRegistry({ log: quietLog() });
    const p = fakeProvider("p", [cand("one", 1)]);
    registry.addProvider(p.provider);
    await registry.list({ cwd: "/a" });
    await registry.list({ cwd: "/a" });
    expect(p.state.calls).toBe(1);
    await registry.list({ cwd: "/b" });
    expect(p.state.calls).toBe(2);
    await registry.list({ cwd: "/a", scopes: ["session:s1"] });
    expect(p.state.calls).toBe(3);
    await registry.list({ cwd: "/a", scopes: ["session:s1"] });
    expect(p.state.calls).toBe(3);
    registry.invalidate("edit");
    await registry.list({ cwd: "/a" });
    expect(p.state.calls).toBe(4);
  });

  it("never caches an incomplete observation", async () => {
    const registry = createSkillRegistry({ log: quietLog() });
    const p = fakeProvider("p", [cand("one", 1)]);
    p.state.complete = false;
    registry.addProvider(p.provider);
    expect((await registry.list({ cwd: "/a" })).complete).toBe(false);
    expect((await registry.list({ cwd: "/a" })).complete).toBe(false);
    expect(p.state.calls).toBe(2);
    p.state.complete = true;
    await registry.list({ cwd: "/a" });
    await registry.list({ cwd: "/a" });
    expect(p.state.calls).toBe(3);
  });

  it("bounds the number of cached observations", async () => {
    const registry = createSkillRegistry({ log: quietLog(), cacheSize: 2 });
    const p = fakeProvider("p", [cand("one", 1)]);
    registry.addProvider(p.provider);
    await registry.list({ cwd: "/a" });
    await registry.list({ cwd: "/b" });
    await registry.list({ cwd: "/a" }); // hit, refreshes /a
    await registry.list({ cwd: "/c" }); // evicts /b
    expect(p.state.calls).toBe(3);
    await registry.list({ cwd: "/a" });
    expect(p.state.calls).toBe(3);
    await registry.list({ cwd: "/b" });
    expect(p.state.calls).toBe(4);
  });

  // The provider lists one candidate `v<call>` and invalidates the registry during the calls `races` picks.
  it.each([
    { title: "a revision change during discovery retries once and then caches", races: (call: number) => call === 1, complete: true, callsAfterRepeat: 2 },
    { title: "a second race returns the latest candidates marked incomplete, uncached", races: () => true, complete: false, callsAfterRepeat: 4 },
  ])("$title", async ({ races, complete, callsAfterRepeat }) => {
    const registry = createSkillRegistry({ log: quietLog() });
    let calls = 0;
    registry.addProvider({
      id: "racy",
      async list() {
        calls += 1;
        if (races(calls)) registry.invalidate(`changed during list call ${calls}`);
        return [cand(`v${calls}`, 1)];
      },
      get: async () => null,
    });
    const obs = await registry.list({ cwd: "/a" });
    expect(calls).toBe(2);
    expect(obs.complete).toBe(complete);
    expect(obs.candidates.map((c) => c.name)).toEqual(["v2"]);
    await registry.list({ cwd: "/a" });
    expect(calls).toBe(callsAfterRepeat);
  });

  it("a cancelled lookup rejects", async () => {
    const registry = createSkillRegistry({ log: quietLog() });
    registry.addProvider(fakeProvider("p", [cand("one", 1)]).provider);
    await expect(registry.list({ signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "closed:skills" });
  });
});

describe("get() is never cached (SKL-5)", () => {
  it("re-reads the winner's body every time, and rejects a definition whose name no longer matches", async () => {
    const warnings: string[] = [];
    const registry = createSkillRegistry({ log: quietLog(warnings) });
    let invalidated = 0;
    const p = fakeProvider("p", [cand("alpha", 1)], { invalidate: () => void (invalidated += 1) });
    registry.addProvider(p.provider);
    p.state.bodies.set("alpha", "v1");
    expect((await registry.get("alpha", {}))?.body).toBe("v1");
    p.state.bodies.set("alpha", "v2");
    expect((await registry.get("alpha", {}))?.body).toBe("v2");
    expect(p.state.calls).toBe(1); // the summary came from the cache; the body did not

    const revision = registry.revision;
    p.state.names.set("alpha", "renamed");
    expect(await registry.get("alpha", {})).toBeNull();
    expect(invalidated).toBe(1);
    expect(registry.revision).toBe(revision + 1);
    expect(warnings.some((w) => w.includes("no longer matches"))).toBe(true);
    expect(await registry.get("missing", {})).toBeNull();
    expect(await registry.get("../etc", {})).toBeNull();
  });
});
