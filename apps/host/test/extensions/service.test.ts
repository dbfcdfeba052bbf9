import type { ApprovalRequestView } from "@seam/shared";
import { afterEach, describe, expect, it } from "vitest";
import { createToolRegistry, type ToolRegistry } from "../../src/agent/registry.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createExtensions, type Extensions } from "../../src/extensions/service.js";
import { createExtensionStore } from "../../src/extensions/store.js";
import { extensionTools } from "../../src/extensions/tools.js";
import { openDatabase, type Database } from "../../src/persistence/db.js";
import { createWebSeam } from "../../src/web/web.js";
import { tmpDir } from "../persistence/tmp.js";
import { loopback, memoryStore, secretsOf } from "../web/helpers.js";
import { rejection } from "../support/errors.js";

const COUNTER_HOST = `
let n = 0;
api.tools.register({ name: "counter_increment", description: "Adds one" }, () => { n += 1; api.send({ n }); return { n }; });
api.handle("increment", () => { n += 1; api.send({ n }); return { n }; });
api.handle("get", () => ({ n }));
`;
const COUNTER_BROWSER = `seam.root.textContent = "0";`;

interface World { scope: Scope; db: Database; registry: ToolRegistry; ext: Extensions; s1: string; s2: string; home: string }
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function world(home?: string): Promise<World> {
  let dir: ReturnType<typeof tmpDir> | undefined;
  if (!home) {
    dir = tmpDir("seam-ext-");
    home = dir.path;
  }
  const scope = createScope("test");
  const db = await openDatabase(scope.child("db"), { home });
  const registry = createToolRegistry();
  const ext = createExtensions(scope.child("extensions"), {
    extStore: createExtensionStore(db), store: db.store, registry, browserWaitMs: 300,
  });
  const sessions = await db.store.sessions.list();
  const s1 = sessions.find((s) => s.title === "one")?.id ?? (await db.store.sessions.create({ title: "one", workspace: home })).id;
  const s2 = sessions.find((s) => s.title === "two")?.id ?? (await db.store.sessions.create({ title: "two", workspace: home })).id;
  cleanups.push(async () => {
    await scope.dispose();
    if (dir) await dir[Symbol.asyncDispose]();
  });
  return { scope, db, registry, ext, s1, s2, home };
}

const signal = () => new AbortController().signal;
const toolNames = (w: World, sessionId: string) => w.registry.visible(sessionId).map((t) => t.name);

