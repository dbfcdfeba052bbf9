import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { isFenceLine } from "./frontmatter.js";

/**
 * The head of a skill file: what listing needs (SKL-3/SKL-4) without reading the body. A list only uses
 * the frontmatter and whether a body exists, so a file is read in chunks from the start until the closing
 * `---` line and the first non-blank character after it (or the end of the file) have been seen.
 *
 * The reads are synchronous on purpose: a listing reads a few KiB from each of thousands of small local
 * files, and a synchronous open/read/close costs ~2.5 µs per file where a thread-pool round trip per call
 * costs 15–30 µs of CPU (measured: 2,000 files in 5 ms vs 34 ms with callbacks, 55 ms with FileHandle).
 * The caller bounds how long it holds the event loop by yielding between short slices (`fs-provider.ts`).
 */

/** First read; most frontmatter fits. Later reads double it. */
export const HEAD_CHUNK = 8 * 1024;

/** One open file, as the head reader needs it (injectable so tests can count bytes). */
export interface HeadFile {
  /** Reads into `buffer` from `offset` for `length` bytes at file `position`; returns the bytes read (0 at the end). */
  read(buffer: Buffer, offset: number, length: number, position: number): number;
  /** The file's size in bytes. */
  size(): number;
  close(): void;
}

export type OpenHeadFile = (path: string) => HeadFile;

/**
 * Opens read-only without following a final symlink (ELOOP: the caller resolves it and checks containment)
 * and without blocking on a FIFO that replaced a file since the directory was read.
 */
const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A file descriptor from `openSync` (a class, not closures: this runs once per skill file). */
class FdHeadFile implements HeadFile {
  constructor(private readonly fd: number) {}
  read(buffer: Buffer, offset: number, length: number, position: number): number {
    return readSync(this.fd, buffer, offset, length, position);
  }
  size(): number {
    return fstatSync(this.fd).size;
  }
  close(): void {
    closeSync(this.fd);
  }
}

export const openHeadFile: OpenHeadFile = (path) => new FdHeadFile(openSync(path, FLAGS));

export type HeadOutcome =
  /** `text` is the file from its start far enough to parse the frontmatter and tell an empty body (all of it when `eof`). */
  | { ok: true; text: string; eof: boolean; bytesRead: number }
  | { ok: false; reason: "too_large"; size: number };

/**
 * Where reading can stop: the first line is not an opening fence (the parser rejects it from that line
 * alone), or the closing fence line and a non-blank character after it have been seen. Only whole lines
 * count, unless the file has ended (`eof`).
 */
export function headIsEnough(text: string, eof: boolean): boolean {
  if (eof) return true;
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const firstEnd = text.indexOf("\n", start);
  if (firstEnd < 0) return false;
  if (!isFenceLine(text.slice(start, firstEnd))) return true;
  for (let from = firstEnd + 1; ;) {
    const end = text.indexOf("\n", from);
    if (end < 0) return false;
    if (isFenceLine(text.slice(from, end))) return /\S/.test(text.slice(end + 1));
    from = end + 1;
  }
}

/**
 * Reads the head of `path` (see `headIsEnough`). A file whose first chunk is full has its size checked
 * first: over `maxBytes` it is reported, not read further. Errors from opening or reading throw.
 */
/** Reused for first chunks: the reads are synchronous and the text is copied out before the next one. */
const scratch = Buffer.allocUnsafe(HEAD_CHUNK);

export function readHead(path: string, opts: { maxBytes: number; chunk?: number; open?: OpenHeadFile }): HeadOutcome {
  const file = (opts.open ?? openHeadFile)(path);
  try {
    const decoder = new StringDecoder("utf8");
    // Never more than one byte past the limit, so a full first read always means "check the size".
    let chunk = Math.max(1, Math.min(opts.chunk ?? HEAD_CHUNK, opts.maxBytes + 1));
    let text = "";
    let position = 0;
    let sized = false;
    for (;;) {
      const buffer = chunk <= scratch.length ? scratch : Buffer.allocUnsafe(chunk);
      const n = file.read(buffer, 0, chunk, position);
      position += n;
      if (n === chunk && !sized) {
        // A full read: the file may be over the cap, which is decided by its size, not by what the head shows.
        sized = true;
        const size = file.size();
        if (size > opts.maxBytes) return { ok: false, reason: "too_large", size };
      }
      if (position > opts.maxBytes) return { ok: false, reason: "too_large", size: position }; // grew while being read
      const eof = n === 0;
      text += eof ? decoder.end() : decoder.write(buffer.subarray(0, n));
      // A short read is not taken for the end of the file: most heads are enough before the end is seen.
      if (headIsEnough(text, eof)) return { ok: true, text, eof, bytesRead: position };
      if (n === chunk) chunk = Math.min(chunk * 2, opts.maxBytes + 1 - position);
    }
  } finally {
    file.close();
  }
}
