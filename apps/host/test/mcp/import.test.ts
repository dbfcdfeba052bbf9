import { McpServerConfig, type McpImportPreview } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { exportServers, JsonSyntaxError, parseJsonc, previewImport } from "../../src/mcp/import.js";

const none = new Map<string, McpServerConfig>();
const entry = (p: McpImportPreview, name: string) => {
  const e = p.entries.find((x) => x.name === name);
  if (!e) throw new Error(`no entry ${name}`);
  return e;
};
const syntaxError = (text: string) => {
  try {
    parseJsonc(text);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { reason: error.reason, line: error.line, column: error.column };
    throw error;
  }
  throw new Error("parsed");
};
const badInput = (text: string) => {
  try {
    previewImport(text, none);
  } catch (error) {
    if (error instanceof HostError && error.code === "bad_input:mcp") return error.message;
    throw error;
  }
  throw new Error("accepted");
};

describe("parseJsonc", () => {
  it("agrees with JSON.parse on plain JSON", () => {
    const samples = ['{"a":[1,-2.5e3,true,false,null,"x\\n\\u00e9\\"\\\\"],"b":{}}', "[]", '"s"', "0", " \n{ } \n"];
    for (const s of samples) expect(parseJsonc(s).value).toEqual(JSON.parse(s));
  });

  it("accepts comments and trailing commas", () => {
    const text = `{
      // Claude Desktop config
      "mcpServers": { /* one */ "a": { "command": "x", "args": ["1", "2",], }, },
    }`;
    expect(parseJsonc(text).value).toEqual({ mcpServers: { a: { command: "x", args: ["1", "2"] } } });
  });

  it("reports line and column", () => {
    expect(syntaxError('{\n  "a": 1\n  "b": 2\n}')).toEqual({ reason: "Expected ',' or '}'", line: 3, column: 3 });
    expect(syntaxError('{"a": "unterminated\n}')).toMatchObject({ reason: "Unterminated string", line: 1, column: 7 });
    expect(syntaxError("{'a': 1}")).toMatchObject({ reason: "Expected a property name in double quotes", line: 1, column: 2 });
    expect(syntaxError('{"a": \'x\'}')).toMatchObject({ reason: "Strings must use double quotes", column: 7 });
    expect(syntaxError('{"a": 1} x')).toMatchObject({ reason: "Unexpected text after the JSON value", column: 10 });
    expect(syntaxError('{"a": [1, 2')).toMatchObject({ reason: "Unexpected end of input: missing ']'" });
    expect(syntaxError('{"a": tru}')).toMatchObject({ reason: 'Unexpected character "t"' });
    expect(syntaxError("/* open")).toMatchObject({ reason: "Unterminated /* comment" });
    expect(syntaxError('"\\x"')).toMatchObject({ reason: "Invalid escape in string" });
    expect(syntaxError("[".repeat(100))).toMatchObject({ reason: "Nesting is too deep" });
  });

  it("warns about duplicate keys and keeps __proto__ an ordinary key", () => {
    const r = parseJsonc('{"a": 1, "a": 2, "__proto__": {"polluted": true}}');
    expect((r.value as Record<string, unknown>).a).toBe(2);
    expect(r.warnings).toEqual(['Duplicate key "a" at line 1, column 10: the last one wins.']);
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(r.value as object)).toContain("__proto__");
  });
});

