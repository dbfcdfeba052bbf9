import { spawnSync } from "node:child_process";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createScope } from "../../src/core/scope.js";
import { main, parseArgs as parse } from "../../src/mcp/cli/main.js";

/** list-tools / call arguments: their server config. */
const parseArgs = (argv: string[]) => {
  const parsed = parse(argv);
  if (parsed.command === "conformance") throw new Error("not a server command");
  return parsed;
};
import { EVERYTHING, HOST_DIR, startEverythingHttp } from "./helpers.js";

function sink() {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

async function run(argv: string[]) {
  const out = sink();
  const err = sink();
  const code = await main(argv, out.stream, err.stream);
  return { code, stdout: out.text(), stderr: err.text() };
}

describe("mcp CLI: list-tools (MCP-2, MCP-7)", () => {
  it("parses a command with its own arguments and our options on either side", () => {
    expect(parseArgs(["list-tools", "--name", "fs", "node", "server.js", "--port", "1"]).config).toMatchObject({
      name: "fs",
      transport: { type: "stdio", command: "node", args: ["server.js", "--port", "1"] },
    });
    expect(parseArgs(["list-tools", "node", "s.js", "--name", "x", "--env", "A=b=c"]).config).toMatchObject({
      name: "x",
      transport: { type: "stdio", command: "node", args: ["s.js"], env: { A: { value: "b=c" } } },
    });
    expect(parseArgs(["list-tools", "--", "srv", "--name", "passed-through"]).config.transport).toMatchObject({ command: "srv", args: ["--name", "passed-through"] });
    expect(parseArgs(["list-tools", "https://example.com/mcp", "--header", "X-A: 1", "--bearer-env", "TOKEN"]).config.transport).toEqual({
      type: "http", url: "https://example.com/mcp", headers: { "X-A": { value: "1" } }, bearerTokenEnv: "TOKEN",
    });
  });

  it("prints the public names of a stdio server, one per line, and a summary on stderr", async () => {
    const { code, stdout, stderr } = await run(["list-tools", process.execPath, EVERYTHING, "stdio", "--name", "everything"]);
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines).toContain("mcp__everything__echo");
    expect(lines.every((l) => l.startsWith("mcp__everything__"))).toBe(true);
    expect(stderr).toMatch(new RegExp(`^${lines.length} tools from mcp-servers/everything .* over stdio, server name "everything"\\.\\n$`));
  });

  it("lists a Streamable HTTP server, as JSON when asked", async () => {
    await using scope = createScope("test");
    const server = await startEverythingHttp(scope);
    const { code, stdout } = await run(["list-tools", server.url, "--name", "web", "--json"]);
    expect(code).toBe(0);
    const first = JSON.parse(stdout.split("\n")[0]!) as Record<string, string>;
    expect(first).toEqual({ publicName: `mcp__web__${first.rawName}`, rawName: expect.any(String), description: expect.any(String) });
  });

  it("fails with exit 1, the reason and the server's stderr", async () => {
    const crashed = await run(["list-tools", process.execPath, "-e", "console.error('cannot start: missing config'); process.exit(3)"]);
    expect(crashed.code).toBe(1);
    expect(crashed.stdout).toBe("");
    expect(crashed.stderr).toContain("Could not list the tools of");
    expect(crashed.stderr).toContain("cannot start: missing config");

    const missing = await run(["list-tools", "/nonexistent/seam-mcp"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/not found or is not executable/);

    const refused = await run(["list-tools", "http://127.0.0.1:9/mcp"]);
    expect(refused.code).toBe(1);
  });

  it("fails with exit 2 and the usage on bad arguments", async () => {
    for (const argv of [[], ["list"], ["list-tools"], ["list-tools", "--bogus", "x"], ["list-tools", "--timeout", "5", "x"], ["list-tools", "--name", "bad name", "x"]]) {
      const { code, stderr } = await run(argv);
      expect(code).toBe(2);
      expect(stderr.length).toBeGreaterThan(0);
    }
  });

  it("runs as a program", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "src/mcp/cli/main.ts", "list-tools", "--name", "e", process.execPath, EVERYTHING, "stdio"], {
      cwd: HOST_DIR,
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("mcp__e__echo\n");
  });
});

describe("mcp CLI: call and conformance (MCP-14, #14 item 7)", () => {
  it("parses call and conformance, and refuses bad arguments with a usage error", async () => {
    expect(parseArgs(["call", "echo", '{"message":"hi"}', "node", "s.js"])).toMatchObject({
      command: "call", tool: "echo", args: { message: "hi" }, config: { transport: { type: "stdio", command: "node", args: ["s.js"] } },
    });
    expect(parse(["conformance", "http://127.0.0.1:9/mcp"])).toEqual({ command: "conformance", url: "http://127.0.0.1:9/mcp" });
    for (const bad of [["call", "echo"], ["call", "echo", "{not json", "node"], ["call", "echo", "[1]", "node"], ["conformance"], ["conformance", "node"]]) {
      const { code, stderr } = await run(bad);
      expect(code).toBe(2);
      expect(stderr).toContain("Usage:");
    }
  });

  it("calls a tool through the bridge and prints what the model would read, or the canonical JSON", async () => {
    const text = await run(["call", "echo", '{"message":"from the CLI"}', process.execPath, EVERYTHING, "stdio", "--name", "everything"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("from the CLI");
    expect(text.stderr).toMatch(/^echo: ok in \d+ ms\.\n$/);
    const json = await run(["call", "mcp__everything__get-sum", '{"a": 2, "b": 40}', process.execPath, EVERYTHING, "stdio", "--name", "everything", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain("42");
  });

  it("an unknown tool or arguments the schema refuses fail with exit 1 and say why", async () => {
    const unknown = await run(["call", "no-such-tool", "{}", process.execPath, EVERYTHING, "stdio", "--name", "everything"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('has no tool "no-such-tool"');
    const bad = await run(["call", "get-sum", '{"a": "two"}', process.execPath, EVERYTHING, "stdio"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/get-sum: error/);
  });

  it("answers a request for input with the form's defaults (the conformance client has nobody to ask)", async () => {
    const { code, stdout } = await run(["call", "trigger-elicitation-request", "{}", process.execPath, EVERYTHING, "stdio", "--name", "everything"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/accept/i);
  });
});
