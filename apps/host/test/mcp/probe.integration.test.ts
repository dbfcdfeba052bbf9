import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpServerConfig, type McpProbeFailure, type McpServerConfigInput } from "@seam/shared";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createHost } from "../../src/host.js";
import type { HostApi } from "../../src/host-api.js";
import { createProber, type Prober } from "../../src/mcp/probe.js";
import { appRouter } from "../../src/trpc/root.js";
import { everythingStdio, freePort, HOST_DIR, isRunning, recordingTransport } from "./helpers.js";

/** Trying a server before saving it (MCP-10): the prober alone, then through the real host. */

const stdio = (name: string, command: string, args: string[] = [], extra: Partial<McpServerConfigInput> = {}) =>
  McpServerConfig.parse({ name, transport: { type: "stdio", command, args }, ...extra });
const http = (name: string, url: string) => McpServerConfig.parse({ name, transport: { type: "http", url }, startupTimeoutMs: 5_000 });
const failureOf = async (p: Promise<unknown>): Promise<McpProbeFailure & { error: HostError }> => {
  const error = await p.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(HostError);
  const e = error as HostError;
  expect(e.code).toBe("unavailable:mcp");
  return { ...(e.data?.probe as McpProbeFailure), error: e };
};

let scope: Scope;
let prober: Prober;
let recorded: ReturnType<typeof recordingTransport>;
const pids = () => recorded.handles.map((h) => h.pid()).filter((p): p is number => p !== undefined);

beforeEach(() => {
  scope = createScope("probe-test");
  recorded = recordingTransport();
  prober = createProber(scope, { makeTransport: recorded.transport });
});
afterEach(async () => {
  await scope.dispose();
});

