import { McpServerConfig, type McpServerView } from "@seam/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import type { McpHub } from "../../src/mcp/hub.js";
import { createMcpService, type McpService } from "../../src/mcp/service.js";
import { createMcpStore } from "../../src/mcp/store.js";
import { openDatabase, type Database } from "../../src/persistence/db.js";
import { tmpDir } from "../persistence/tmp.js";
import { testDbUrl } from "../support/db-url.js";

/**
 * A hub double with the real hub's contract: `command: "fail"` cannot connect (with
 * failOnStartupError the start rejects and nothing stays registered), `command: "slow"` connects
 * when the test calls `release()`.
 */
function fakeHub() {
  const views = new Map<string, McpServerView>();
  const listeners = new Set<(name: string) => void>();
  const calls: string[] = [];
  const gates: (() => void)[] = [];
  const notify = (name: string) => { for (const fn of [...listeners]) fn(name); };
  const view = (config: McpServerConfig, status: McpServerView["status"]): McpServerView => ({
    config, status, generation: status.state === "ready" ? 1 : 0,
    tools: status.state === "ready" ? [{ publicName: `mcp__${config.name}__echo`, rawName: "echo", description: "Echo", inputSchema: { type: "object" }, outputSchema: null, enabled: true, approval: "auto", readOnly: true }] : [],
    toolsRegistered: status.state === "ready", instructions: null, stderrTail: "", serverInfo: null,
  });
  const command = (c: McpServerConfig) => (c.transport.type === "stdio" ? c.transport.command : c.transport.url);
  const hub: McpHub & { calls: string[]; release(): void; emit(name: string): void; listenerCount(): number } = {
    calls,
    async start(input) {
      const config = McpServerConfig.parse(input);
      calls.push(`start ${config.name}`);
      if (views.has(config.name)) throw new HostError("conflict:mcp", `"${config.name}" is already running`);
      if (!config.enabled) {
        views.set(config.name, view(config, { state: "disabled" }));
        return notify(config.name);
      }
      views.set(config.name, view(config, { state: "connecting", phase: "connecting" }));
      notify(config.name);
      if (command(config) === "slow") await new Promise<void>((r) => gates.push(r));
      if (command(config) === "fail") {
        if (config.failOnStartupError) {
          views.delete(config.name);
          notify(config.name);
          throw new HostError("unavailable:mcp", `"${config.name}" could not connect: spawn fail ENOENT`);
        }
        views.set(config.name, view(config, { state: "retrying", attempt: 1, maxAttempts: 10, nextRetryAt: new Date().toISOString(), lastError: "spawn fail ENOENT" }));
        return notify(config.name);
      }
      views.set(config.name, view(config, { state: "ready", since: new Date().toISOString() }));
      notify(config.name);
    },
    async stop(name) {
      calls.push(`stop ${name}`);
      if (views.delete(name)) notify(name);
    },
    async restart(name) {
      calls.push(`restart ${name}`);
      const v = views.get(name);
      if (v) notify(name);
    },
    async setPolicy(config) {
      calls.push(`policy ${config.name}`);
      const v = views.get(config.name);
      if (v) views.set(config.name, { ...v, config });
      notify(config.name);
    },
    list: () => [...views.values()],
    get: (name) => views.get(name),
    onChange(fn) {
      listeners.add(fn);
      return () => { listeners.delete(fn); };
    },
    live: (name) => { throw new HostError("unavailable:mcp", `"${name}" has no live connection in the fake hub`); },
    release: () => { for (const g of gates.splice(0)) g(); },
    emit: notify,
    listenerCount: () => listeners.size,
  };
  return hub;
}

const stdio = (name: string, command = "node", extra: Partial<McpServerConfig> = {}) => ({ name, transport: { type: "stdio" as const, command, args: ["server.js"] }, ...extra });
const code = (expected: string) => (e: unknown) => e instanceof HostError && e.code === expected;

let dir: ReturnType<typeof tmpDir>;
let scope: Scope;
let db: Database;
let hub: ReturnType<typeof fakeHub>;
let mcp: McpService;

const rows = () => db.exclusive((p) => p.mcpServer.findMany({ orderBy: { name: "asc" } }));
const open = async () => {
  const s = scope.child(`mcp-${Math.random()}`);
  hub = fakeHub();
  mcp = await createMcpService(s, { hub, db, throttleMs: 40, log: () => {} });
  return s;
};

