import { open } from "node:fs/promises";
import { abortedError } from "./files.js";

export interface LineWindow {
  /** The selected lines without their "\n". */
  lines: string[];
  totalLines: number;
  /** The byte cap stopped the selection before `end` (or inside its first line). */
  truncated: boolean;
  /** The first selected line was itself longer than the cap and was cut. */
  firstLineCut: boolean;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Reads lines `start..end` (1-based, inclusive) of a file, keeping at most `maxBytes` of them,
 * and counts all lines. Streams the file, so large files cost time but not memory. `onChunk` sees every
 * byte of the file, in order (read_file hashes the whole file for the read ledger on the way).
 */
export async function readLineWindow(path: string, start: number, end: number, maxBytes: number, signal?: AbortSignal, onChunk?: (bytes: Uint8Array) => void): Promise<LineWindow> {
  const selected: Buffer[] = [];
  let used = 0;
  let capped = false;
  let firstLineCut = false;
  let lineNo = 1;
  let current: Buffer[] = [];
  let currentBytes = 0;
  let midLine = false;

  const wanted = () => !capped && lineNo >= start && lineNo <= end;
  const take = (part: Buffer) => {
    if (!wanted() || currentBytes > maxBytes || part.length === 0) return;
    const kept = Buffer.from(part.subarray(0, maxBytes + 1 - currentBytes));
    current.push(kept);
    currentBytes += kept.length;
  };
  const finishLine = () => {
    if (wanted()) {
      const line = Buffer.concat(current, currentBytes);
      if (used + line.length <= maxBytes) {
        selected.push(line);
        used += line.length + 1;
      } else {
        capped = true;
        if (selected.length === 0) {
          selected.push(line.subarray(0, maxBytes));
          firstLineCut = true;
        }
      }
    }
    current = [];
    currentBytes = 0;
    lineNo++;
  };

  const file = await open(path, "r");
  try {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    for (;;) {
      if (signal?.aborted) throw abortedError();
      const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      const bytes = chunk.subarray(0, bytesRead);
      onChunk?.(bytes);
      let from = 0;
      for (let nl = bytes.indexOf(10, from); nl !== -1; nl = bytes.indexOf(10, from)) {
        take(bytes.subarray(from, nl));
        finishLine();
        from = nl + 1;
      }
      take(bytes.subarray(from));
      midLine = bytes[bytesRead - 1] !== 10;
    }
  } finally {
    await file.close();
  }
  if (midLine) finishLine();
  return { lines: selected.map((line) => line.toString("utf8")), totalLines: lineNo - 1, truncated: capped, firstLineCut };
}
