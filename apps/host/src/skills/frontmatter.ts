/**
 * The frontmatter grammar of a skill file (SKL-3), without parsing the YAML inside it:
 * - a BOM is dropped; CRLF and LF both work;
 * - the first line must be exactly `---` (trailing blanks and `\r` allowed); `---js`, `---json`,
 *   `--- yaml` or any other language after the fence is refused, never handed to another engine;
 * - some later line must be exactly `---` as well, else the block is not closed;
 * - the block ends at the first `\n---` after the opening line (as gray-matter, which Seam used before,
 *   splits: a `----` line closes it too, and what follows `---` on that line starts the body); the body is
 *   what follows, less one `\r` and then one `\n`.
 *
 * `head.ts` stops reading a file where this grammar has seen enough, with the same `isFenceLine`.
 */

const DASH = 0x2d;

/** A line (without its `\n`) that is exactly `---`, ignoring a final `\r` and trailing blanks. */
export function isFenceLine(line: string): boolean {
  return line.charCodeAt(0) === DASH && line.startsWith("---") && line.slice(3).trimEnd() === "";
}

export type FrontmatterSplit =
  /** `block` is the YAML between the fences (starting with what is left of the opening line); `body` follows the closing one. */
  | { ok: true; block: string; body: string }
  | { ok: false; reason: string };

const MISSING = "missing frontmatter: the file must start with a --- block holding name and description";
const NOT_YAML = "the frontmatter must be YAML (the first line must be exactly ---)";
const NOT_CLOSED = "the frontmatter block is not closed (no --- line after it)";

/** Splits a skill file's text into its frontmatter block and body, or says why it has no valid block. */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstEnd = clean.indexOf("\n");
  const first = firstEnd < 0 ? clean : clean.slice(0, firstEnd);
  if (!isFenceLine(first)) return { ok: false, reason: /^---\S/.test(first) ? NOT_YAML : MISSING };
  if (firstEnd < 0 || !hasFenceLine(clean, firstEnd + 1)) return { ok: false, reason: NOT_CLOSED };
  // A closing fence line exists, so there is a `\n---` at or before it (possibly the opening line's own `\n`).
  const close = clean.indexOf("\n---", 3);
  const block = clean.slice(3, close);
  let from = close + 4;
  if (clean.charCodeAt(from) === 0x0d) from += 1;
  if (clean.charCodeAt(from) === 0x0a) from += 1;
  return { ok: true, block, body: clean.slice(from) };
}

/** Whether any line from `from` on (the last one may have no `\n`) is a fence line. */
function hasFenceLine(text: string, from: number): boolean {
  for (let start = from; start <= text.length; ) {
    const end = text.indexOf("\n", start);
    const stop = end < 0 ? text.length : end;
    if (text.charCodeAt(start) === DASH && isFenceLine(text.slice(start, stop))) return true;
    if (end < 0) return false;
    start = end + 1;
  }
  return false;
}

/**
 * A block holding only blanks and `#` comment lines means "no fields" and is not parsed (gray-matter's
 * rule: what is left after removing `^\s*#[^\n]+` lines is blank). Checked in full only when the first
 * non-blank character is `#`; any other first character survives that removal.
 */
export function isBlankBlock(block: string): boolean {
  const first = block.search(/\S/);
  if (first < 0) return true;
  if (block.charCodeAt(first) !== 0x23) return false;
  return block.replace(/^\s*#[^\n]+/gm, "").trim() === "";
}
