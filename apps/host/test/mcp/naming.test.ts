import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { TOOL_NAME } from "../../src/agent/registry.js";
import { publicToolName } from "../../src/mcp/naming.js";

const hash12 = (server: string, raw: string) => createHash("sha256").update(`${server}\0${raw}`).digest("hex").slice(0, 12);

describe("publicToolName (MCP-2)", () => {
  it("is mcp__<server>__<raw> when nothing needs changing", () => {
    expect(publicToolName("everything", "echo")).toBe("mcp__everything__echo");
    expect(publicToolName("everything", "get-sum")).toBe("mcp__everything__get-sum");
    expect(publicToolName("a_b", "C-9_x")).toBe("mcp__a_b__C-9_x");
  });

  it("replaces characters outside [A-Za-z0-9_-] and appends the identity hash", () => {
    const name = publicToolName("fs", "read.file");
    expect(name).toBe(`mcp__fs__read_file_${hash12("fs", "read.file")}`);
    expect(name).toMatch(TOOL_NAME);
  });

  it("hashes the unmodified identity, so names that normalize alike stay apart", () => {
    const raws = ["a.b", "a b", "a/b", "a:b", "a_b"];
    const names = raws.map((raw) => publicToolName("s", raw));
    expect(new Set(names).size).toBe(raws.length);
    expect(names[4]).toBe("mcp__s__a_b"); // the clean one keeps its plain name
    for (const name of names.slice(0, 4)) expect(name).toMatch(/^mcp__s__a_b_[0-9a-f]{12}$/);
  });

  it("replaces each non-ASCII character (code point) with one underscore", () => {
    expect(publicToolName("s", "天気")).toBe(`mcp__s__${"__"}_${hash12("s", "天気")}`);
    expect(publicToolName("s", "go😀")).toBe(`mcp__s__go${"_"}_${hash12("s", "go😀")}`);
    expect(publicToolName("s", "café")).toMatch(TOOL_NAME);
    expect(publicToolName("s", "cafe\u0301")).not.toBe(publicToolName("s", "café"));
  });

  it("keeps a name of exactly 64 characters and hashes one of 65", () => {
    const raw64 = "x".repeat(64 - "mcp__s__".length);
    expect(publicToolName("s", raw64)).toBe(`mcp__s__${raw64}`);
    expect(publicToolName("s", raw64)).toHaveLength(64);
    const raw65 = `${raw64}y`;
    const long = publicToolName("s", raw65);
    expect(long).toHaveLength(64);
    expect(long).toBe(`${`mcp__s__${raw65}`.slice(0, 51)}_${hash12("s", raw65)}`);
  });

  it("cuts long names to 51 characters plus _ and 12 hex, and keeps long names with a shared prefix apart", () => {
    const a = publicToolName("server", `${"tool_".repeat(20)}alpha`);
    const b = publicToolName("server", `${"tool_".repeat(20)}beta`);
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a.slice(0, 51)).toBe(b.slice(0, 51));
    expect(a).not.toBe(b);
    expect(a).toMatch(TOOL_NAME);
  });

  it("is pure: the same pair gives the same name in any order, and it differs by server", () => {
    const pairs: [string, string][] = [["a", "x.y"], ["b", "x.y"], ["a", "z"], ["a", "x.y"]];
    const first = pairs.map(([s, r]) => publicToolName(s, r));
    const reversed = [...pairs].reverse().map(([s, r]) => publicToolName(s, r)).reverse();
    expect(reversed).toEqual(first);
    expect(first[0]).toBe(first[3]);
    expect(first[0]).not.toBe(first[1]);
  });

  it("is idempotent on its own output as a raw name only when nothing was replaced", () => {
    // A hashed name is made of legal characters, so naming it again under the same server is stable in shape.
    const once = publicToolName("s", "a.b");
    expect(once).toMatch(TOOL_NAME);
    expect(publicToolName("s", "echo")).toBe(publicToolName("s", "echo"));
    expect(publicToolName("s", once)).toBe(publicToolName("s", once));
  });

  it("hashes an empty or all-illegal raw name too, never producing an invalid tool name", () => {
    for (const raw of ["", " ", "...", "\u0000", "名".repeat(80)]) expect(publicToolName("srv", raw)).toMatch(TOOL_NAME);
    expect(publicToolName("srv", "")).toBe("mcp__srv__");
  });
});
