import { createRequire } from "node:module";
import { lineCount } from "./text.js";

// jsdiff loads with the first diff (an edit), not at host start.
let jsdiff: typeof import("diff") | undefined;
const lib = () => (jsdiff ??= createRequire(import.meta.url)("diff") as typeof import("diff"));

export const DIFF_MAX_CHARS = 200_000;
const CONTEXT = 3;
/** A diff that takes longer is given up (a rewrite of a large file); the counts still come from line totals. */
const DIFF_TIMEOUT_MS = 1_000;
/** Common head and tail are found comparing this many characters at a time. */
const CHUNK = 4096;

export interface Patch {
  /** Unified diff of the "\n"-normalised texts; empty when nothing changed or it could not be computed in time. */
  diff: string;
  /** Cut at `maxChars` (whole lines) or not computed at all. */
  truncated: boolean;
  added: number;
  removed: number;
}

/**
 * A unified diff (jsdiff) of two "\n"-ended texts. Only the lines between the common head and tail
 * (plus context) go through the diff, so a small edit in a large file costs little.
 */
export function unifiedPatch(path: string, before: string | null, after: string, maxChars: number = DIFF_MAX_CHARS): Patch {
  const old = before ?? "";
  const { from, tail } = changedSpan(old, after);
  const oldPart = old.slice(from, old.length - tail);
  const newPart = after.slice(from, after.length - tail);
  const { FILE_HEADERS_ONLY, formatPatch, structuredPatch } = lib();
  const patch = structuredPatch(before === null ? "/dev/null" : `a/${path}`, `b/${path}`, oldPart, newPart, undefined, undefined, { context: CONTEXT, timeout: DIFF_TIMEOUT_MS });
  if (!patch) return { diff: "", truncated: true, added: lineCount(newPart), removed: lineCount(oldPart) };
  const offset = newlines(old, 0, from);
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    hunk.oldStart += offset;
    hunk.newStart += offset;
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
  }
  const diff = patch.hunks.length === 0 ? "" : formatPatch(patch, FILE_HEADERS_ONLY);
  const cut = capLines(diff, maxChars);
  return { diff: cut.text, truncated: cut.cut, added, removed };
}

/**
 * Where two texts differ, in whole lines plus CONTEXT lines each side: `from` is where the lines to
 * diff start (the same in both), `tail` how many characters at the end both share and can skip.
 */
function changedSpan(a: string, b: string): { from: number; tail: number } {
  const most = Math.min(a.length, b.length);
  let head = 0;
  while (head + CHUNK <= most && a.slice(head, head + CHUNK) === b.slice(head, head + CHUNK)) head += CHUNK;
  while (head < most && a.charCodeAt(head) === b.charCodeAt(head)) head++;
  let tail = 0;
  while (tail + CHUNK <= most - head && a.slice(a.length - tail - CHUNK, a.length - tail) === b.slice(b.length - tail - CHUNK, b.length - tail)) tail += CHUNK;
  while (tail < most - head && a.charCodeAt(a.length - 1 - tail) === b.charCodeAt(b.length - 1 - tail)) tail++;

  let from = head === 0 ? 0 : a.lastIndexOf("\n", head - 1) + 1;
  for (let k = 0; k < CONTEXT && from > 0; k++) from = from === 1 ? 0 : a.lastIndexOf("\n", from - 2) + 1;
  // The shared tail starts inside a line; skip only the lines after it, less CONTEXT lines.
  let cut = a.indexOf("\n", a.length - tail);
  for (let k = 0; k < CONTEXT && cut !== -1; k++) cut = a.indexOf("\n", cut + 1);
  return { from, tail: cut === -1 ? 0 : a.length - cut - 1 };
}

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Keeps whole lines of `text` within `maxChars`. */
export function capLines(text: string, maxChars: number): { text: string; cut: boolean; shownLines: number; totalLines: number } {
  const totalLines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (text.length <= maxChars) return { text, cut: false, shownLines: totalLines, totalLines };
  const end = text.lastIndexOf("\n", maxChars);
  const kept = end <= 0 ? "" : text.slice(0, end + 1);
  return { text: kept, cut: true, shownLines: kept.split("\n").length - 1, totalLines };
}