describe("previewImport", () => {
  it("reads a Claude Desktop config: stdio, env secrets become references", () => {
    const p = previewImport(JSON.stringify({
      globalShortcut: "Ctrl+Space",
      mcpServers: {
        github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_pastedSecret123", LOG_LEVEL: "debug" } },
        fs: { command: "node", args: ["/srv/fs.js", 3], cwd: "/srv", env: { HOME_DIR: "${HOME}" } },
      },
    }), none);
    expect(p.format).toBe("mcpServers");
    expect(p.warnings).toEqual(["Ignored top-level keys: globalShortcut."]);
    const gh = entry(p, "github");
    expect(gh.action).toBe("add");
    expect(gh.config?.transport).toEqual({
      type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-github"],
      env: { GITHUB_PERSONAL_ACCESS_TOKEN: { fromEnv: "GITHUB_PERSONAL_ACCESS_TOKEN" }, LOG_LEVEL: { value: "debug" } },
    });
    expect(gh.warnings).toEqual(["GITHUB_PERSONAL_ACCESS_TOKEN will be read from the host environment; the pasted value is not stored."]);
    expect(JSON.stringify(p)).not.toContain("ghp_pastedSecret123");
    const fs = entry(p, "fs");
    expect(fs.config?.transport).toEqual({ type: "stdio", command: "node", args: ["/srv/fs.js", "3"], cwd: "/srv", env: { HOME_DIR: { fromEnv: "HOME" } } });
    expect(fs.config).toMatchObject({ enabled: true, failOnStartupError: false });
  });

  it("reads Cursor and Cline HTTP entries; a pasted bearer token becomes an env reference", () => {
    const p = previewImport(`{
      "mcpServers": {
        "remote": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer abc.def", "X-Api-Key": "k-123", "X-Team": "core" } },
        "cline": { "type": "streamableHttp", "url": "http://127.0.0.1:3001/mcp", "disabled": true, "timeout": 30, "autoApprove": [] },
        "ref": { "type": "http", "url": "http://127.0.0.1:3002/mcp", "headers": { "Authorization": "Bearer \${REF_TOKEN}" } }
      }
    }`, none);
    const remote = entry(p, "remote");
    expect(remote.config?.transport).toEqual({
      type: "http", url: "https://mcp.example.com/mcp", bearerTokenEnv: "REMOTE_TOKEN",
      headers: { "X-Api-Key": { fromEnv: "X_API_KEY" }, "X-Team": { value: "core" } },
    });
    expect(remote.warnings).toContain('The pasted bearer token is not stored: set REMOTE_TOKEN in the host environment (Seam sends it as "Authorization: Bearer …").');
    expect(remote.warnings).toContain("Header X-Api-Key will be read from the host environment variable X_API_KEY; the pasted value is not stored.");
    const cline = entry(p, "cline");
    // Cline's autoApprove list (empty here) means every other tool of the server asks (MCP-8).
    expect(cline.config).toMatchObject({ enabled: false, callTimeoutMs: 30_000, transport: { type: "http" }, approval: "ask", toolApproval: {} });
    expect(cline.warnings).toEqual([]);
    expect(entry(p, "ref").config?.transport).toMatchObject({ bearerTokenEnv: "REF_TOKEN", headers: {} });
    expect(entry(p, "ref").warnings).toEqual([]);
    expect(JSON.stringify(p)).not.toMatch(/abc\.def|k-123/);
  });

  it("treats token-shaped values as secrets whatever their name", () => {
    const p = previewImport('{"mcpServers": {"ai": {"command": "x", "env": {"OPENAI": "sk-proj-123456"}}}}', none);
    expect(entry(p, "ai").config?.transport).toMatchObject({ env: { OPENAI: { fromEnv: "OPENAI" } } });
  });

  it("flags SSE-only servers as unsupported", () => {
    const p = previewImport('{"mcpServers": {"old": {"type": "sse", "url": "http://127.0.0.1:9/sse"}, "guess": {"url": "http://127.0.0.1:9/sse"}}}', none);
    expect(entry(p, "old")).toMatchObject({ action: "invalid", config: null });
    expect(entry(p, "old").errors[0]).toMatchObject({ path: "type", message: expect.stringContaining("SSE-only servers are not supported") });
    expect(entry(p, "guess").action).toBe("add");
    expect(entry(p, "guess").warnings[0]).toMatch(/ends in \/sse/);
  });

  it("reports wrong types and schema violations per entry with field paths", () => {
    const p = previewImport(JSON.stringify({
      mcpServers: {
        a: { command: 5 },
        b: { command: "x", args: "--flag" },
        c: { command: "x", env: { NESTED: { v: 1 } } },
        d: { args: [] },
        e: { command: "x", url: "http://h/mcp" },
        f: { url: "ftp://h/mcp" },
        "bad name": { command: "x" },
        g: "npx foo",
        h: { command: "x", type: "websocket" },
        i: { command: "x", env: { "not-an-env": "1" } },
        j: { command: "x", seam: { startupTimeoutMs: 5 } },
      },
    }), none);
    const errs = (n: string) => entry(p, n).errors;
    expect(p.entries.every((e) => e.action === "invalid" && e.config === null)).toBe(true);
    expect(errs("a")).toEqual([{ path: "command", message: "command must be a string" }]);
    expect(errs("b")).toEqual([{ path: "args", message: "args must be an array of strings" }]);
    expect(errs("c")).toEqual([{ path: "env.NESTED", message: "must be a string" }]);
    expect(errs("d")).toEqual([{ path: "command", message: "Missing command (stdio) or url (HTTP)" }]);
    expect(errs("e")[0]?.message).toMatch(/not both/);
    expect(errs("f")).toEqual([{ path: "url", message: "Enter an http(s) URL, e.g. http://127.0.0.1:3001/mcp" }]);
    expect(errs("bad name")[0]).toMatchObject({ path: "name" });
    expect(errs("g")[0]?.message).toMatch(/Expected an object/);
    expect(errs("h")[0]).toMatchObject({ path: "type" });
    expect(errs("i")[0]).toMatchObject({ path: "env.not-an-env" });
    expect(errs("j")[0]).toMatchObject({ path: "startupTimeoutMs" });
  });

  it("tolerates a bare map and VS Code's servers key", () => {
    expect(previewImport('{"a": {"command": "x"}}', none)).toMatchObject({ format: "bare", entries: [{ name: "a", action: "add" }] });
    expect(previewImport('{"servers": {"a": {"type": "stdio", "command": "x"}}, "inputs": []}', none)).toMatchObject({ format: "servers", entries: [{ action: "add" }] });
  });

  it("refuses documents it cannot read, with a precise reason", () => {
    expect(badInput('{"mcpServers": {"a": {"command": "x",}}')).toBe("Not valid JSON: Unexpected end of input: missing '}' at line 1, column 40.");
    expect(badInput("[1]")).toMatch(/Expected a JSON object/);
    expect(badInput('{"command": "npx"}')).toMatch(/looks like a single server/);
    expect(badInput('{"mcpServers": []}')).toMatch(/must be an object/);
    expect(badInput('{"a": 1}')).toMatch(/no "mcpServers" object found/);
  });

  it("compares with the saved configs: add, update (with the changed fields), unchanged", () => {
    const saved = new Map([
      ["same", McpServerConfig.parse({ name: "same", transport: { type: "stdio", command: "x", args: ["1"] } })],
      ["changed", McpServerConfig.parse({ name: "changed", transport: { type: "stdio", command: "x", args: ["1"] } })],
    ]);
    const p = previewImport(JSON.stringify({
      mcpServers: { same: { command: "x", args: ["1"] }, changed: { command: "x", args: ["2"], disabled: true }, fresh: { command: "y" } },
    }), saved);
    expect(p.entries.map((e) => [e.name, e.action, e.changes])).toEqual([
      ["same", "unchanged", []],
      ["changed", "update", ["args", "enabled"]],
      ["fresh", "add", []],
    ]);
  });
});