/** Waits for the next pending run request. */
async function nextApproval(w: World): Promise<ApprovalRequestView> {
  for (let i = 0; i < 200; i++) {
    const { approvals } = await w.ext.api.snapshot();
    if (approvals.length > 0) return approvals[0]!;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("no run request arrived");
}

async function runApproved(w: World, sessionId: string, name: string, allowFuture = false) {
  const running = w.ext.run(sessionId, { name }, signal());
  const request = await nextApproval(w);
  await w.ext.api.answer({ id: request.id, decision: "allow", allowFuture });
  return running;
}

/** A world whose session s1 runs the counter extension, approved by the user. */
async function runningCounter(): Promise<World> {
  const w = await world();
  await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
  await runApproved(w, w.s1, "counter");
  return w;
}

async function callTool(w: World, sessionId: string, name: string, args: unknown = {}) {
  const tool = w.registry.visible(sessionId).find((t) => t.name === name);
  if (!tool) throw new Error(`${name} is not visible`);
  return tool.run(args, { signal: signal(), sessionId, workspace: w.home, callId: "c1" });
}

describe("extension_define (EXT-1, EXT-2)", () => {
  it("refuses an unparseable half with its line and records nothing", async () => {
    const w = await world();
    const error = await rejection(w.ext.define(w.s1, { name: "broken", purpose: "p", host: "let a = 1;\nlet b = ;\n" }));
    expect(error.publicCode).toBe("syntax_error");
    expect(error.message).toMatch(/line 2/);
    const browser = await rejection(w.ext.define(w.s1, { name: "broken", purpose: "p", browser: "seam.root.textContent = 'x'\n}" }));
    expect(browser.message).toMatch(/browser half.*line 2/s);
    expect(await w.ext.packages(w.s1)).toEqual([]);
  });

  it("refuses a definition without any half", async () => {
    const w = await world();
    const error = await rejection(w.ext.define(w.s1, { name: "empty", purpose: "p", host: "  " }));
    expect(error.code).toBe("bad_input:extensions");
  });

  it("appends immutable versions and does not duplicate an unchanged definition", async () => {
    const w = await world();
    const v1 = await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    const same = await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    const v2 = await w.ext.define(w.s1, { name: "counter", purpose: "count", host: `${COUNTER_HOST}\n// v2` });
    expect([v1.version, same.version, v2.version]).toEqual([1, 1, 2]);
    expect(same.created).toBe(false);
    expect(v2.hash).not.toBe(v1.hash);
    const [entry] = await w.ext.packages(w.s1);
    const first = await w.ext.api.source({ packageId: entry!.pkg.id, version: 1 });
    expect(first.hostCode).toBe(COUNTER_HOST);
  });

  it("keeps another session's package absent", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    expect(await w.ext.packages(w.s2)).toEqual([]);
    expect((await rejection(w.ext.run(w.s2, { name: "counter" }, signal()))).publicCode).toBe("definition_missing");
    expect((await rejection(w.ext.stop(w.s2, "counter"))).publicCode).toBe("definition_missing");
    expect((await rejection(w.ext.undefine(w.s2, "counter"))).publicCode).toBe("definition_missing");
    // The page sees every session's packages.
    expect((await w.ext.api.snapshot()).packages.map((p) => [p.name, p.sessionTitle])).toEqual([["counter", "one"]]);
  });
});

