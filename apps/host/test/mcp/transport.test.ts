import { createServer, type IncomingHttpHeaders } from "node:http";
import { Client } from "@modelcontextprotocol/client";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { McpServerConfig } from "@seam/shared";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { listChildren } from "../../src/core/process.js";
import { createScope } from "../../src/core/scope.js";
import { ChildTransport, createTransport, resolveValue } from "../../src/mcp/transport.js";
import { fixture, isRunning } from "./helpers.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe("resolveValue", () => {
  it("takes inline values and reads env references", () => {
    const lookup = (vars: Record<string, string>) => (name: string) => vars[name];
    expect(resolveValue({ value: "x" }, "Header A", lookup({}))).toBe("x");
    expect(resolveValue({ fromEnv: "MY_VAR" }, "Header A", lookup({ MY_VAR: "y" }))).toBe("y");
  });

  it("resolves references through the host's secret source: env first, then the 0600 secrets file (SEC-2)", async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const { createSecretSource } = await import("../../src/llm/secrets.js");
    const home = mkdtempSync(join(tmpdir(), "seam-mcp-secrets-"));
    try {
      writeFileSync(join(home, "secrets.json"), JSON.stringify({ GITHUB_TOKEN: "from-file", SHARED: "file" }), { mode: 0o600 });
      const secrets = createSecretSource({ home, env: { SHARED: "env" } });
      const lookup = (name: string) => secrets.get(name)?.value;
      expect(resolveValue({ fromEnv: "GITHUB_TOKEN" }, "Header Authorization", lookup)).toBe("from-file");
      expect(resolveValue({ fromEnv: "SHARED" }, "Header X", lookup)).toBe("env");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("names the missing variable", () => {
    let error: unknown;
    try {
      resolveValue({ fromEnv: "GITHUB_TOKEN" }, "Header Authorization", () => undefined);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).code).toBe("bad_input:mcp");
    expect((error as HostError).message).toContain("GITHUB_TOKEN");
    expect((error as HostError).publicCode).toBe("missing_env");
  });
});