describe("the prober: spawn or connect, initialize, list tools, then close", () => {
  it("sees server-everything's name, protocol version and tools, in steps, and leaves no process behind", async () => {
    const steps: string[] = [];
    const seen = await prober(McpServerConfig.parse(everythingStdio("good")), (s) => steps.push(s));
    expect(seen.toolCount).toBeGreaterThan(5);
    expect(seen.serverInfo?.name).toMatch(/everything/i);
    expect(seen.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(steps).toEqual(["starting", "initializing", "listing_tools"]);
    expect(pids()).toHaveLength(1);
    expect(isRunning(pids()[0]!)).toBe(false);
  });

  it("a missing executable: not found (ENOENT), at the start, nothing spawned", async () => {
    const missing = join(HOST_DIR, "no-such-binary");
    const f = await failureOf(prober(stdio("missing", missing)));
    expect(f).toMatchObject({ step: "starting", reason: "command_not_found" });
    expect(f.message).toBe(`The command '${missing}' was not found (ENOENT). Check the path, or install it.`);
    expect(f.error.data?.reason).toBe("command_not_found");
    expect(pids()).toEqual([]);
  });

  it("a command that exits at once: its exit code, the step, and its stderr tail", async () => {
    const f = await failureOf(prober(stdio("exits", process.execPath, ["-e", "console.error('boom: unknown flag --wat'); process.exit(3)"])));
    expect(f).toMatchObject({ reason: "exited", step: "initializing" });
    expect(f.message).toMatch(/^The server exited with code 3 while initializing\. Its stderr is below\./);
    expect(f.stderrTail).toContain("boom: unknown flag --wat");
    expect(pids()).toHaveLength(1);
    expect(isRunning(pids()[0]!)).toBe(false);
  });

  it("a server that never answers: a timeout naming the step, and the process is killed", async () => {
    const f = await failureOf(prober(stdio("mute", process.execPath, ["-e", "setInterval(() => {}, 1000)"], { startupTimeoutMs: 1_000 })));
    expect(f).toMatchObject({ reason: "timeout", step: "initializing" });
    expect(f.message).toMatch(/did not finish initializing within 1 s/);
    expect(pids()).toHaveLength(1);
    expect(isRunning(pids()[0]!)).toBe(false);
  });

  it("an unreachable URL (a closed port on 127.0.0.1): connection refused", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const f = await failureOf(prober(http("closed", url)));
    expect(f).toMatchObject({ reason: "connection_refused", step: "initializing", stderrTail: "" });
    expect(f.message).toBe(`Nothing is listening at ${url} (connection refused). Start the server, or check the host and port.`);
  });

  describe("an HTTP server that answers", () => {
    let server: Server;
    let base: string;
    let status = 401;
    beforeEach(async () => {
      server = createServer((req, res) => {
        req.resume();
        res.writeHead(status, { "content-type": "text/plain", ...(status === 401 && { "www-authenticate": 'Bearer realm="test"' }) });
        res.end(status === 401 ? "Unauthorized" : "Not Found");
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterEach(async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    });

    it("401: needs authorization, in words", async () => {
      status = 401;
      const f = await failureOf(prober(http("locked", `${base}/mcp`)));
      expect(f).toMatchObject({ reason: "unauthorized", step: "initializing" });
      expect(f.message).toMatch(/needs authorization \(HTTP 401\)/);
    });

    it("404: no MCP endpoint at that URL", async () => {
      status = 404;
      const f = await failureOf(prober(http("wrong", `${base}/nope`)));
      expect(f).toMatchObject({ reason: "http_error" });
      expect(f.message).toMatch(/HTTP 404 .*Check the URL/);
    });
  });

  it("a missing env reference: says which variable, before anything starts", async () => {
    const config = McpServerConfig.parse({ name: "needs", transport: { type: "stdio", command: process.execPath, env: { SEAM_PROBE_TEST_UNSET_TOKEN: { fromEnv: "SEAM_PROBE_TEST_UNSET_TOKEN" } } } });
    const f = await failureOf(prober(config));
    expect(f).toMatchObject({ reason: "missing_env", step: "starting" });
    expect(f.message).toMatch(/SEAM_PROBE_TEST_UNSET_TOKEN/);
    expect(pids()).toEqual([]);
  });
});

describe("saving tries first, through the real host (MCP-10)", () => {
  let open: { scope: Scope; host: HostApi }[] = [];
  let home: string;
  const start = async () => {
    const s = createScope("test-host");
    const host = await createHost(s, { home, env: { SEAM_MODEL_PROVIDER: "none" }, version: "test" });
    open.push({ scope: s, host });
    return host;
  };
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "seam-mcp-probe-"));
  });
  afterEach(async () => {
    for (const h of open.reverse()) await h.scope.dispose();
    open = [];
    rmSync(home, { recursive: true, force: true });
  });
  const missing = (name: string) => ({ name, transport: { type: "stdio" as const, command: join(HOST_DIR, "no-such-binary"), args: [] } });
  const names = (host: HostApi) => host.mcp.list().map((v) => v.config.name);

  it("a missing executable saves nothing (also after a restart of the host); force saves it, and it then retries", async () => {
    const host = await start();
    const caller = appRouter.createCaller({ host });
    const error = await caller.mcp.add({ ...missing("nowhere"), probeId: "probe-missing-1" }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/The command '.*no-such-binary' was not found \(ENOENT\)/);
    expect(names(host)).toEqual([]);
    expect(await caller.mcp.probeStatus({ probeId: "probe-missing-1" })).toMatchObject({
      state: "failed", server: "nowhere", failure: { step: "starting", reason: "command_not_found" },
    });
    await open.pop()!.scope.dispose();
    expect(names(await start())).toEqual([]);

    const again = appRouter.createCaller({ host: open[0]!.host });
    const saved = await again.mcp.add({ ...missing("nowhere"), force: true });
    expect(saved.probe).toBeNull();
    expect(["connecting", "retrying", "failed"]).toContain(saved.status.state);
    expect(names(open[0]!.host)).toEqual(["nowhere"]);
  });

  it("a good server: saved, started, and the answer says what the try saw; its progress is polled by id", async () => {
    const host = await start();
    const caller = appRouter.createCaller({ host });
    const saved = await caller.mcp.add({ ...everythingStdio("good"), probeId: "probe-good-1" });
    expect(saved.status.state).toBe("ready");
    expect(saved.probe).toMatchObject({ serverInfo: { name: expect.stringMatching(/everything/i) }, toolCount: saved.tools.length });
    expect(await caller.mcp.probeStatus({ probeId: "probe-good-1" })).toMatchObject({ state: "succeeded", step: "listing_tools", seen: { toolCount: saved.tools.length } });
    await expect(caller.mcp.probeStatus({ probeId: "never-started" })).rejects.toThrow(/No try of an MCP server/);

    // An edit that changes the command is tried first: a failure keeps the old config, running.
    const error = await caller.mcp.update({ name: "good", config: McpServerConfig.parse(missing("good")) }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/was not found \(ENOENT\)/);
    const kept = host.mcp.list()[0]!;
    expect(kept.config.transport).toMatchObject({ command: process.execPath });
    expect(kept.status.state).toBe("ready");
    // A policy-only or timeout edit keeps the transport: nothing is tried.
    const timeout = await caller.mcp.update({ name: "good", config: McpServerConfig.parse({ ...everythingStdio("good"), callTimeoutMs: 60_000 }) });
    expect(timeout.probe).toBeNull();
    // Save anyway.
    const forced = await caller.mcp.update({ name: "good", config: McpServerConfig.parse(missing("good")), force: true });
    expect(forced.config.transport).toMatchObject({ command: join(HOST_DIR, "no-such-binary") });
  });

  it("import: each new server is tried; failures are listed with the try's failure and saved only when forced", async () => {
    const host = await start();
    const doc = JSON.stringify({ mcpServers: {
      good: { command: process.execPath, args: (everythingStdio().transport as { args: string[] }).args },
      broken: { command: join(HOST_DIR, "no-such-binary") },
    } });
    const result = await host.mcp.importApply(doc);
    expect(result.applied).toEqual([{ name: "good", action: "add" }]);
    expect(result.failed).toEqual([{ name: "broken", message: expect.stringMatching(/was not found \(ENOENT\)/), probe: expect.objectContaining({ reason: "command_not_found" }) }]);
    expect(names(host)).toEqual(["good"]);

    const forced = await host.mcp.importApply(doc, ["broken"], ["broken"]);
    expect(forced).toMatchObject({ applied: [{ name: "broken", action: "add" }], failed: [] });
    expect(names(host)).toEqual(["broken", "good"]);
  });
});