describe("extension_run approvals (EXT-5)", () => {
  it("asks, and once allowed the host half's tools appear in its own session only", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "Counts clicks", host: COUNTER_HOST });
    const running = w.ext.run(w.s1, { name: "counter" }, signal());
    const request = await nextApproval(w);
    expect(request).toMatchObject({ packageName: "counter", version: 1, purpose: "Counts clicks", hostCode: COUNTER_HOST, previous: null, sessionTitle: "one" });
    expect(toolNames(w, w.s1)).not.toContain("counter_increment");
    await w.ext.api.answer({ id: request.id, decision: "allow" });
    const out = await running;
    expect(out).toMatchObject({ name: "counter", version: 1, state: "running", tools: ["counter_increment"], approvedBy: "user" });
    expect(toolNames(w, w.s1)).toContain("counter_increment");
    expect(toolNames(w, w.s2)).not.toContain("counter_increment");
    expect((await callTool(w, w.s1, "counter_increment")).canonical).toEqual({ n: 1 });
    expect((await w.ext.api.snapshot()).approvals).toEqual([]);
  });

  it("a denial refuses with `rejected`, and nothing runs", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    const running = w.ext.run(w.s1, { name: "counter" }, signal());
    await w.ext.api.answer({ id: (await nextApproval(w)).id, decision: "deny" });
    expect((await rejection(running)).publicCode).toBe("rejected");
    expect(toolNames(w, w.s1)).not.toContain("counter_increment");
    const snap = await w.ext.api.snapshot();
    expect(snap.runs[0]).toMatchObject({ state: "rejected" });
    expect(snap.packages[0]!.versions[0]!.decision).toMatchObject({ decision: "deny", by: "user" });
  });

  it("the first answer wins; a later one is told it was already answered", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    const running = w.ext.run(w.s1, { name: "counter" }, signal());
    const { id } = await nextApproval(w);
    await w.ext.api.answer({ id, decision: "allow" });
    const late = await rejection(w.ext.api.answer({ id, decision: "deny" }));
    expect(late).toMatchObject({ code: "conflict:extensions" });
    expect(late.publicCode).toBe("already_answered");
    expect((await running).state).toBe("running");
    expect((await rejection(w.ext.api.answer({ id: "nope", decision: "allow" }))).code).toBe("not_found:extensions");
  });

  it("waits until the turn is cancelled, then withdraws the request", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    const turn = new AbortController();
    const running = w.ext.run(w.s1, { name: "counter" }, turn.signal);
    const { id } = await nextApproval(w);
    turn.abort();
    expect((await rejection(running)).publicCode).toBe("cancelled");
    expect((await w.ext.api.snapshot()).approvals).toEqual([]);
    expect((await rejection(w.ext.api.answer({ id, decision: "allow" }))).publicCode).toBe("withdrawn");
    expect(toolNames(w, w.s1)).not.toContain("counter_increment");
  });

  it("'allow future versions' grants the package until revoked; the next version then asks with a diff base", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    expect((await runApproved(w, w.s1, "counter", true)).approvedBy).toBe("user");
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: `${COUNTER_HOST}// v2\n` });
    const v2 = await w.ext.run(w.s1, { name: "counter" }, signal());
    expect(v2).toMatchObject({ version: 2, approvedBy: "grant" });
    // v2 replaced v1: one counter_increment, from v2.
    expect(toolNames(w, w.s1).filter((n) => n === "counter_increment")).toHaveLength(1);
    const snap = await w.ext.api.snapshot();
    expect(snap.runs.filter((r) => r.state === "running").map((r) => r.version)).toEqual([2]);
    expect(snap.packages[0]!.grant).toMatchObject({ fromVersion: 1 });

    await w.ext.api.revokeGrant({ packageId: snap.packages[0]!.id });
    expect((await rejection(w.ext.api.revokeGrant({ packageId: snap.packages[0]!.id }))).publicCode).toBe("no_grant");
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: `${COUNTER_HOST}// v3\n` });
    const v3 = w.ext.run(w.s1, { name: "counter" }, signal());
    const request = await nextApproval(w);
    expect(request).toMatchObject({ version: 3, previous: { version: 2 } });
    await w.ext.api.answer({ id: request.id, decision: "deny" });
    expect((await rejection(v3)).publicCode).toBe("rejected");
  });

  it("runs a version the user already allowed again without asking", async () => {
    const w = await runningCounter();
    await w.ext.stop(w.s1, "counter");
    expect((await w.ext.run(w.s1, { name: "counter" }, signal())).approvedBy).toBe("earlier");
  });

  it("host-only runs ask by default and run without asking when the setting says so", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    await w.ext.define(w.s1, { name: "widget", purpose: "ui", host: COUNTER_HOST.replace("counter_increment", "widget_tool"), browser: COUNTER_BROWSER });
    expect((await w.ext.api.setSettings({ autoApproveHostOnly: true })).autoApproveHostOnly).toBe(true);
    expect((await w.ext.run(w.s1, { name: "counter" }, signal())).approvedBy).toBe("setting");
    const withBrowser = w.ext.run(w.s1, { name: "widget" }, signal());
    const request = await nextApproval(w);
    expect(request.packageName).toBe("widget");
    await w.ext.api.answer({ id: request.id, decision: "allow" });
    expect((await withBrowser).approvedBy).toBe("user");
  });
});