describe("stdio transport over the subprocess seam (MCP-7)", () => {
  it("gives the server the sanitized environment plus its explicit env", async () => {
    process.env.SEAM_TEST_API_KEY = "must-not-leak";
    process.env.SEAM_TEST_PLAIN = "visible";
    process.env.SEAM_TEST_GIVEN_TOKEN = "given-on-purpose";
    try {
      await using scope = createScope("test");
      const fx = fixture("fx", { tools: ["env"] });
      cleanups.push(fx.cleanup);
      const base = McpServerConfig.parse(fx.config);
      if (base.transport.type !== "stdio") throw new Error("stdio expected");
      const config = McpServerConfig.parse({
        ...base,
        transport: { ...base.transport, env: { ...base.transport.env, EXPLICIT_TOKEN: { fromEnv: "SEAM_TEST_GIVEN_TOKEN" }, PLAIN_SETTING: { value: "on" } } },
      });
      const handle = createTransport(scope, config);
      const client = new Client({ name: "t", version: "0" });
      await client.connect(handle.transport);
      const result = await client.callTool({ name: "env", arguments: {} });
      const env = JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, string>;
      expect(env.SEAM_TEST_API_KEY).toBeUndefined();
      expect(env.SEAM_TEST_GIVEN_TOKEN).toBeUndefined();
      expect(env.SEAM_TEST_PLAIN).toBe("visible");
      expect(env.EXPLICIT_TOKEN).toBe("given-on-purpose");
      expect(env.PLAIN_SETTING).toBe("on");
      expect(listChildren().some((c) => c.label === "mcp:fx" && c.pid === handle.pid() && c.state === "running")).toBe(true);
      expect(handle.stderrTail()).toContain(`fixture ${handle.pid()} starting`);
      await client.close();
    } finally {
      delete process.env.SEAM_TEST_API_KEY;
      delete process.env.SEAM_TEST_PLAIN;
      delete process.env.SEAM_TEST_GIVEN_TOKEN;
    }
  });

  it("refuses to build a transport whose env reference is missing", async () => {
    await using scope = createScope("test");
    const config = McpServerConfig.parse({ name: "x", transport: { type: "stdio", command: "true", env: { TOKEN: { fromEnv: "SEAM_SURELY_UNSET_VAR" } } } });
    expect(() => createTransport(scope, config)).toThrow(/SEAM_SURELY_UNSET_VAR/);
  });

  it("frames newline-delimited JSON, reports bad lines as errors and keeps reading", async () => {
    await using scope = createScope("test");
    const script = [
      "process.stdout.write('not json\\n');",
      "process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'notifications/one'}) + '\\n' + JSON.stringify({jsonrpc:'2.0',method:'notifications/two'}).slice(0, 10));",
      "setTimeout(() => process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'notifications/two'}).slice(10) + '\\n'), 50);",
      "process.stdin.resume();",
    ].join("");
    const transport = new ChildTransport(scope, { label: "mcp:frames", command: process.execPath, args: ["-e", script] });
    const messages: JSONRPCMessage[] = [];
    const errors: Error[] = [];
    transport.onmessage = (m) => void messages.push(m);
    transport.onerror = (e) => void errors.push(e);
    await transport.start();
    await vi.waitFor(() => expect(messages).toHaveLength(2), { timeout: 5_000, interval: 10 });
    expect(messages.map((m) => (m as { method: string }).method)).toEqual(["notifications/one", "notifications/two"]);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain("not JSON-RPC");
    await transport.close();
  });

  it("reports the child's exit as close, once, and close() stops the process group", async () => {
    await using scope = createScope("test");
    const exiting = new ChildTransport(scope, { label: "mcp:exit", command: process.execPath, args: ["-e", "process.stderr.write('bye\\n'); process.exit(7)"] });
    let closes = 0;
    const errors: Error[] = [];
    exiting.onclose = () => void closes++;
    exiting.onerror = (e) => void errors.push(e);
    await exiting.start();
    await vi.waitFor(() => expect(closes).toBe(1), { timeout: 5_000, interval: 10 });
    expect(errors.some((e) => e.message.includes("code 7"))).toBe(true);
    expect(exiting.stderrTail()).toContain("bye");
    await exiting.close();
    expect(closes).toBe(1);

    // A child that ignores stdin's end and spawned a grandchild: close() must take the whole group down.
    const stubborn = new ChildTransport(scope, {
      label: "mcp:stubborn",
      command: process.execPath,
      args: ["-e", "const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(()=>{},1000)'], {stdio:'ignore'}); process.stdout.write(JSON.stringify({jsonrpc:'2.0',method:'x',params:{pid:c.pid}})+'\\n'); setInterval(()=>{},1000)"],
    });
    let grandchild = 0;
    stubborn.onmessage = (m) => void (grandchild = (m as unknown as { params: { pid: number } }).params.pid);
    await stubborn.start();
    await vi.waitFor(() => expect(grandchild).toBeGreaterThan(0), { timeout: 5_000, interval: 10 });
    const pid = stubborn.pid!;
    expect(await stubborn.terminate()).toBe(true);
    expect(isRunning(pid)).toBe(false);
    expect(isRunning(grandchild)).toBe(false);
    await expect(stubborn.send({ jsonrpc: "2.0", method: "late" })).rejects.toThrow(/not running/);
  });

  it("fails start() with a clear error when the command does not exist", async () => {
    await using scope = createScope("test");
    const transport = new ChildTransport(scope, { label: "mcp:missing", command: "/nonexistent/seam-mcp-server" });
    await expect(transport.start()).rejects.toThrow(/not found|not executable/);
  });
});

describe("Streamable HTTP transport", () => {
  it("sends configured headers and the bearer token from the environment", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanups.push(() => server.close());
    const port = (server.address() as { port: number }).port;
    process.env.SEAM_TEST_BEARER = "s3cret";
    process.env.SEAM_TEST_HEADER = "from-env";
    try {
      await using scope = createScope("test");
      const config = McpServerConfig.parse({
        name: "remote",
        transport: { type: "http", url: `http://127.0.0.1:${port}/mcp`, headers: { "X-Team": { value: "core" }, "X-Api-Key": { fromEnv: "SEAM_TEST_HEADER" } }, bearerTokenEnv: "SEAM_TEST_BEARER" },
      });
      const handle = createTransport(scope, config);
      expect(handle.kind).toBe("http");
      const client = new Client({ name: "t", version: "0" });
      await expect(client.connect(handle.transport)).rejects.toThrow(/Error POSTing to endpoint/);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]!.authorization).toBe("Bearer s3cret");
      expect(seen[0]!["x-team"]).toBe("core");
      expect(seen[0]!["x-api-key"]).toBe("from-env");
      expect(await handle.terminate()).toBe(true);
    } finally {
      delete process.env.SEAM_TEST_BEARER;
      delete process.env.SEAM_TEST_HEADER;
    }
  });

  it("refuses to connect without the bearer token variable", async () => {
    await using scope = createScope("test");
    const config = McpServerConfig.parse({ name: "remote", transport: { type: "http", url: "http://127.0.0.1:9/mcp", bearerTokenEnv: "SEAM_SURELY_UNSET_BEARER" } });
    expect(() => createTransport(scope, config)).toThrow(/SEAM_SURELY_UNSET_BEARER/);
  });
});
