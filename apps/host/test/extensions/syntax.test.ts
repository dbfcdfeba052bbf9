import { describe, expect, it } from "vitest";
import { EXTENSION_CODE_MAX } from "@seam/shared";
import { checkSyntax, formatSyntaxProblem } from "../../src/extensions/syntax.js";

describe("checkSyntax (EXT-1)", () => {
  it("accepts valid halves of both kinds", () => {
    expect(checkSyntax(`api.tools.register({ name: "t" }, async (a) => ({ ok: true }));\nlet n = 1;`, "host")).toBeNull();
    expect(checkSyntax(`const el = document.createElement("b");\nseam.root.append(el);\nseam.onMessage((m) => { el.textContent = JSON.stringify(m); });`, "browser")).toBeNull();
    expect(checkSyntax("", "host")).toBeNull();
  });

  it("reports errors on the first, a middle and the last line with the right line and column", () => {
    expect(checkSyntax("foo(}\nlet a = 1;\nlet b = 2;", "host")).toMatchObject({ half: "host", line: 1, column: 5, message: "Unexpected token '}'" });
    const middle = checkSyntax("let a = 1;\nlet b = 2;\nfoo(}\nlet c = 3;\nlet d = 4;", "browser");
    expect(middle).toEqual({ half: "browser", line: 3, column: 5, message: "Unexpected token '}'", excerpt: "  3 | foo(}\n          ^" });
    expect(formatSyntaxProblem(middle!)).toBe("browser half, line 3, column 5: Unexpected token '}'\n  3 | foo(}\n          ^");
    expect(checkSyntax("let a = 1;\r\nlet b = 2;\r\nlet = = 3", "host")).toMatchObject({ line: 3 });
    expect(checkSyntax("let a = 1;\nlet a = 2;", "host")).toMatchObject({ line: 2, message: "Identifier 'a' has already been declared" });
  });

  it("reports unterminated strings and templates", () => {
    const s = checkSyntax("let ok = 1;\nlet s = 'abc\nlet t = 2;", "host");
    expect(s).toMatchObject({ line: 2, column: 9 });
    const t = checkSyntax("let ok = 1;\nlet t = `abc\n\nmore", "host");
    expect(t).toMatchObject({ line: 4, message: expect.stringMatching(/Unexpected end of input.*unclosed string, template/) });
  });

  it("refuses top-level return, which a classic script does not allow", () => {
    expect(checkSyntax("api.log(1);\nreturn 1;", "host")).toMatchObject({ line: 2, column: 1, message: "Illegal return statement" });
  });

  it("reports static import/export and says the halves are scripts, not modules", () => {
    const host = checkSyntax('import x from "y";\napi.log(x);', "host");
    expect(host).toMatchObject({ line: 1, column: 1 });
    expect(host?.message).toMatch(/import statement outside a module.*classic script, not a module.*global `api`/);
    expect(checkSyntax("export const a = 1;", "browser")?.message).toMatch(/not a module.*global `seam`/);
    expect(checkSyntax("await Promise.resolve();", "host")?.message).toMatch(/not a module/);
  });

  it("refuses code over EXTENSION_CODE_MAX with the limit in the message", () => {
    const p = checkSyntax(`// ${"x".repeat(EXTENSION_CODE_MAX)}`, "host");
    expect(p).toMatchObject({ line: 0, column: 0, excerpt: "" });
    expect(p?.message).toMatch(/limit is 200,000/);
    expect(formatSyntaxProblem(p!)).toMatch(/^host half: the host half has 200,003 characters; the limit is 200,000$/);
    expect(checkSyntax(`//${"x".repeat(EXTENSION_CODE_MAX - 2)}`, "host")).toBeNull();
  });

  it("cuts a long offending line to a window around the column", () => {
    const p = checkSyntax(`let a = [${"1,".repeat(300)} }`, "host");
    const [source, caret] = p!.excerpt.split("\n");
    expect(source!.length).toBeLessThanOrEqual("  1 | ".length + 200 + 2);
    expect(source![caret!.indexOf("^")]).toBe("}");
  });

  it("keeps tabs in the caret line so it lines up", () => {
    const p = checkSyntax("\tfoo(}", "host");
    expect(p).toMatchObject({ column: 6, excerpt: "  1 | \tfoo(}\n      \t    ^" });
  });

  it("reports unparseably deep nesting instead of throwing", () => {
    expect(checkSyntax("(".repeat(200_000), "host")?.message).toMatch(/too deeply nested/);
  });

  it("never runs the code", () => {
    const g = globalThis as { seamSyntaxRan?: boolean };
    expect(checkSyntax("globalThis.seamSyntaxRan = true; throw new Error('ran');", "host")).toBeNull();
    expect(checkSyntax("while (true) {}", "host")).toBeNull();
    expect(g.seamSyntaxRan).toBeUndefined();
  });
});
