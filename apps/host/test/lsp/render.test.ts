import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { QueryResult } from "../../src/lsp/pool.js";
import { renderQuery } from "../../src/lsp/render.js";
import { hoverMarkdown, locationsOf } from "../../src/lsp/results.js";

const range = (line: number, character: number, length = 3) => ({ start: { line, character }, end: { line, character: character + length } });

describe("LSP results → normalized (LSP-1)", () => {
  it("takes Location, Location[] and LocationLink[] (pointing at the target's name)", () => {
    const loc = { uri: "file:///a.ts", range: range(1, 2) };
    expect(locationsOf(loc)).toEqual([loc]);
    expect(locationsOf([loc, loc])).toHaveLength(2);
    expect(locationsOf(null)).toEqual([]);
    expect(locationsOf([{ nonsense: true }, 3, "x"])).toEqual([]);
    const link = { targetUri: "file:///b.ts", targetRange: range(0, 0, 40), targetSelectionRange: range(0, 16, 3) };
    expect(locationsOf([link])).toEqual([{ uri: "file:///b.ts", range: range(0, 16, 3) }]);
  });

  it("normalizes hover contents to Markdown", () => {
    expect(hoverMarkdown({ contents: { kind: "markdown", value: "**x**" } })).toBe("**x**");
    expect(hoverMarkdown({ contents: { kind: "plaintext", value: "a < b" } })).toBe("```\na < b\n```");
    expect(hoverMarkdown({ contents: "plain *md*" })).toBe("plain *md*");
    expect(hoverMarkdown({ contents: [{ language: "python", value: "def f()" }, "Docs."] })).toBe("```python\ndef f()\n```\n\n---\n\nDocs.");
    expect(hoverMarkdown({ contents: { language: "ts", value: "const s = `a ``` b`" } })).toBe("````ts\nconst s = `a ``` b`\n````");
    expect(hoverMarkdown({ contents: [] })).toBeNull();
    expect(hoverMarkdown({ contents: { kind: "markdown", value: "  " } })).toBeNull();
    expect(hoverMarkdown(null)).toBeNull();
  });
});

describe("rendering (LSP-3)", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "seam-lsp-render-")));
  const other = realpathSync(mkdtempSync(join(tmpdir(), "seam-lsp-render-out-")));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(other, { recursive: true, force: true });
  });
  const file = join(root, "a.ts");
  const source = Array.from({ length: 300 }, (_, i) => `    const v${i} = ${i};`).join("\n");
  writeFileSync(file, source);
  const lib = join(other, "lib.d.ts");
  writeFileSync(lib, "// lib\r\ndeclare const PI: number;\r\n");
  const result = (locations: QueryResult["locations"]): QueryResult => ({ operation: "findReferences", serverId: "x", root, file, source, locations, hover: null, mayBeIncomplete: false });
  const uri = pathToFileURL(file).href;
  const at = { filePath: "a.ts", line: 1, character: 11 };

  it("renders path:line:col (1-based) with the trimmed line; canonical keeps indentation so columns index into it", async () => {
    const r = await renderQuery(result([{ uri, range: range(2, 10) }]), at);
    expect(r.rendered).toBe("findReferences a.ts:1:11 → 1 reference:\na.ts:3:11: const v2 = 2;");
    expect(r.canonical).toEqual({ operation: "findReferences", truncated: false, locations: [{ path: "a.ts", line: 3, character: 11, endLine: 3, endCharacter: 14, excerpt: "    const v2 = 2;" }] });
  });

  it("caps locations (default 100) and says how many were left out", async () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ uri, range: range(i, 10) }));
    const r = await renderQuery(result(many), at);
    expect(r.canonical.locations).toHaveLength(100);
    expect(r.canonical.truncated).toBe(true);
    expect(r.rendered).toContain("→ 250 references, showing the first 100:");
    expect(r.rendered).toContain("[150 more references not shown (limit 100 locations).");
  });

  it("caps rendered characters", async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ uri, range: range(i, 10) }));
    const r = await renderQuery(result(many), at, { maxLocations: 100, maxChars: 1_000 });
    expect(r.rendered.length).toBeLessThanOrEqual(1_000);
    expect(r.canonical.truncated).toBe(true);
    expect(r.rendered).toMatch(/more references not shown \(limit 1000 characters\)/);
  });

  it("workspace files first; outside ones keep their absolute path and get one excerpt line; duplicates dropped; other schemes as is", async () => {
    const r = await renderQuery(result([
      { uri: pathToFileURL(lib).href, range: range(1, 14, 2) },
      { uri: "untitled:Untitled-1", range: range(0, 0) },
      { uri, range: range(5, 10) },
      { uri, range: range(5, 10) },
    ]), at);
    expect(r.canonical.locations.map((l) => [l.path, l.line, l.excerpt])).toEqual([
      ["a.ts", 6, "    const v5 = 5;"],
      [lib, 2, "declare const PI: number;"],
      ["untitled:Untitled-1", 1, ""],
    ]);
  });

  it("empty results and empty hover say so plainly", async () => {
    const none = await renderQuery({ ...result([]), operation: "goToDefinition" }, at);
    expect(none.rendered).toMatch(/^goToDefinition a\.ts:1:11: no definition found/);
    expect(none.canonical).toEqual({ operation: "goToDefinition", locations: [], truncated: false });
    const hover = await renderQuery({ ...result([]), operation: "hover", hover: null }, at);
    expect(hover.rendered).toMatch(/^hover a\.ts:1:11: the language server has no hover information/);
    const text = await renderQuery({ ...result([]), operation: "hover", hover: "```ts\nconst v0: 0\n```" }, at);
    expect(text.canonical).toEqual({ operation: "hover", locations: [], hover: { markdown: "```ts\nconst v0: 0\n```" }, truncated: false });
    expect(text.rendered).toBe("hover a.ts:1:11:\n```ts\nconst v0: 0\n```");
  });
});
