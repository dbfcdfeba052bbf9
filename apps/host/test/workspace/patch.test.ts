import { applyPatch, structuredPatch } from "diff";
import { describe, expect, it } from "vitest";
import { unifiedPatch } from "../../src/workspace/patch.js";

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
}

function mutate(text: string, next: () => number): string {
  const lines = text.split("\n");
  const edits = 1 + Math.floor(next() * 3);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(next() * (lines.length + 1));
    const kind = next();
    if (kind < 0.33) lines.splice(at, 1);
    else if (kind < 0.66) lines.splice(at, 0, `new ${Math.floor(next() * 5)}`);
    else lines[Math.min(at, lines.length - 1)] = `changed ${Math.floor(next() * 5)}`;
  }
  return lines.join("\n");
}

describe("unified diffs (CODE-1)", () => {
  it("CODE-1: the trimmed diff applies back and is as small as a diff of the whole texts", () => {
    const next = random(7);
    for (let round = 0; round < 400; round++) {
      const n = round % 10 === 0 ? 1500 + Math.floor(next() * 500) : Math.floor(next() * 40);
      const before = Array.from({ length: n }, () => `line ${Math.floor(next() * 6)}`).join("\n") + (next() < 0.5 ? "\n" : "");
      const after = mutate(before, next);
      const patch = unifiedPatch("f.txt", before, after);
      const label = JSON.stringify({ before, after });
      if (before === after) {
        expect(patch.diff, label).toBe("");
        continue;
      }
      expect(applyPatch(before, patch.diff), label).toBe(after);
      const full = structuredPatch("a", "b", before, after).hunks.flatMap((h) => h.lines);
      expect(patch.added + patch.removed, label).toBe(full.filter((l) => l.startsWith("+") || l.startsWith("-")).length);
    }
  });

  it("CODE-1: line numbers in hunks are those of the whole file", () => {
    const before = Array.from({ length: 10_000 }, (_, i) => `line ${i}`).join("\n") + "\n";
    const after = before.replace("line 5000\n", "line five thousand\n");
    const patch = unifiedPatch("big.txt", before, after);
    expect(patch.diff).toBe("--- a/big.txt\n+++ b/big.txt\n@@ -4998,7 +4998,7 @@\n line 4997\n line 4998\n line 4999\n-line 5000\n+line five thousand\n line 5001\n line 5002\n line 5003\n");
  });
});