describe("runs, stop and undefine (EXT-1, EXT-3)", () => {
  it("stop disposes everything the host half registered; the definition stays runnable", async () => {
    const w = await runningCounter();
    expect(await w.ext.stop(w.s1, "counter")).toEqual({ name: "counter", version: 1, stopped: true });
    expect(toolNames(w, w.s1)).not.toContain("counter_increment");
    expect((await rejection(w.ext.stop(w.s1, "counter"))).publicCode).toBe("not_running");
    expect((await w.ext.run(w.s1, { name: "counter" }, signal())).state).toBe("running");
  });

  it("a host half that throws at the top level refuses with host_half_failed and leaves nothing behind", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "bad", purpose: "p", host: `api.tools.register({ name: "bad_tool" }, () => 1);\nthrow new Error("boom");` });
    const error = await rejection(runApproved(w, w.s1, "bad"));
    expect(error.publicCode).toBe("host_half_failed");
    expect(error.message).toMatch(/boom/);
    expect(toolNames(w, w.s1)).not.toContain("bad_tool");
    expect((await w.ext.api.snapshot()).runs[0]).toMatchObject({ state: "crashed" });
  });

  it("unknown versions are definition_missing", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    const error = await rejection(w.ext.run(w.s1, { name: "counter", version: 7 }, signal()));
    expect(error.publicCode).toBe("definition_missing");
    expect(error.message).toMatch(/no version 7/);
  });

  it("extension_stop and extension_undefine take only a name and show the model the service's answer", async () => {
    const w = await runningCounter();
    const tools = extensionTools(w.ext, w.registry);
    const tool = (name: string) => tools.find((t) => t.name === name)!;
    const call = (name: string) => tool(name).run({ name: "counter" }, { signal: signal(), sessionId: w.s1, workspace: w.home, callId: name });
    expect(tool("extension_stop")).toMatchObject({ capability: "extensions", effect: "extension" });
    expect(tool("extension_stop").parse({ name: "counter", version: 1 }).ok).toBe(false);
    expect(tool("extension_undefine").parse({ name: "counter" }).ok).toBe(true);
    expect(await call("extension_stop")).toEqual({ canonical: { name: "counter", version: 1, stopped: true }, rendered: "counter v1 stopped." });
    expect(await call("extension_undefine")).toEqual({ canonical: { name: "counter", versions: 1, stopped: false }, rendered: "counter and its 1 version(s) are forgotten." });
  });

  it("undefine stops the run and forgets every version", async () => {
    const w = await runningCounter();
    expect(await w.ext.undefine(w.s1, "counter")).toEqual({ name: "counter", versions: 1, stopped: true });
    expect(toolNames(w, w.s1)).not.toContain("counter_increment");
    expect(await w.ext.packages(w.s1)).toEqual([]);
    expect((await rejection(w.ext.run(w.s1, { name: "counter" }, signal()))).publicCode).toBe("definition_missing");
  });

  it("a deleted session's runs stop and its requests are withdrawn", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    await w.ext.define(w.s1, { name: "other", purpose: "count", host: COUNTER_HOST.replace("counter_increment", "other_tool") });
    await runApproved(w, w.s1, "counter");
    const waiting = rejection(w.ext.run(w.s1, { name: "other" }, signal()));
    await nextApproval(w);
    await w.ext.forgetSession(w.s1);
    expect((await waiting).publicCode).toBe("cancelled");
    expect(toolNames(w, w.s1)).not.toContain("counter_increment");
    expect((await w.ext.api.snapshot()).approvals).toEqual([]);
  });

  it("nothing runs again after a restart, but every package can be run", async () => {
    const first = await world();
    await first.ext.define(first.s1, { name: "counter", purpose: "count", host: COUNTER_HOST });
    await runApproved(first, first.s1, "counter");
    const home = first.home;
    // Restart: a new host over the same database.
    await first.scope.dispose();
    const again = await world(home);
    const snap = await again.ext.api.snapshot();
    expect(snap.runs).toEqual([]);
    expect(snap.packages.map((p) => p.name)).toEqual(["counter"]);
    expect(toolNames(again, again.s1)).not.toContain("counter_increment");
    expect((await again.ext.run(again.s1, { name: "counter" }, signal())).approvedBy).toBe("earlier");
    expect(toolNames(again, again.s1)).toContain("counter_increment");
  });
});

