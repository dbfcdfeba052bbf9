import { describe, expect, it } from "vitest";
import { diffStats, lineDiff, withContext } from "@/app/_components/extensions/line-diff";

describe("lineDiff", () => {
  it("marks added and removed lines with their numbers", () => {
    const lines = lineDiff("a\nb\nc\n", "a\nB\nc\nd");
    expect(lines).toEqual([
      { kind: "same", text: "a", oldNo: 1, newNo: 1 },
      { kind: "del", text: "b", oldNo: 2 },
      { kind: "add", text: "B", newNo: 2 },
      { kind: "same", text: "c", oldNo: 3, newNo: 3 },
      { kind: "add", text: "d", newNo: 4 },
    ]);
    expect(diffStats(lines)).toEqual({ added: 2, removed: 1 });
  });

  it("ignores a missing final newline and CRLF", () => {
    expect(diffStats(lineDiff("x\r\ny", "x\ny\n"))).toEqual({ added: 0, removed: 0 });
  });

  it("treats an absent half as empty", () => {
    expect(diffStats(lineDiff("", "one\ntwo\n"))).toEqual({ added: 2, removed: 0 });
    expect(diffStats(lineDiff("one\n", ""))).toEqual({ added: 0, removed: 1 });
  });
});

describe("withContext", () => {
  it("folds long unchanged runs and keeps context around changes", () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    const after = before.replace("line 10", "line ten");
    const rows = withContext(lineDiff(before, after), 2);
    expect(rows[0]).toEqual({ kind: "skip", count: 7 });
    expect(rows.filter((r) => r.kind !== "skip").map((r) => ("text" in r ? r.text : ""))).toEqual([
      "line 8", "line 9", "line 10", "line ten", "line 11", "line 12",
    ]);
    expect(rows[rows.length - 1]).toEqual({ kind: "skip", count: 8 });
  });
});
