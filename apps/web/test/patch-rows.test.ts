import { createPatch } from "diff";
import { describe, expect, it } from "vitest";
import { patchRows, sideBySide } from "@/app/_components/diff/patch-rows";

const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`);

describe("patchRows", () => {
  it("reads a unified patch with line numbers and counts", () => {
    const view = patchRows(createPatch("a.ts", "a\nb\nc\n", "a\nB\nc\nd\n"));
    expect(view.added).toBe(2);
    expect(view.removed).toBe(1);
    expect(view.rows).toEqual([
      { kind: "same", text: "a", oldNo: 1, newNo: 1 },
      { kind: "del", text: "b", oldNo: 2 },
      { kind: "add", text: "B", newNo: 2 },
      { kind: "same", text: "c", oldNo: 3, newNo: 3 },
      { kind: "add", text: "d", newNo: 4 },
    ]);
  });

  it("shows the unchanged lines before and between hunks as skip rows", () => {
    const before = lines(40).join("\n") + "\n";
    const after = before.replace("line 10\n", "line ten\n").replace("line 30\n", "line thirty\n");
    const { rows } = patchRows(createPatch("f.txt", before, after));
    expect(rows[0]).toEqual({ kind: "skip", count: 5 });
    const skips = rows.filter((r) => r.kind === "skip");
    expect(skips).toEqual([{ kind: "skip", count: 5 }, { kind: "skip", count: 11 }]);
    expect(rows.find((r) => r.kind === "add" && r.text === "line thirty")).toEqual({ kind: "add", text: "line thirty", newNo: 30 });
  });

  it("folds long unchanged runs inside a hunk unless expanded", () => {
    const before = lines(30).join("\n") + "\n";
    const after = before.replace("line 1\n", "line one\n").replace("line 30\n", "line thirty\n");
    const patch = createPatch("f.txt", before, after, "", "", { context: 20 });
    const folded = patchRows(patch);
    expect(folded.folded).toBe(true);
    expect(folded.rows.some((r) => r.kind === "skip" && r.count === 22)).toBe(true);
    const all = patchRows(patch, true);
    expect(all.folded).toBe(false);
    expect(all.rows.filter((r) => r.kind === "same")).toHaveLength(28);
  });

  it("a new file is all additions", () => {
    const view = patchRows(createPatch("new.md", "", "# Title\nbody\n"));
    expect(view.rows).toEqual([
      { kind: "add", text: "# Title", newNo: 1 },
      { kind: "add", text: "body", newNo: 2 },
    ]);
  });

  it("degrades to signed lines when the text is not a patch", () => {
    const view = patchRows("+added\n-removed\n kept");
    expect(view.added).toBe(1);
    expect(view.removed).toBe(1);
  });
});

describe("sideBySide", () => {
  it("pairs removed lines with the lines that replaced them", () => {
    const { rows } = patchRows(createPatch("a.ts", "a\nb\nc\n", "a\nB\nB2\nc\n"));
    expect(sideBySide(rows)).toEqual([
      { kind: "pair", left: { kind: "same", text: "a", no: 1 }, right: { kind: "same", text: "a", no: 1 } },
      { kind: "pair", left: { kind: "del", text: "b", no: 2 }, right: { kind: "add", text: "B", no: 2 } },
      { kind: "pair", left: null, right: { kind: "add", text: "B2", no: 3 } },
      { kind: "pair", left: { kind: "same", text: "c", no: 3 }, right: { kind: "same", text: "c", no: 4 } },
    ]);
  });
});