describe("the browser bridge (EXT-3, EXT-4)", () => {
  it("carries browser calls to api.handle and api.send messages to the page", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST, browser: COUNTER_BROWSER });
    const out = await runApproved(w, w.s1, "counter");
    expect(out.browser).toBe("pending"); // no page is watching
    const page = new AbortController();
    const messages = w.ext.api.bridge(page.signal, out.runId)[Symbol.asyncIterator]();
    const first = messages.next();
    expect(await w.ext.api.call({ runId: out.runId, method: "increment", params: null })).toEqual({ n: 1 });
    expect((await first).value).toEqual({ runId: out.runId, message: { n: 1 } });
    // The model's tool call reaches the page too (host → browser).
    await callTool(w, w.s1, "counter_increment");
    expect((await messages.next()).value).toEqual({ runId: out.runId, message: { n: 2 } });
    expect((await rejection(w.ext.api.call({ runId: out.runId, method: "missing", params: null }))).code).toBe("not_found:extensions");
    page.abort();
    await w.ext.stop(w.s1, "counter");
    expect((await rejection(w.ext.api.call({ runId: out.runId, method: "get", params: null }))).publicCode).toBe("not_running");
  });

  it("ends the bridge when the run ends", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST, browser: COUNTER_BROWSER });
    const out = await runApproved(w, w.s1, "counter");
    const messages = w.ext.api.bridge(signal(), out.runId)[Symbol.asyncIterator]();
    const pending = messages.next();
    await w.ext.stop(w.s1, "counter");
    expect((await pending).done).toBe(true);
  });

  it("one stream carries every run's messages, tagged with the run, and outlives the runs", async () => {
    const w = await world();
    await w.ext.api.setSettings({ autoApproveHostOnly: true });
    await w.ext.define(w.s1, { name: "a", purpose: "p", host: COUNTER_HOST.replace("counter_increment", "a_inc") });
    await w.ext.define(w.s2, { name: "b", purpose: "p", host: COUNTER_HOST.replace("counter_increment", "b_inc") });
    const a = await w.ext.run(w.s1, { name: "a" }, signal());
    const b = await w.ext.run(w.s2, { name: "b" }, signal());
    const page = new AbortController();
    const all = w.ext.api.bridge(page.signal)[Symbol.asyncIterator]();
    const first = all.next();
    await callTool(w, w.s1, "a_inc");
    expect((await first).value).toEqual({ runId: a.runId, message: { n: 1 } });
    await w.ext.stop(w.s1, "a");
    const second = all.next();
    await callTool(w, w.s2, "b_inc");
    expect((await second).value).toEqual({ runId: b.runId, message: { n: 1 } });
    const ended = all.next();
    page.abort();
    expect((await ended).done).toBe(true);
  });

  it("a render failure reported while the run waits refuses with browser_half_failed", async () => {
    const w = await world();
    await w.ext.define(w.s1, { name: "counter", purpose: "count", host: COUNTER_HOST, browser: COUNTER_BROWSER });
    // A page is open: it watches the snapshots and reports the render.
    const page = new AbortController();
    const snapshots = w.ext.api.events(page.signal)[Symbol.asyncIterator]();
    await snapshots.next();
    const running = w.ext.run(w.s1, { name: "counter" }, signal());
    await w.ext.api.answer({ id: (await nextApproval(w)).id, decision: "allow" });
    let runId: string | undefined;
    for (let i = 0; i < 100 && !runId; i++) {
      runId = (await w.ext.api.snapshot()).runs.find((r) => r.state === "running")?.runId;
      if (!runId) await new Promise((r) => setTimeout(r, 10));
    }
    await w.ext.api.reportBrowser({ runId: runId!, ok: false, message: "ReferenceError: nope is not defined (line 1)" });
    const error = await rejection(running);
    expect(error.publicCode).toBe("browser_half_failed");
    expect(error.message).toMatch(/nope is not defined/);
    expect(toolNames(w, w.s1)).not.toContain("counter_increment");
    const run = (await w.ext.api.snapshot()).runs[0]!;
    expect(run).toMatchObject({ state: "crashed", browser: "failed" });
    // extension_inspect shows the model the render failure (EXT-4).
    const inspect = extensionTools(w.ext, w.registry).find((t) => t.name === "extension_inspect")!;
    const seen = await inspect.run({}, { signal: signal(), sessionId: w.s1, workspace: w.home, callId: "i1" });
    expect(seen.rendered).toContain("nope is not defined");
    page.abort();
  });
});

