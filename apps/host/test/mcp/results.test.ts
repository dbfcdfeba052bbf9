import { describe, expect, it } from "vitest";
import { base64Bytes, formatBytes, toToolResult, type McpCanonicalResult, type ResultContext } from "../../src/mcp/results.js";
import { compileSchema } from "../../src/mcp/schema.js";

const plain: ResultContext = { server: "s", rawName: "t", hasOutputSchema: false, validateOutput: null };
const withSchema = (schema: Record<string, unknown>): ResultContext => {
  const compiled = compileSchema(schema);
  return { ...plain, hasOutputSchema: true, validateOutput: compiled.ok ? compiled.validate : null };
};
const png = Buffer.alloc(12_600, 1).toString("base64");

describe("toToolResult (MCP-6)", () => {
  it("keeps every block canonical and renders text joined, other blocks as placeholders", () => {
    const content = [
      { type: "text", text: "first" },
      { type: "image", data: png, mimeType: "image/png", annotations: { audience: ["user"] } },
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "file:///x", mimeType: "text/plain", text: "hello" } },
      { type: "resource", resource: { uri: "file:///b.bin", blob: "AAAAAA==" } },
      { type: "resource_link", uri: "file:///y.md", name: "y.md", mimeType: "text/markdown" },
      { type: "text", text: "last" },
    ];
    const result = toToolResult({ content }, plain);
    expect(result.error).toBeUndefined();
    const canonical = result.canonical as McpCanonicalResult;
    expect(canonical.content).toEqual(content);
    expect(canonical).toMatchObject({ type: "mcp", server: "s", tool: "t", isError: false, structured: "absent", structuredContent: null });
    expect(result.rendered).toBe([
      "first",
      "[image: image/png, 12.3 KB]",
      "[audio: audio/wav, 3 B]",
      "[resource: file:///x (text/plain, 5 B)]",
      "[resource: file:///b.bin (4 B)]",
      "[resource link: y.md, file:///y.md (text/markdown)]",
      "last",
    ].join("\n"));
    expect(result.rendered).not.toContain(png.slice(0, 20));
  });

  it("renders unknown and malformed blocks as placeholders without failing", () => {
    const result = toToolResult({ content: [{ type: "hologram", x: 1 }, { type: "image" }, 42, null, { type: "text", text: "ok" }] }, plain);
    expect(result.error).toBeUndefined();
    expect(result.rendered).toBe("[hologram content]\n[image content]\n[invalid content block]\n[invalid content block]\nok");
  });

  it("turns isError into a failed call with code mcp_tool_error", () => {
    const result = toToolResult({ content: [{ type: "text", text: "disk full" }], isError: true }, plain);
    expect(result.error).toEqual({ code: "mcp_tool_error", message: "disk full" });
    expect(result.rendered).toBe("Error [mcp_tool_error]: disk full");
    expect((result.canonical as McpCanonicalResult).isError).toBe(true);
  });

  it("validates structuredContent against a supported output schema", () => {
    const ctx = withSchema({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { n: { type: "number" } }, required: ["n"] });
    const ok = toToolResult({ content: [], structuredContent: { n: 1 } }, ctx);
    expect(ok.error).toBeUndefined();
    expect((ok.canonical as McpCanonicalResult).structured).toBe("valid");
    expect(ok.rendered).toBe('{"n":1}');

    const bad = toToolResult({ content: [{ type: "text", text: "{}" }], structuredContent: { n: "one" } }, ctx);
    expect(bad.error?.code).toBe("mcp_output_invalid");
    expect(bad.error?.message).toContain("n: must be number");
    expect((bad.canonical as McpCanonicalResult).structured).toBe("invalid");
    expect((bad.canonical as McpCanonicalResult).structuredContent).toEqual({ n: "one" });

    const missing = toToolResult({ content: [{ type: "text", text: "x" }] }, ctx);
    expect(missing.error?.code).toBe("mcp_output_invalid");
  });

  it("keeps structuredContent unvalidated when the schema uses something Ajv cannot compile", () => {
    const ctx = withSchema({ type: "object", properties: { x: { $ref: "#/$defs/missing" } } });
    expect(ctx.validateOutput).toBeNull();
    const result = toToolResult({ content: [], structuredContent: { x: 1 } }, ctx);
    expect(result.error).toBeUndefined();
    expect((result.canonical as McpCanonicalResult).structured).toBe("unvalidated");
  });

  it("ignores unknown keywords and formats instead of failing", () => {
    const compiled = compileSchema({ type: "object", properties: { u: { type: "string", format: "uri", "x-vendor": true } } });
    expect(compiled.ok).toBe(true);
    if (compiled.ok) expect(compiled.validate({ u: "not a uri" })).toBeNull();
  });

  it("rejects results that are not MCP tool results", () => {
    for (const wire of [null, "text", 42, [], { content: "nope" }, { isError: "yes" }]) {
      const result = toToolResult(wire, plain);
      expect(result.error?.code).toBe("mcp_invalid_result");
    }
    const notObject = toToolResult({ content: [], structuredContent: [1, 2] }, plain);
    expect(notObject.error?.code).toBe("mcp_output_invalid");
  });

  it("says so when a tool returns nothing", () => {
    expect(toToolResult({ content: [] }, plain).rendered).toBe("(the tool returned no content)");
    expect(toToolResult({}, plain).rendered).toBe("(the tool returned no content)");
  });

  it("sizes base64 payloads without decoding them", () => {
    expect(base64Bytes(Buffer.from("hello").toString("base64"))).toBe(5);
    expect(base64Bytes(Buffer.from("hell").toString("base64"))).toBe(4);
    expect(base64Bytes(Buffer.alloc(3 * 1024 * 1024).toString("base64"))).toBe(3 * 1024 * 1024);
    expect(formatBytes(12_600)).toBe("12.3 KB");
    expect(formatBytes(3 * 1024 * 1024)).toBe("3.0 MB");
  });
});
