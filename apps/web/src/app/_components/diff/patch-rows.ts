import { parsePatch } from "diff";
import type { DiffLine, DiffRow } from "../extensions/line-diff";

/** Unchanged runs inside a hunk longer than this fold to a "skip" row (CONTEXT lines kept on each side). */
const CONTEXT = 3;

export interface PatchView {
  rows: DiffRow[];
  added: number;
  removed: number;
  /** Whether some unchanged lines inside the hunks were folded (they can be shown). */
  folded: boolean;
}

/**
 * The rows of a unified patch (what edit_file / write_file return, and what an approval card shows):
 * the unchanged lines between hunks are unknown and show as "skip" rows; long unchanged runs inside a
 * hunk fold unless `expanded`. A text that is not a patch reads as its lines, coloured by their sign.
 */
export function patchRows(patch: string, expanded = false): PatchView {
  const lines = parseLines(patch);
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === "add") added++;
    else if (l.kind === "del") removed++;
  }
  const rows: DiffRow[] = [];
  let folded = false;
  let run: DiffLine[] = [];
  const flushRun = (atStart: boolean, atEnd: boolean) => {
    const keepHead = atStart ? 0 : CONTEXT;
    const keepTail = atEnd ? 0 : CONTEXT;
    if (!expanded && run.length > keepHead + keepTail + 1) {
      rows.push(...run.slice(0, keepHead), { kind: "skip", count: run.length - keepHead - keepTail }, ...run.slice(run.length - keepTail));
      folded = true;
    } else {
      rows.push(...run);
    }
    run = [];
  };
  let first = true;
  for (const l of lines) {
    if (l.kind === "skip") {
      flushRun(first, true);
      rows.push(l);
      first = true;
    } else if (l.kind === "same") {
      run.push(l);
    } else {
      flushRun(first, false);
      first = false;
      rows.push(l);
    }
  }
  flushRun(first, true);
  return { rows, added, removed, folded };
}

/** The patch's lines in order, with a skip row for each gap between hunks (and before the first). */
function parseLines(patch: string): (DiffLine | { kind: "skip"; count: number })[] {
  let files: ReturnType<typeof parsePatch>;
  try {
    files = parsePatch(patch.replace(/\r\n/g, "\n"));
  } catch {
    files = [];
  }
  const hunks = files.flatMap((f) => f.hunks);
  if (hunks.length === 0) return looseLines(patch);
  const out: (DiffLine | { kind: "skip"; count: number })[] = [];
  let nextOld = 1;
  for (const h of hunks) {
    const gap = h.oldStart - nextOld;
    // A new file's hunk starts at 0.
    if (gap > 0) out.push({ kind: "skip", count: gap });
    let oldNo = Math.max(h.oldStart, 1) - (h.oldLines === 0 ? 0 : 1);
    let newNo = Math.max(h.newStart, 1) - (h.newLines === 0 ? 0 : 1);
    for (const raw of h.lines) {
      const sign = raw[0];
      const text = raw.slice(1);
      if (sign === "+") out.push({ kind: "add", text, newNo: ++newNo });
      else if (sign === "-") out.push({ kind: "del", text, oldNo: ++oldNo });
      else if (sign === " ") out.push({ kind: "same", text, oldNo: ++oldNo, newNo: ++newNo });
      // "\ No newline at end of file" is not a line of the file.
    }
    nextOld = h.oldStart + h.oldLines;
  }
  return out;
}

/** Not a parsable patch: each line by its first character. */
function looseLines(text: string): DiffLine[] {
  let oldNo = 0;
  let newNo = 0;
  return text
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("+++") && !l.startsWith("---") && !l.startsWith("@@"))
    .map((l): DiffLine => {
      if (l.startsWith("+")) return { kind: "add", text: l.slice(1), newNo: ++newNo };
      if (l.startsWith("-")) return { kind: "del", text: l.slice(1), oldNo: ++oldNo };
      return { kind: "same", text: l.startsWith(" ") ? l.slice(1) : l, oldNo: ++oldNo, newNo: ++newNo };
    });
}

export type SideCell = { kind: "same" | "del" | "add"; text: string; no: number } | null;
export type SideRow = { kind: "pair"; left: SideCell; right: SideCell } | { kind: "skip"; count: number };

/** Rows for a side-by-side view: removed lines on the left next to the lines that replaced them. */
export function sideBySide(rows: DiffRow[]): SideRow[] {
  const out: SideRow[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const flush = () => {
    const n = Math.max(dels.length, adds.length);
    for (let i = 0; i < n; i++) {
      const d = dels[i];
      const a = adds[i];
      out.push({
        kind: "pair",
        left: d && d.kind === "del" ? { kind: "del", text: d.text, no: d.oldNo } : null,
        right: a && a.kind === "add" ? { kind: "add", text: a.text, no: a.newNo } : null,
      });
    }
    dels = [];
    adds = [];
  };
  for (const r of rows) {
    if (r.kind === "del") {
      if (adds.length) flush();
      dels.push(r);
    } else if (r.kind === "add") {
      adds.push(r);
    } else {
      flush();
      if (r.kind === "skip") out.push(r);
      else out.push({ kind: "pair", left: { kind: "same", text: r.text, no: r.oldNo }, right: { kind: "same", text: r.text, no: r.newNo } });
    }
  }
  flush();
  return out;
}