describe("the web service of host halves (EXT-3)", () => {
  const PROBE = `api.tools.register({ name: "probe" }, async (args) => {
    try { return { ok: true, result: await api.web[args.kind](args.target) }; }
    catch (e) { return { ok: false, error: String(e.message) }; }
  });`;

  it("searches through the session's web seam and is refused private addresses by the SSRF guard", async () => {
    const w = await world();
    const exa = await loopback((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ results: [{ url: "https://rust-lang.org/", title: "Rust", highlights: ["A language"] }] }));
    });
    let privateHits = 0;
    const internal = await loopback((_req, res) => { privateHits++; res.end("secret"); });
    cleanups.push(async () => { await exa.close(); await internal.close(); });
    const seam = await createWebSeam(w.scope.child("web"), {
      store: memoryStore({ web: { providers: { exa: { baseURL: exa.url } } } }).store,
      secrets: secretsOf({ EXA_API_KEY: "sk-test-extension" }),
      registry: w.registry,
      env: {},
    });
    expect(seam).toBeDefined();
    await w.ext.api.setSettings({ autoApproveHostOnly: true });
    await w.ext.define(w.s1, { name: "webby", purpose: "reads the web", host: PROBE });
    await w.ext.run(w.s1, { name: "webby" }, signal());

    const found = (await callTool(w, w.s1, "probe", { kind: "search", target: "rust" })).canonical as { ok: boolean; result: { sources: { url: string }[] } };
    expect(found.ok).toBe(true);
    expect(found.result.sources.map((s) => s.url)).toContain("https://rust-lang.org/");

    const blocked = (await callTool(w, w.s1, "probe", { kind: "fetch", target: `${internal.url}/admin` })).canonical as { ok: boolean; error: string };
    expect(blocked.ok).toBe(false);
    expect(blocked.error).toMatch(/web.fetch failed/);
    expect(privateHits).toBe(0);
  });

  it("says so when the web seam is not there", async () => {
    const w = await world();
    await w.ext.api.setSettings({ autoApproveHostOnly: true });
    await w.ext.define(w.s1, { name: "webby", purpose: "reads the web", host: PROBE });
    await w.ext.run(w.s1, { name: "webby" }, signal());
    const out = (await callTool(w, w.s1, "probe", { kind: "fetch", target: "https://example.com/" })).canonical as { ok: boolean; error: string };
    expect(out).toMatchObject({ ok: false });
    expect(out.error).toMatch(/web_fetch is not available/);
  });
});

describe("events between extensions of a session (EXT-3)", () => {
  it("delivers api.events.emit to the other extensions of the same session only, plus host start events", async () => {
    const w = await world();
    await w.ext.api.setSettings({ autoApproveHostOnly: true });
    const listener = `const seen = [];
      api.events.on("ping", (p) => seen.push(p));
      api.events.on("extension.started", (p) => seen.push("started " + p.name));
      api.tools.register({ name: "NAME_seen" }, () => seen);`;
    await w.ext.define(w.s1, { name: "listener", purpose: "p", host: listener.replace("NAME", "s1") });
    await w.ext.define(w.s2, { name: "listener", purpose: "p", host: listener.replace("NAME", "s2") });
    await w.ext.define(w.s1, { name: "pinger", purpose: "p", host: `api.tools.register({ name: "ping" }, () => { api.events.emit("ping", { n: 1 }); return "sent"; });` });
    await w.ext.run(w.s1, { name: "listener" }, signal());
    await w.ext.run(w.s2, { name: "listener" }, signal());
    await w.ext.run(w.s1, { name: "pinger" }, signal());
    await callTool(w, w.s1, "ping");
    await expect.poll(async () => (await callTool(w, w.s1, "s1_seen")).canonical).toEqual(["started pinger", { n: 1 }]);
    expect((await callTool(w, w.s2, "s2_seen")).canonical).toEqual([]);
  });
});

