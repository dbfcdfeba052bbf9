/**
 * A command's output as text: a bounded buffer that keeps the head and the tail (the middle of a huge
 * output is dropped and marked), read from absolute offsets so a job can hand out only what is new,
 * and the model-facing cut that elides the middle of what it is shown.
 */

/** 10 M characters: 5 M of head, 5 M of tail. */
export const OUTPUT_LIMIT_CHARS = 10_000_000;

export interface Read {
  text: string;
  /** Characters between `from` and the end that the buffer no longer holds (marked in `text`). */
  dropped: number;
}

export class OutputBuffer {
  private head = "";
  private tail: string[] = [];
  private tailLength = 0;
  /** Characters written so far. */
  written = 0;
  /** Bytes received so far (before decoding). */
  bytes = 0;

  constructor(private readonly limit = OUTPUT_LIMIT_CHARS) {}

  push(text: string): void {
    if (!text) return;
    this.written += text.length;
    const half = Math.floor(this.limit / 2);
    if (this.tailLength === 0 && this.head.length < half) {
      const room = half - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
      if (!text) return;
    }
    this.tail.push(text);
    this.tailLength += text.length;
    while (this.tailLength > half) {
      const first = this.tail[0]!;
      const over = this.tailLength - half;
      if (first.length <= over) {
        this.tail.shift();
        this.tailLength -= first.length;
      } else {
        this.tail[0] = first.slice(over);
        this.tailLength -= over;
      }
    }
  }

  /** Whether some of the middle was dropped. */
  get truncated(): boolean {
    return this.written > this.head.length + this.tailLength;
  }

  /** Everything from absolute offset `from` on, the dropped middle replaced by a marker. */
  read(from = 0): Read {
    const tailStart = this.written - this.tailLength;
    const tail = this.tail.join("");
    if (from >= tailStart) return { text: tail.slice(from - tailStart), dropped: 0 };
    const head = from < this.head.length ? this.head.slice(from) : "";
    const dropped = tailStart - Math.max(from, this.head.length);
    if (dropped <= 0) return { text: head + tail, dropped: 0 };
    return { text: `${head}${droppedMarker(dropped)}${tail}`, dropped };
  }
}

const droppedMarker = (chars: number) =>
  `\n[… ${chars.toLocaleString("en-US")} characters of output were not kept here: Seam keeps the first and last 5 MB of a command's output …]\n`;

export interface Elided {
  text: string;
  /** Lines and bytes cut from the middle (0 when nothing was cut). */
  cutLines: number;
  cutBytes: number;
}

export interface ElideLimits {
  maxChars: number;
  maxLines: number;
}

export const MODEL_LIMITS: ElideLimits = { maxChars: 30_000, maxLines: 400 };

/** Keeps the first and last half of the limits (lines and characters) and elides the middle with a note. */
export function elideMiddle(text: string, limits: ElideLimits = MODEL_LIMITS): Elided {
  const halfChars = Math.floor(limits.maxChars / 2);
  const halfLines = Math.floor(limits.maxLines / 2);
  let headEnd = 0;
  for (let i = 0; i < halfLines && headEnd < text.length; i++) {
    const nl = text.indexOf("\n", headEnd);
    headEnd = nl < 0 ? text.length : nl + 1;
  }
  headEnd = Math.min(headEnd, halfChars);
  // The last line may lack its newline; count lines backwards from the end.
  let tailStart = text.length;
  let pos = text.endsWith("\n") ? text.length - 1 : text.length;
  for (let i = 0; i < halfLines && pos > 0; i++) {
    const nl = text.lastIndexOf("\n", pos - 1);
    tailStart = nl + 1;
    pos = nl;
  }
  tailStart = Math.max(tailStart, text.length - halfChars);
  if (headEnd >= tailStart) return { text, cutLines: 0, cutBytes: 0 };
  headEnd = safeCut(text, headEnd);
  tailStart = safeCut(text, tailStart);
  const middle = text.slice(headEnd, tailStart);
  const cutLines = countLines(middle);
  const cutBytes = Buffer.byteLength(middle);
  const note = `[… ${cutLines.toLocaleString("en-US")} line(s), ${formatBytes(cutBytes)}, elided from the middle of the output …]`;
  const head = text.slice(0, headEnd);
  return { text: `${head}${head.endsWith("\n") || !head ? "" : "\n"}${note}\n${text.slice(tailStart)}`, cutLines, cutBytes };
}

/** Lines in a piece of output: newlines, plus one for a last line without its newline. */
export function countLines(text: string): number {
  if (!text) return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Moves a cut off the low half of a surrogate pair. */
function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}
