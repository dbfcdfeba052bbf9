import { describe, expect, it } from "vitest";
import {
  ENV_NAME_MAX, ExtensionBridgeCallInput, formatIssues, JSON_DEPTH_MAX, jsonProblem, LSP_INIT_OPTIONS_MAX, LspExtension, LspServerConfig,
  MCP_ENV_MAX, MCP_HEADERS_MAX, McpServerConfig, ModelSettings, SESSION_TEXT_MAX, SessionCallToolInput, SkillsWhereInput, URL_MAX,
  WEB_PROVIDERS_MAX, WebSettings,
} from "../src/index.js";

/** `{"a": {"a": … 1}}`, `depth` objects deep, built without recursion. */
const nested = (depth: number): Record<string, unknown> => {
  let v: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < depth; i++) v = { a: v };
  return v;
};
const message = (r: { success: boolean; error?: { issues: unknown[] } }) =>
  (r.success ? "" : formatIssues(r.error as Parameters<typeof formatIssues>[0]));

describe("jsonProblem: a JSON value's depth and size, without recursion (SEC-5)", () => {
  it("measures depth as nesting of arrays and objects", () => {
    expect(jsonProblem(1, { maxChars: 10, maxDepth: 0 })).toBeNull();
    expect(jsonProblem({}, { maxChars: 10, maxDepth: 1 })).toBeNull();
    expect(jsonProblem({ a: [] }, { maxChars: 10, maxDepth: 1 })).toMatchObject({ kind: "depth", phrase: "is nested more than 1 levels deep" });
    expect(jsonProblem(nested(JSON_DEPTH_MAX), { maxChars: 1_000 })).toBeNull();
    expect(jsonProblem(nested(JSON_DEPTH_MAX + 1), { maxChars: 1_000 })?.kind).toBe("depth");
  });

  it("refuses 100,000 levels without overflowing the stack (JSON.stringify would)", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => JSON.stringify(deep)).toThrow(/call stack/);
    expect(jsonProblem(deep, { maxChars: 1_000_000 })).toMatchObject({ kind: "depth", phrase: `is nested more than ${JSON_DEPTH_MAX} levels deep` });
  });

  it("measures size as JSON text, and refuses cycles and non-JSON values", () => {
    expect(jsonProblem({ s: "x".repeat(8) }, { maxChars: 16 })).toBeNull(); // {"s":"xxxxxxxx"}
    expect(jsonProblem({ s: "x".repeat(8) }, { maxChars: 15 })).toMatchObject({ kind: "size", phrase: "is 16 characters as JSON; the limit is 15" });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(jsonProblem(cycle, { maxChars: 100 })?.kind).toBe("depth");
    expect(jsonProblem({ n: 1n }, { maxChars: 100 })).toMatchObject({ kind: "type", phrase: "holds a bigint, which is not JSON" });
  });
});

