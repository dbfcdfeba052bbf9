import { describe, expect, it } from "vitest";
import { expandTemplate, formatPromptArguments, McpResourceAttachments, parsePromptArguments, SessionSendInput, templateVariables } from "../src/index.js";

describe("MCP prompt arguments (MCP-9)", () => {
  it("reads name=value pairs, quoted values with spaces and escapes", () => {
    expect(parsePromptArguments(' a=1 b="two words" c=\'x y\' d="say \\"hi\\""')).toEqual({ a: "1", b: "two words", c: "x y", d: 'say "hi"' });
    expect(parsePromptArguments("")).toEqual({});
    expect(parsePromptArguments("loose words")).toBeNull();
  });

  it("formats them back so they read the same", () => {
    const args = { city: "San Francisco", n: "3", q: 'a "b"', empty: "" };
    const line = formatPromptArguments(args);
    expect(line).toBe('city="San Francisco" n=3 q="a \\"b\\""');
    expect(parsePromptArguments(line)).toEqual({ city: "San Francisco", n: "3", q: 'a "b"' });
  });
});

describe("URI templates", () => {
  it("names the variables and expands them", () => {
    expect(templateVariables("demo://resource/dynamic/blob/{resourceId}")).toEqual(["resourceId"]);
    expect(templateVariables("x://{+path}{?a,b}")).toEqual(["path", "a", "b"]);
    expect(expandTemplate("demo://r/{id}", { id: "a b" })).toBe("demo://r/a%20b");
    expect(expandTemplate("x://{+path}{?a,b}", { path: "p/q", a: "1" })).toBe("x://p/q?a=1");
  });
});

describe("attachments on a message", () => {
  it("accepts a few and refuses too many or bad ones", () => {
    expect(SessionSendInput.safeParse({ sessionId: "s", text: "hi", attachments: [{ server: "everything", uri: "demo://x" }] }).success).toBe(true);
    const many = Array.from({ length: 9 }, (_, i) => ({ server: "s", uri: `x://${i}` }));
    const r = McpResourceAttachments.safeParse(many);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toContain("At most 8");
    expect(McpResourceAttachments.safeParse([{ server: "s", uri: "" }]).success).toBe(false);
  });
});
