import { describe, expect, it } from "vitest";
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
