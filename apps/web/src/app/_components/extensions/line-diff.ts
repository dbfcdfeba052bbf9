import { diffLines } from "diff";

/** One line of a unified diff, with its numbers in the old and the new text. */
export type DiffLine =
  | { kind: "same"; text: string; oldNo: number; newNo: number }
  | { kind: "del"; text: string; oldNo: number }
  | { kind: "add"; text: string; newNo: number };

export type DiffRow = DiffLine | { kind: "skip"; count: number };

/** A trailing newline (or its absence) is not a change worth showing; CRLF reads like LF. */
function normalize(text: string): string {
  const t = text.replace(/\r\n?/g, "\n");
  return t === "" || t.endsWith("\n") ? t : `${t}\n`;
}

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** A line diff of two sources (jsdiff `diffLines`), every line kept. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const out: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  for (const change of diffLines(normalize(before), normalize(after))) {
    for (const text of splitLines(change.value)) {
      if (change.added) out.push({ kind: "add", text, newNo: ++newNo });
      else if (change.removed) out.push({ kind: "del", text, oldNo: ++oldNo });
      else out.push({ kind: "same", text, oldNo: ++oldNo, newNo: ++newNo });
    }
  }
  return out;
}

export function diffStats(lines: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === "add") added++;
    else if (l.kind === "del") removed++;
  }
  return { added, removed };
}

/** Unchanged runs longer than `2 * context` lines collapse to a "skip" row, keeping `context` lines around each change. */
export function withContext(lines: DiffLine[], context = 3): DiffRow[] {
  const keep = Array.from({ length: lines.length }, () => false);
  lines.forEach((l, i) => {
    if (l.kind === "same") return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep[j] = true;
  });
  const rows: DiffRow[] = [];
  let skipped = 0;
  lines.forEach((l, i) => {
    if (keep[i]) {
      if (skipped) rows.push({ kind: "skip", count: skipped });
      skipped = 0;
      rows.push(l);
    } else {
      skipped++;
    }
  });
  if (skipped) rows.push({ kind: "skip", count: skipped });
  return rows;
}