describe("exportServers", () => {
  const configs = [
    McpServerConfig.parse({
      name: "everything",
      transport: { type: "stdio", command: "/usr/bin/node", args: ["/x/index.js", "stdio"], env: { GITHUB_TOKEN: { fromEnv: "GITHUB_TOKEN" }, MODE: { value: "fast" }, KEY2: { fromEnv: "OTHER_KEY" } }, cwd: "/tmp" },
    }),
    McpServerConfig.parse({
      name: "remote",
      enabled: false,
      failOnStartupError: true,
      callTimeoutMs: 5_000,
      transport: { type: "http", url: "https://mcp.example.com/mcp", bearerTokenEnv: "REMOTE_TOKEN", headers: { "X-Team": { value: "core" }, "X-Api-Key": { fromEnv: "X_API_KEY" } } },
    }),
  ];

  it("writes the common shape with ${NAME} placeholders and notes what to set", () => {
    const out = exportServers(configs);
    expect(JSON.parse(out.json)).toEqual({
      mcpServers: {
        everything: { command: "/usr/bin/node", args: ["/x/index.js", "stdio"], env: { GITHUB_TOKEN: "${GITHUB_TOKEN}", MODE: "fast", KEY2: "${OTHER_KEY}" }, cwd: "/tmp" },
        remote: {
          type: "http", url: "https://mcp.example.com/mcp", headers: { "X-Team": "core", "X-Api-Key": "${X_API_KEY}", Authorization: "Bearer ${REMOTE_TOKEN}" },
          disabled: true, seam: { failOnStartupError: true, callTimeoutMs: 5000 },
        },
      },
    });
    expect(out.notes[0]).toContain("set GITHUB_TOKEN, OTHER_KEY, REMOTE_TOKEN, X_API_KEY in the environment");
  });

  it("round-trips: importing an export changes nothing", () => {
    const saved = new Map(configs.map((c) => [c.name, c]));
    const p = previewImport(exportServers(configs).json, saved);
    expect(p.entries.map((e) => [e.name, e.action, e.warnings])).toEqual([["everything", "unchanged", []], ["remote", "unchanged", []]]);
    expect(p.entries.map((e) => e.config)).toEqual(configs);
  });
});