describe("input schemas are bounded (SEC-5)", () => {
  it("holds tool arguments to the send limit, measured as JSON, and to the nesting depth", () => {
    const at = { text: "x".repeat(SESSION_TEXT_MAX - '{"text":""}'.length) };
    expect(SessionCallToolInput.safeParse({ sessionId: "s", name: "t", args: at }).success).toBe(true);
    const over = SessionCallToolInput.safeParse({ sessionId: "s", name: "t", args: { text: `${at.text}x` } });
    expect(message(over)).toBe(`args: The value is ${(SESSION_TEXT_MAX + 1).toLocaleString("en-US")} characters as JSON; the limit is ${SESSION_TEXT_MAX.toLocaleString("en-US")}`);
    const deep = SessionCallToolInput.safeParse({ sessionId: "s", name: "t", args: nested(10_000) });
    expect(message(deep)).toBe(`args: The value is nested more than ${JSON_DEPTH_MAX} levels deep`);
  });

  it("bounds extension call params and LSP initializationOptions the same way", () => {
    expect(ExtensionBridgeCallInput.safeParse({ runId: "r", method: "m" }).success).toBe(true);
    expect(ExtensionBridgeCallInput.safeParse({ runId: "r", method: "m", params: nested(10) }).success).toBe(true);
    expect(message(ExtensionBridgeCallInput.safeParse({ runId: "r", method: "m", params: nested(10_000) }))).toMatch(/^params: The value is nested more than/);
    const lsp = { id: "ts", command: "tsls", extensions: [".ts"] };
    expect(LspServerConfig.safeParse({ ...lsp, initializationOptions: { tsserver: { path: "/x" } } }).success).toBe(true);
    expect(message(LspServerConfig.safeParse({ ...lsp, initializationOptions: nested(10_000) }))).toMatch(/^initializationOptions: The value is nested/);
    expect(message(LspServerConfig.safeParse({ ...lsp, initializationOptions: { big: "x".repeat(LSP_INIT_OPTIONS_MAX) } })))
      .toMatch(/^initializationOptions: The value is 100,010 characters as JSON; the limit is 100,000/);
    expect(LspExtension.safeParse(`.${"a".repeat(1_000_000)}`).success).toBe(false);
  });

  it.each([
    ["model apiKeyEnv", (name: string) => ModelSettings.safeParse({ provider: "anthropic", model: "m", apiKeyEnv: name })],
    ["web apiKeyEnv", (name: string) => WebSettings.safeParse({ providers: { exa: { apiKeyEnv: name } } })],
    ["MCP bearerTokenEnv", (name: string) => McpServerConfig.safeParse({ name: "s", transport: { type: "http", url: "http://127.0.0.1/mcp", bearerTokenEnv: name } })],
    ["MCP fromEnv", (name: string) => McpServerConfig.safeParse({ name: "s", transport: { type: "stdio", command: "x", env: { A: { fromEnv: name } } } })],
  ])("takes a %s of at most ENV_NAME_MAX characters matching the env-var pattern", (_what, parse) => {
    expect(parse(`A${"_".repeat(ENV_NAME_MAX - 1)}`).success).toBe(true);
    expect(message(parse(`A${"_".repeat(ENV_NAME_MAX)}`))).toMatch(`Use at most ${ENV_NAME_MAX} characters for an environment variable name`);
    expect(parse("x".repeat(10_000_000)).success).toBe(false);
    expect(message(parse("1ABC"))).toMatch(/environment variable name like/);
  });

  it("takes MCP env entries whose names are env-var names of at most ENV_NAME_MAX characters", () => {
    const parse = (name: string) => McpServerConfig.safeParse({ name: "s", transport: { type: "stdio", command: "x", env: { [name]: { value: "v" } } } });
    expect(parse(`A${"_".repeat(ENV_NAME_MAX - 1)}`).success).toBe(true);
    for (const name of [`A${"_".repeat(ENV_NAME_MAX)}`, "A".repeat(1_000_000), "1ABC"]) {
      const r = parse(name);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]).toMatchObject({ code: "invalid_key", path: ["transport", "env", name] });
    }
  });

  it("bounds record counts and URLs", () => {
    const providers = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, {}]));
    expect(WebSettings.safeParse({ providers: providers(WEB_PROVIDERS_MAX) }).success).toBe(true);
    expect(message(WebSettings.safeParse({ providers: providers(10_000) }))).toBe(`providers: At most ${WEB_PROVIDERS_MAX} providers (got 10,000)`);
    const env = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`V${i}`, { value: "v" }]));
    const stdio = (n: number) => McpServerConfig.safeParse({ name: "s", transport: { type: "stdio", command: "x", env: env(n) } });
    expect(stdio(MCP_ENV_MAX).success).toBe(true);
    expect(message(stdio(MCP_ENV_MAX + 1))).toBe(`transport.env: At most ${MCP_ENV_MAX} environment variables (got ${MCP_ENV_MAX + 1})`);
    const headers = Object.fromEntries(Array.from({ length: MCP_HEADERS_MAX + 1 }, (_, i) => [`h${i}`, { value: "v" }]));
    expect(McpServerConfig.safeParse({ name: "s", transport: { type: "http", url: "http://127.0.0.1/", headers } }).success).toBe(false);
    const url = `https://example.com/${"a".repeat(URL_MAX)}`;
    expect(ModelSettings.safeParse({ provider: "anthropic", model: "m", baseURL: url }).success).toBe(false);
    expect(WebSettings.safeParse({ fetchProbeUrl: url }).success).toBe(false);
    expect(SkillsWhereInput.safeParse({ sessionId: "s".repeat(65) }).success).toBe(false);
  });
});
