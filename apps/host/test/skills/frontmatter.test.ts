import { describe, expect, it } from "vitest";
import { isBlankBlock, isFenceLine, splitFrontmatter } from "../../src/skills/frontmatter.js";
import { parseSkill } from "../../src/skills/parse.js";

const split = (text: string) => splitFrontmatter(text);
const reason = (text: string) => {
  const r = parseSkill(text);
  if (r.ok) throw new Error("expected a failure");
  return r.reason;
};

const MISSING = "missing frontmatter: the file must start with a --- block holding name and description";
const NOT_YAML = "the frontmatter must be YAML (the first line must be exactly ---)";
const NOT_CLOSED = "the frontmatter block is not closed (no --- line after it)";

describe("the frontmatter grammar (SKL-3)", () => {
  it("splits the block from the body at the fences", () => {
    expect(split("---\ndescription: d\n---\n# Body\n")).toEqual({ ok: true, block: "\ndescription: d", body: "# Body\n" });
    // The block starts with what is left of the opening line, so a YAML line number is the file's.
    expect(split("---  \na: 1\nb: 2\n---\nx")).toEqual({ ok: true, block: "  \na: 1\nb: 2", body: "x" });
  });

  it("takes a BOM and CRLF line ends; the body loses one \\r and one \\n after the fence, no more", () => {
    expect(split("\uFEFF---\r\ndescription: d\r\n---\r\n\r\nbody\r\n")).toEqual({ ok: true, block: "\r\ndescription: d\r", body: "\r\nbody\r\n" });
    expect(split("---\ndescription: d\n---\n\n\nbody")).toEqual({ ok: true, block: "\ndescription: d", body: "\n\nbody" });
    // Only one BOM is dropped: a second one is text before the fence.
    expect(split("\uFEFF\uFEFF---\ndescription: d\n---\nbody")).toEqual({ ok: false, reason: MISSING });
  });

  it("fence lines may carry trailing blanks; what follows a closing `---` starts the body", () => {
    expect(split("---\t \ndescription: d\n---   \nbody")).toEqual({ ok: true, block: "\t \ndescription: d", body: "   \nbody" });
    // The block ends at the first `\n---`, as gray-matter split it: a `----` line closes it too.
    expect(split("---\ndescription: d\n----\nmore: x\n---\nbody")).toEqual({ ok: true, block: "\ndescription: d", body: "-\nmore: x\n---\nbody" });
  });

  it("the closing fence may be the last line, with no line end", () => {
    expect(split("---\ndescription: d\n---")).toEqual({ ok: true, block: "\ndescription: d", body: "" });
    expect(split("---\r\ndescription: d\r\n---  ")).toEqual({ ok: true, block: "\r\ndescription: d\r", body: "  " });
  });

  it("an empty block is no fields (the description is then missing)", () => {
    expect(split("---\n---\nbody")).toEqual({ ok: true, block: "", body: "body" });
    expect(reason("---\n---\nbody")).toBe("description is required");
    expect(reason("---\n\n   \n---\nbody")).toBe("description is required");
  });

  it("a block of comments only is no fields, without being parsed", () => {
    expect(isBlankBlock("\n# a comment\n  # another\n\n")).toBe(true);
    expect(isBlankBlock("   \n\t\n")).toBe(true);
    expect(isBlankBlock("\n# a comment\ndescription: d")).toBe(false);
    expect(isBlankBlock("\ndescription: d # trailing")).toBe(false);
    expect(reason("---\n# only a comment\n---\nbody")).toBe("description is required");
  });

  it("refuses a language after the opening fence, and never hands it to another parser", () => {
    for (const first of ["---js", "---json", "---coffee", "---yaml", "---\u00a0x"]) {
      expect(split(`${first}\n{ "description": "x" }\n---\nbody`), first).toEqual({ ok: false, reason: first === "---\u00a0x" ? MISSING : NOT_YAML });
    }
    expect(split("--- yaml\ndescription: d\n---\nbody")).toEqual({ ok: false, reason: MISSING });
    expect(split("----\ndescription: d\n---\nbody")).toEqual({ ok: false, reason: NOT_YAML });
  });

  it("the first line must be the fence", () => {
    expect(split("")).toEqual({ ok: false, reason: MISSING });
    expect(split("\n---\ndescription: d\n---\n")).toEqual({ ok: false, reason: MISSING });
    expect(split(" ---\ndescription: d\n---\n")).toEqual({ ok: false, reason: MISSING });
    expect(split("# Title\n---\ndescription: d\n---\n")).toEqual({ ok: false, reason: MISSING });
  });

  it("an unclosed block is refused, whatever dashes it holds", () => {
    expect(split("---")).toEqual({ ok: false, reason: NOT_CLOSED });
    expect(split("---\n")).toEqual({ ok: false, reason: NOT_CLOSED });
    expect(split("---\ndescription: d\n")).toEqual({ ok: false, reason: NOT_CLOSED });
    expect(split("---\ndescription: d\n----\n--- x\n ---\n")).toEqual({ ok: false, reason: NOT_CLOSED });
  });

  it("fence lines", () => {
    for (const line of ["---", "--- ", "---\r", "---\t\r", "---  \u00a0"]) expect(isFenceLine(line), JSON.stringify(line)).toBe(true);
    for (const line of ["", "--", "----", " ---", "---x", "--- x", "-- -"]) expect(isFenceLine(line), JSON.stringify(line)).toBe(false);
  });
});