describe("services between extensions of a session (EXT-3)", () => {
  const PROVIDER = `let total = 0;
    api.services.provide("tally", { add: (args) => { total += args.n; return { total }; }, fail: () => { throw new Error("tally refuses"); } });`;
  const CONSUMER = (tool: string) => `api.tools.register({ name: "${tool}" }, async (args) => {
    try { return { ok: true, value: await api.services.call(args.service, args.method, args.args) }; }
    catch (e) { return { ok: false, error: String(e.message) }; }
  });`;

  it("routes api.services.call to the extension that provides it, in the same session only", async () => {
    const w = await world();
    await w.ext.api.setSettings({ autoApproveHostOnly: true });
    await w.ext.define(w.s1, { name: "tally", purpose: "p", host: PROVIDER });
    await w.ext.define(w.s1, { name: "user", purpose: "p", host: CONSUMER("use_s1") });
    await w.ext.define(w.s2, { name: "user", purpose: "p", host: CONSUMER("use_s2") });
    await w.ext.run(w.s1, { name: "tally" }, signal());
    await w.ext.run(w.s1, { name: "user" }, signal());
    await w.ext.run(w.s2, { name: "user" }, signal());
    expect(w.ext.services(w.s1)).toEqual([
      { name: "web", provider: "host", methods: ["fetch", "search"] },
      { name: "tally", provider: "tally", methods: ["add", "fail"] },
    ]);
    expect(w.ext.services(w.s2).map((s) => s.name)).toEqual(["web"]);

    const call = async (tool: string, sessionId: string, method: string, args: unknown = {}) =>
      (await callTool(w, sessionId, tool, { service: "tally", method, args })).canonical as { ok: boolean; value?: unknown; error?: string };
    expect(await call("use_s1", w.s1, "add", { n: 2 })).toEqual({ ok: true, value: { total: 2 } });
    expect(await call("use_s1", w.s1, "add", { n: 3 })).toEqual({ ok: true, value: { total: 5 } });
    expect((await call("use_s1", w.s1, "fail")).error).toMatch(/tally refuses/);
    expect((await call("use_s1", w.s1, "nope")).error).toMatch(/has no method "nope"/);
    expect((await call("use_s2", w.s2, "add", { n: 1 })).error).toMatch(/No extension running in this session provides "tally"/);

    await w.ext.stop(w.s1, "tally");
    expect((await call("use_s1", w.s1, "add", { n: 1 })).error).toMatch(/provides "tally"/);
    expect(w.ext.services(w.s1).map((s) => s.name)).toEqual(["web"]);
  });

  it("refuses a service name that is invalid or the host's, and keeps running", async () => {
    const w = await world();
    await w.ext.api.setSettings({ autoApproveHostOnly: true });
    await w.ext.define(w.s1, { name: "odd", purpose: "p", host: `
      api.tools.register({ name: "odd_results" }, () => [api.services.provide("web", { f: () => 1 }), api.services.provide("9bad", { f: () => 1 })]);` });
    await w.ext.run(w.s1, { name: "odd" }, signal());
    expect((await callTool(w, w.s1, "odd_results")).canonical).toEqual([null, null]);
    expect((await w.ext.api.snapshot()).runs[0]!.logs.join("\n")).toMatch(/refused service "web"/);
  });
});

describe("the page's live view (EXT-6)", () => {
  it("a new log line reaches the page's snapshot stream within the refresh tick", async () => {
    const w = await world();
    await w.ext.api.setSettings({ autoApproveHostOnly: true });
    await w.ext.define(w.s1, { name: "chatty", purpose: "p", host: `api.tools.register({ name: "say" }, (a) => { api.log("said", a.text); return "ok"; });` });
    await w.ext.run(w.s1, { name: "chatty" }, signal());
    const page = new AbortController();
    const stream = w.ext.api.events(page.signal)[Symbol.asyncIterator]();
    await stream.next();
    await callTool(w, w.s1, "say", { text: "hello page" });
    let logs: string[] = [];
    for (let i = 0; i < 10 && !logs.includes("said hello page"); i++) logs = (await stream.next()).value!.runs[0]!.logs;
    expect(logs).toContain("said hello page");
    page.abort();
  });
});