beforeEach(async () => {
  dir = tmpDir("seam-mcp-");
  scope = createScope("test");
  db = await openDatabase(scope.child("db"), { home: dir.path, url: testDbUrl(`${dir.path}/mcp.db`) });
  await open();
});
afterEach(async () => {
  await scope.dispose();
  await dir[Symbol.asyncDispose]();
});

describe("McpService: add, update, remove (MCP-10)", () => {
  it("saves, then starts; the view joins the saved config with the live state", async () => {
    const view = await mcp.add(stdio("everything"));
    expect(view.status.state).toBe("ready");
    expect(view.tools.map((t) => t.publicName)).toEqual(["mcp__everything__echo"]);
    expect(view.config).toMatchObject({ name: "everything", enabled: true, startupTimeoutMs: 30_000 });
    expect(mcp.list().map((v) => [v.config.name, v.status.state])).toEqual([["everything", "ready"]]);
    const [row] = await rows();
    expect(row).toMatchObject({ name: "everything", enabled: true });
    expect(JSON.parse(row!.configJson)).toEqual(view.config);
  });

  it("refuses invalid input with field paths and saves nothing (SEC-5)", async () => {
    const err = await mcp.add({ name: "x y", transport: { type: "stdio", command: " ", args: [] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostError);
    expect((err as HostError).code).toBe("bad_input:mcp");
    expect((err as HostError).message).toMatch(/^Invalid MCP server config: name: Use 1–48 letters.*transport\.command: Command is required/);
    expect((err as HostError).data?.issues).toEqual(expect.arrayContaining([{ path: "transport.command", message: "Command is required" }]));
    await expect(mcp.add({ name: "s", transport: { type: "stdio", command: "x", env: { API_KEY: { value: "hunter2" } } } }))
      .rejects.toSatisfy(code("bad_input:mcp"));
    await expect(mcp.add({ name: "h", transport: { type: "http", url: "not a url" } })).rejects.toSatisfy(code("bad_input:mcp"));
    expect(await rows()).toEqual([]);
    expect(hub.calls).toEqual([]);
  });

  it("refuses a duplicate name with conflict:mcp", async () => {
    await mcp.add(stdio("a"));
    await expect(mcp.add(stdio("a", "other"))).rejects.toSatisfy(code("conflict:mcp"));
    expect((await rows()).map((r) => JSON.parse(r.configJson).transport.command)).toEqual(["node"]);
  });

  it("rolls the save back when a failOnStartupError server cannot start", async () => {
    await expect(mcp.add(stdio("broken", "fail", { failOnStartupError: true }))).rejects.toThrow(/could not connect/);
    expect(await rows()).toEqual([]);
    expect(mcp.list()).toEqual([]);
    expect(hub.list()).toEqual([]);
  });

  it("keeps a server that fails without failOnStartupError, showing it retrying", async () => {
    const view = await mcp.add(stdio("flaky", "fail"));
    expect(view.status).toMatchObject({ state: "retrying", attempt: 1, maxAttempts: 10, lastError: "spawn fail ENOENT" });
    expect(await rows()).toHaveLength(1);
  });

  it("updates: stop, save, start; an unchanged config is a no-op", async () => {
    await mcp.add(stdio("a"));
    hub.calls.length = 0;
    await mcp.update("a", stdio("a"));
    expect(hub.calls).toEqual([]);
    const view = await mcp.update("a", { ...stdio("a"), callTimeoutMs: 5_000 });
    expect(view.config.callTimeoutMs).toBe(5_000);
    expect(hub.calls).toEqual(["stop a", "start a"]);
    expect(JSON.parse((await rows())[0]!.configJson).callTimeoutMs).toBe(5_000);
  });

  it("a policy change (tools, approvals) is saved and applied without restarting (MCP-8)", async () => {
    await mcp.add(stdio("a"));
    hub.calls.length = 0;
    const off = await mcp.setTool({ name: "a", tool: "echo", enabled: false, approval: "ask" });
    expect(off.config).toMatchObject({ disabledTools: ["echo"], toolApproval: { echo: "ask" } });
    const asking = await mcp.setApproval("a", "ask");
    expect(asking.config.approval).toBe("ask");
    await mcp.update("a", { ...asking.config, enabledTools: ["echo", "other"] });
    expect(hub.calls).toEqual(["policy a", "policy a", "policy a"]);
    expect(JSON.parse((await rows())[0]!.configJson)).toMatchObject({ disabledTools: ["echo"], approval: "ask", enabledTools: ["echo", "other"] });
    await expect(mcp.setTool({ name: "ghost", tool: "echo", enabled: true })).rejects.toMatchObject({ kind: "not_found" });
  });

  it("an update whose start fails restores and restarts the previous config", async () => {
    await mcp.add(stdio("a"));
    await expect(mcp.update("a", stdio("a", "fail", { failOnStartupError: true }))).rejects.toSatisfy(code("unavailable:mcp"));
    expect(JSON.parse((await rows())[0]!.configJson).transport.command).toBe("node");
    expect(mcp.list()[0]).toMatchObject({ config: { transport: { command: "node" } }, status: { state: "ready" } });
  });

  it("renames atomically, refusing a name that is taken", async () => {
    await mcp.add(stdio("a"));
    await mcp.add(stdio("b"));
    await expect(mcp.update("a", stdio("b"))).rejects.toSatisfy(code("conflict:mcp"));
    await mcp.update("a", stdio("c"));
    expect((await rows()).map((r) => r.name)).toEqual(["b", "c"]);
    expect(hub.list().map((v) => v.config.name).sort()).toEqual(["b", "c"]);
    await expect(mcp.update("a", stdio("a"))).rejects.toSatisfy(code("not_found:mcp"));
  });

  it("removes from the database and the hub; unknown names are not_found:mcp", async () => {
    await mcp.add(stdio("a"));
    await mcp.remove("a");
    expect(await rows()).toEqual([]);
    expect(hub.list()).toEqual([]);
    await expect(mcp.remove("a")).rejects.toSatisfy(code("not_found:mcp"));
    await expect(mcp.restart("a")).rejects.toSatisfy(code("not_found:mcp"));
    await expect(mcp.setEnabled("a", true)).rejects.toSatisfy(code("not_found:mcp"));
  });

  it("disables and enables; a disabled server cannot be restarted", async () => {
    await mcp.add(stdio("a"));
    const off = await mcp.setEnabled("a", false);
    expect(off.status.state).toBe("disabled");
    expect((await rows())[0]).toMatchObject({ enabled: false });
    await expect(mcp.restart("a")).rejects.toSatisfy(code("bad_input:mcp"));
    expect((await mcp.setEnabled("a", true)).status.state).toBe("ready");
    hub.calls.length = 0;
    await mcp.restart("a");
    expect(hub.calls).toEqual(["restart a"]);
  });

  it("serialises concurrent changes to one name", async () => {
    const results = await Promise.allSettled([mcp.add(stdio("a")), mcp.add(stdio("a", "x")), mcp.remove("a"), mcp.add(stdio("a", "y"))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect((await rows()).map((r) => JSON.parse(r.configJson).transport.command)).toEqual(["y"]);
  });
});

describe("McpService: host start", () => {
  it("starts saved servers in the background and shows their state meanwhile", async () => {
    const store = createMcpStore(db);
    await store.create(McpServerConfig.parse(stdio("slow", "slow")));
    await store.create(McpServerConfig.parse(stdio("dead", "fail", { failOnStartupError: true })));
    await store.create(McpServerConfig.parse(stdio("off", "node", { enabled: false })));
    await open();
    expect(mcp.list().map((v) => [v.config.name, v.status.state])).toEqual([["dead", "connecting"], ["off", "disabled"], ["slow", "connecting"]]);
    hub.release();
    await mcp.settled();
    expect(mcp.list().map((v) => [v.config.name, v.status.state])).toEqual([["dead", "failed"], ["off", "disabled"], ["slow", "ready"]]);
    expect(mcp.list()[0]!.status).toMatchObject({ error: expect.stringContaining("could not connect") });
    // A manual restart retries a server the hub forgot.
    await expect(mcp.restart("dead")).rejects.toThrow(/could not connect/);
    expect(hub.calls.filter((c) => c === "start dead")).toHaveLength(2);
    expect(mcp.list()[0]!.status.state).toBe("failed");
  });

  it("skips unreadable rows instead of failing the host", async () => {
    await db.exclusive((p) => p.mcpServer.create({ data: { name: "junk", enabled: true, configJson: "{not json" } }));
    const problems: string[] = [];
    const s = scope.child("x");
    expect(await createMcpStore(db, { onCorrupt: (n, p) => problems.push(`${n}: ${p}`) }).list()).toEqual([]);
    expect(problems).toHaveLength(1);
    await createMcpService(s, { hub: fakeHub(), db, log: () => {} });
  });
});

describe("McpService: events", () => {
  it("sends a snapshot now, then one per burst of changes, and ends on abort", async () => {
    await mcp.add(stdio("a"));
    const ac = new AbortController();
    const it = mcp.events(ac.signal)[Symbol.asyncIterator]();
    const first = await it.next();
    expect((first.value as McpServerView[]).map((v) => v.config.name)).toEqual(["a"]);
    for (let i = 0; i < 20; i++) hub.emit("a");
    const second = await it.next();
    expect(second.done).toBe(false);
    // The burst was coalesced: nothing else is pending.
    const third = it.next();
    const raced = await Promise.race([third.then(() => "snapshot"), new Promise((r) => setTimeout(() => r("quiet"), 200))]);
    expect(raced).toBe("quiet");
    ac.abort();
    expect(await third).toEqual({ done: true, value: undefined });
  });

  it("pushes service-side changes (add, remove) too, and ends when the service is disposed", async () => {
    const s = await open();
    const it = mcp.events(new AbortController().signal)[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual([]);
    await mcp.add(stdio("b"));
    expect(((await it.next()).value as McpServerView[]).map((v) => [v.config.name, v.status.state])).toEqual([["b", "ready"]]);
    const pending = it.next();
    await s.dispose();
    expect(await pending).toMatchObject({ done: true });
    expect(hub.listenerCount()).toBe(0);
  });
});

describe("McpService: import and export (SEC-2)", () => {
  const pasted = JSON.stringify({
    mcpServers: {
      github: { command: "npx", args: ["-y", "server-github"], env: { GITHUB_TOKEN: "ghp_neverStoreThis42", MODE: "ro" } },
      remote: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer s3cr3t-bearer-value", "X-Api-Key": "apikey-777" } },
      old: { type: "sse", url: "http://127.0.0.1:9/sse" },
    },
  });

  it("previews, applies the selection, never stores a pasted secret", async () => {
    const preview = await mcp.importPreview(pasted);
    expect(preview.entries.map((e) => [e.name, e.action])).toEqual([["github", "add"], ["remote", "add"], ["old", "invalid"]]);
    expect(preview.entries[0]!.warnings).toEqual(["GITHUB_TOKEN will be read from the host environment; the pasted value is not stored."]);
    expect(await rows()).toEqual([]);

    const result = await mcp.importApply(pasted, ["github", "old", "nope"]);
    expect(result).toEqual({
      applied: [{ name: "github", action: "add" }],
      skipped: [{ name: "nope", reason: "not in the pasted document" }, { name: "old", reason: "invalid" }],
      failed: [],
    });
    await mcp.importApply(pasted);
    expect((await rows()).map((r) => r.name)).toEqual(["github", "remote"]);
    const dump = JSON.stringify(await rows());
    for (const secret of ["ghp_neverStoreThis42", "s3cr3t-bearer-value", "apikey-777"]) expect(dump).not.toContain(secret);
    expect(JSON.parse((await rows())[1]!.configJson).transport).toMatchObject({ bearerTokenEnv: "REMOTE_TOKEN", headers: { "X-Api-Key": { fromEnv: "X_API_KEY" } } });
    expect((await mcp.importPreview(pasted)).entries.map((e) => e.action)).toEqual(["unchanged", "unchanged", "invalid"]);
  });

  it("reports entries the host refused and saves nothing of them", async () => {
    const doc = JSON.stringify({ mcpServers: { good: { command: "node" }, bad: { command: "fail", seam: { failOnStartupError: true } } } });
    const result = await mcp.importApply(doc);
    expect(result.applied).toEqual([{ name: "good", action: "add" }]);
    expect(result.failed).toEqual([{ name: "bad", message: expect.stringContaining("could not connect") }]);
    expect((await rows()).map((r) => r.name)).toEqual(["good"]);
  });

  it("malformed JSON is bad_input:mcp with the position", async () => {
    await expect(mcp.importPreview('{"mcpServers": {\n  "a": {"command": "x"\n}')).rejects.toThrow("Not valid JSON: Unexpected end of input: missing '}' at line 3, column 2.");
    await expect(mcp.importApply("nope")).rejects.toSatisfy(code("bad_input:mcp"));
  });

  it("export → import is unchanged", async () => {
    await mcp.importApply(pasted);
    await mcp.setEnabled("github", false);
    const out = await mcp.exportJson();
    expect(out.json).toContain('"GITHUB_TOKEN": "${GITHUB_TOKEN}"');
    expect(out.json).toContain('"Authorization": "Bearer ${REMOTE_TOKEN}"');
    expect((await mcp.importPreview(out.json)).entries.map((e) => [e.name, e.action])).toEqual([["github", "unchanged"], ["remote", "unchanged"]]);
  });
});

describe("McpService: saving tries first (MCP-10)", () => {
  /** A prober double: `command: "nope"` fails at the start, anything else answers with one tool. */
  const tried: string[] = [];
  const probe = async (config: McpServerConfig, onStep?: (step: "starting" | "initializing" | "listing_tools") => void) => {
    const command = config.transport.type === "stdio" ? config.transport.command : config.transport.url;
    tried.push(`${config.name}:${command}`);
    onStep?.("initializing");
    if (command === "nope") {
      const probe = { step: "starting", reason: "command_not_found", message: "The command 'nope' was not found (ENOENT). Check the path, or install it.", stderrTail: "" };
      throw new HostError("unavailable:mcp", probe.message, { reason: probe.reason, step: probe.step, probe });
    }
    return { serverInfo: { name: "double", version: "1" }, protocolVersion: "2025-11-25", toolCount: 1 };
  };
  const openTrying = async () => {
    tried.length = 0;
    hub = fakeHub();
    mcp = await createMcpService(scope.child(`mcp-try-${Math.random()}`), { hub, db, throttleMs: 40, log: () => {}, probe });
  };
  beforeEach(openTrying);

  it("a failed try saves and starts nothing; force saves without trying", async () => {
    await expect(mcp.add(stdio("a", "nope"), { probeId: "try-a-0001" })).rejects.toThrow("The command 'nope' was not found (ENOENT)");
    expect(await rows()).toEqual([]);
    expect(hub.calls).toEqual([]);
    expect(mcp.probeStatus("try-a-0001")).toMatchObject({ state: "failed", step: "initializing", failure: { reason: "command_not_found" } });
    const forced = await mcp.add(stdio("a", "nope"), { force: true });
    expect(forced.probe).toBeNull();
    expect(tried).toEqual(["a:nope"]);
    expect((await rows()).map((r) => r.name)).toEqual(["a"]);
  });

  it("a good try: saved, started, and the answer carries what it saw", async () => {
    const saved = await mcp.add(stdio("a"), { probeId: "try-a-0002" });
    expect(saved.probe).toEqual({ serverInfo: { name: "double", version: "1" }, protocolVersion: "2025-11-25", toolCount: 1 });
    expect(mcp.probeStatus("try-a-0002")).toMatchObject({ state: "succeeded", seen: { toolCount: 1 } });
    expect(hub.calls).toEqual(["start a"]);
  });

  it("a conflict is refused before anything is tried; a disabled server is not tried", async () => {
    await mcp.add(stdio("a"));
    tried.length = 0;
    await expect(mcp.add(stdio("a", "nope"))).rejects.toSatisfy(code("conflict:mcp"));
    await mcp.add(stdio("off", "nope", { enabled: false }));
    expect(tried).toEqual([]);
  });

  it("update: tried only when the transport changed (or a disabled server is enabled); a failure keeps the old config running", async () => {
    await mcp.add(stdio("a"));
    tried.length = 0;
    await mcp.update("a", { ...stdio("a"), callTimeoutMs: 5_000, disabledTools: ["x"] });
    expect(tried).toEqual([]);
    hub.calls.length = 0;
    await expect(mcp.update("a", stdio("a", "nope"))).rejects.toThrow(/ENOENT/);
    expect(hub.calls).toEqual([]);
    expect(JSON.parse((await rows())[0]!.configJson).transport.command).toBe("node");
    await mcp.update("a", { ...stdio("a"), enabled: false });
    tried.length = 0;
    await mcp.update("a", stdio("a"));
    expect(tried).toEqual(["a:node"]);
  });

  it("import: each new server tried; a failure is listed with the try, and saved when forced", async () => {
    const doc = JSON.stringify({ mcpServers: { good: { command: "node" }, bad: { command: "nope" } } });
    const result = await mcp.importApply(doc);
    expect(result.applied).toEqual([{ name: "good", action: "add" }]);
    expect(result.failed).toEqual([{ name: "bad", message: expect.stringContaining("ENOENT"), probe: expect.objectContaining({ reason: "command_not_found", step: "starting" }) }]);
    expect((await rows()).map((r) => r.name)).toEqual(["good"]);
    const forced = await mcp.importApply(doc, ["bad"], ["bad"]);
    expect(forced).toEqual({ applied: [{ name: "bad", action: "add" }], skipped: [], failed: [] });
    expect((await rows()).map((r) => r.name)).toEqual(["bad", "good"]);
  });
});
