import { describe, expect, it } from "vitest";
import { JSON_DEPTH_MAX, SESSION_TEXT_MAX } from "@seam/shared";
import { parseDirectCall } from "../../src/agent/direct.js";
import { HostError } from "../../src/core/errors.js";

describe("parseDirectCall (CORE-14 direct mode)", () => {
  it("parses a tool name and JSON object arguments", () => {
    expect(parseDirectCall('/call read_file {"path": "a.ts", "startLine": 2}')).toEqual({ name: "read_file", args: { path: "a.ts", startLine: 2 } });
  });

  it("treats missing arguments as {}", () => {
    expect(parseDirectCall("/call list_dir")).toEqual({ name: "list_dir", args: {} });
    expect(parseDirectCall("  /call list_dir {}  ")).toEqual({ name: "list_dir", args: {} });
  });

  it(`takes arguments ${JSON_DEPTH_MAX} levels deep`, () => {
    const text = `/call read_file ${'{"a":'.repeat(JSON_DEPTH_MAX)}1${"}".repeat(JSON_DEPTH_MAX)}`;
    expect(parseDirectCall(text)?.name).toBe("read_file");
  });

  const deep = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
  it.each([
    ["10,000 deep", deep(10_000), `The arguments after /call read_file are nested more than ${JSON_DEPTH_MAX} levels deep.`],
    ["one level too deep", deep(JSON_DEPTH_MAX + 1), `The arguments after /call read_file are nested more than ${JSON_DEPTH_MAX} levels deep.`],
    // Each "\u0001" is one character that JSON.stringify writes as six again: 33,334 × 6 + 8 = 200,012.
    ["longer than the send limit as JSON", `{"s":"${"\\u0001".repeat(Math.ceil(SESSION_TEXT_MAX / 6))}"}`, "The arguments after /call read_file are 200,012 characters as JSON; the limit is 200,000."],
  ])("refuses arguments %s with the bounds of session.callTool", (_what, json, message) => {
    expect(() => parseDirectCall(`/call read_file ${json}`)).toThrow(expect.objectContaining({ code: "bad_input:session", message }));
  });

  it("leaves ordinary messages alone", () => {
    expect(parseDirectCall("please /call me later")).toBeNull();
    expect(parseDirectCall("hello")).toBeNull();
  });

  it.each([
    ["/call", /Usage: \/call <tool>/],
    ["/call read_file {path: 1}", /not valid JSON/],
    ["/call read_file [1,2]", /must be a JSON object/],
    ["/call read_file 42", /must be a JSON object/],
  ])("explains bad input %s", (text, message) => {
    let caught: unknown;
    try {
      parseDirectCall(text);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(HostError);
    expect((caught as HostError).code).toBe("bad_input:session");
    expect((caught as HostError).message).toMatch(message);
  });
});
