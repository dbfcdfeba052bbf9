import { HostError } from "../core/errors.js";
import { closestWindow } from "./closest.js";
import { eolOf, lineAt } from "./text.js";

export interface Edit { old_string: string; new_string: string; replace_all?: boolean }

const MAX_LISTED_MATCHES = 20;
const MAX_SHOWN_LINES = 30;
const MAX_SHOWN_CHARS = 300;
/** Below this mean line similarity nothing is offered as a "closest match". */
const MIN_CLOSEST_SCORE = 0.4;
const READ_FILE_PREFIX = /^ *\d+\t/;

/**
 * Applies `edits` in order to `raw` (a file's text without BOM, line endings as on disk) and returns
 * the new text, or throws for the first edit that cannot apply, so nothing is written. Matching works
 * on "\n" line ends; the text keeps its own line endings (a mixed file keeps each line's).
 */
export function applyEdits(raw: string, edits: readonly Edit[], shown: string): string {
  const { eol, mixed } = eolOf(raw);
  let result: string;
  if (!mixed) {
    const original = eol === "\r\n" ? raw.replaceAll("\r\n", "\n") : raw;
    let text = original;
    edits.forEach((edit, index) => {
      const { old, replacement } = strings(edit, index, edits.length, shown);
      const at = locate(text, old, edit.replace_all === true, { index, count: edits.length, shown, original });
      text = splice(text, at, old.length, () => replacement);
    });
    result = eol === "\r\n" ? text.replaceAll("\n", "\r\n") : text;
  } else {
    // Mixed endings: find matches on the normalised text, then replace the same span of the raw text,
    // using the ending found in that span, so untouched lines keep theirs.
    const original = raw.replaceAll("\r\n", "\n");
    result = raw;
    edits.forEach((edit, index) => {
      const { old, replacement } = strings(edit, index, edits.length, shown);
      const norm = result.replaceAll("\r\n", "\n");
      const at = locate(norm, old, edit.replace_all === true, { index, count: edits.length, shown, original });
      const spans = rawSpans(result, at, old.length);
      result = spliceSpans(result, spans, (span) => {
        const piece = result.slice(span.start, span.end);
        const local = piece.includes("\r\n") ? "\r\n" : piece.includes("\n") ? "\n" : eol;
        return local === "\r\n" ? replacement.replaceAll("\n", "\r\n") : replacement;
      });
    });
  }
  if (result === raw) throw new HostError("bad_input:workspace", `These edits leave ${shown} unchanged. Check new_string against the file.`, { reason: "no_change" });
  return result;
}

interface Where { index: number; count: number; shown: string; original: string }

const label = (index: number, count: number) => (count === 1 ? "" : `Edit ${index + 1} of ${count}: `);
const unchanged = "No edit was applied; the file is unchanged.";

function strings(edit: Edit, index: number, count: number, shown: string): { old: string; replacement: string } {
  const old = edit.old_string.replaceAll("\r\n", "\n");
  const replacement = edit.new_string.replaceAll("\r\n", "\n");
  if (old === "") {
    throw new HostError("bad_input:workspace", `${label(index, count)}old_string is empty. Quote the exact text to replace (use write_file to create or rewrite a whole file). ${unchanged}`, { reason: "empty_edit" });
  }
  if (old === replacement) {
    throw new HostError("bad_input:workspace", `${label(index, count)}old_string and new_string are the same, so this edit changes nothing in ${shown}. ${unchanged}`, { reason: "no_change" });
  }
  return { old, replacement };
}

/** Offsets of the non-overlapping matches of `old` in `text`; throws unless it is found exactly once (or replace_all). */
function locate(text: string, old: string, all: boolean, where: Where): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(old); i !== -1; i = text.indexOf(old, i + old.length)) at.push(i);
  if (at.length === 0) throw notFound(text, old, where);
  if (at.length > 1 && !all) {
    const lines = at.slice(0, MAX_LISTED_MATCHES).map((i) => lineAt(text, i));
    const more = at.length > lines.length ? ` and ${at.length - lines.length} more` : "";
    const after = where.index > 0 ? " (in the text after the earlier edits)" : "";
    throw new HostError(
      "bad_input:workspace",
      `${label(where.index, where.count)}old_string was found ${at.length} times in ${where.shown}, at lines ${lines.join(", ")}${more}${after}. ` +
        `Include more surrounding lines so it matches exactly once, or set replace_all: true to replace every occurrence. ${unchanged}`,
      { reason: "ambiguous_match", matches: at.length, lines },
    );
  }
  return at;
}

function notFound(text: string, old: string, where: Where): HostError {
  const hints: string[] = [];
  const wanted = old.split("\n");
  if (wanted.length > 1 && wanted.at(-1) === "") wanted.pop();
  if (wanted.every((line) => READ_FILE_PREFIX.test(line))) hints.push("old_string seems to include read_file's line-number prefixes; quote the file's text without them.");
  if (where.index > 0 && where.original.includes(old)) hints.push("It is in the file, but an earlier edit in this call changed it (edits apply in order).");
  const lines = text.split("\n");
  const best = closestWindow(lines, wanted);
  if (best && best.score >= MIN_CLOSEST_SCORE) {
    const shown = lines.slice(best.start, best.start + Math.min(best.length, MAX_SHOWN_LINES)).map((line, i) => {
      const body = line.endsWith("\r") ? line.slice(0, -1) : line;
      return `${String(best.start + i + 1).padStart(5)}\t${body.length > MAX_SHOWN_CHARS ? `${body.slice(0, MAX_SHOWN_CHARS)}…` : body}`;
    });
    const range = best.length === 1 ? `line ${best.start + 1}` : `lines ${best.start + 1}-${best.start + best.length}`;
    const cut = best.length > shown.length ? `\n[… ${best.length - shown.length} more lines]` : "";
    hints.push(`The closest text is at ${range} (${Math.round(best.score * 100)}% similar):\n${shown.join("\n")}${cut}`);
  } else hints.push("Nothing similar was found; read the file again to see its current text.");
  return new HostError(
    "bad_input:workspace",
    `${label(where.index, where.count)}old_string was not found in ${where.shown}. It must match the file exactly, including whitespace and indentation. ${unchanged}\n${hints.join("\n")}`,
    { reason: "old_string_not_found", edit: where.index + 1 },
  );
}

function splice(text: string, at: readonly number[], length: number, replacement: (i: number) => string): string {
  if (at.length === 1) return text.slice(0, at[0]) + replacement(0) + text.slice(at[0]! + length);
  const parts: string[] = [];
  let from = 0;
  at.forEach((start, i) => {
    parts.push(text.slice(from, start), replacement(i));
    from = start + length;
  });
  parts.push(text.slice(from));
  return parts.join("");
}

interface Span { start: number; end: number }

/** Raw offsets of spans given in the "\n"-normalised text (each "\r\n" in `raw` is one character there). */
function rawSpans(raw: string, at: readonly number[], length: number): Span[] {
  const wanted = at.flatMap((start) => [start, start + length]);
  const out: number[] = [];
  let norm = 0;
  for (let i = 0; out.length < wanted.length; i++) {
    while (out.length < wanted.length && wanted[out.length] === norm) out.push(i);
    if (i >= raw.length) break;
    if (!(raw.charCodeAt(i) === 13 && raw.charCodeAt(i + 1) === 10)) norm++;
  }
  const spans: Span[] = [];
  for (let k = 0; k < out.length; k += 2) spans.push({ start: out[k]!, end: out[k + 1]! });
  return spans;
}

function spliceSpans(text: string, spans: readonly Span[], replacement: (span: Span) => string): string {
  const parts: string[] = [];
  let from = 0;
  for (const span of spans) {
    parts.push(text.slice(from, span.start), replacement(span));
    from = span.end;
  }
  parts.push(text.slice(from));
  return parts.join("");
}
