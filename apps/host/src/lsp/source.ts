import { closeSync, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { HostError, messageOf } from "../core/errors.js";
import { isInside, resolveInside } from "../workspace/contain.js";
import { splitLines } from "./results.js";

/** Reading what a query is about: the file, proven inside its workspace, under a byte cap (LSP-4). */

/** The position a query asks about, 1-based (character in UTF-16 code units). */
export interface SourcePosition { filePath: string; line: number; character: number }

/** Files up to this size are read synchronously: cheaper than four thread-pool round trips, and short. */
const SYNC_READ_BYTES = 256 * 1024;

const tooLarge = (requested: string, maxBytes: number) =>
  new HostError("bad_input:lsp", `${requested} is larger than ${Math.round(maxBytes / 1024)} KiB; the lsp tool reads at most that much. Use grep or read_file on it instead.`, { reason: "file_too_large" });

/** A file's modification time and size when it was read: a cheap "did it change?" for open documents (LSP-4). */
export interface Stamp { mtimeMs: number; size: number }

/** The whole file as UTF-8 with its stamp, refused when it is over `maxBytes`; one open, fstat and read for small files. */
export async function readCapped(file: string, requested: string, maxBytes: number): Promise<{ text: string; stamp: Stamp }> {
  let fd: number;
  let stamp: Stamp;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw new HostError("not_found:lsp", `Cannot read ${requested}: ${messageOf(error)}`, { reason: "not_found" }, { cause: error });
  }
  let expected: number;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new HostError("bad_input:lsp", `${requested} is not a regular file.`, { reason: "not_a_file" });
    stamp = { mtimeMs: stat.mtimeMs, size: stat.size };
    if (stamp.size > maxBytes) throw tooLarge(requested, maxBytes);
    expected = stamp.size;
    if (stamp.size <= SYNC_READ_BYTES) {
      // One byte more than the size tells a file that grew since fstat; it is then read the long way.
      const buffer = Buffer.allocUnsafe(stamp.size + 1);
      const length = readSync(fd, buffer, 0, buffer.length, 0);
      if (length <= stamp.size) return { text: buffer.toString("utf8", 0, length), stamp };
      expected = maxBytes;
    }
  } finally {
    closeSync(fd);
  }
  return { text: await readLarge(file, requested, maxBytes, expected), stamp };
}

async function readLarge(file: string, requested: string, maxBytes: number, expected: number): Promise<string> {
  const handle = await open(file, "r");
  try {
    // One byte more than allowed tells a file at the limit from one that grew past it since stat.
    const buffer = Buffer.alloc(Math.min(expected, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    if (length > maxBytes) throw tooLarge(requested, maxBytes);
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** Reads the whole file under the byte cap and checks the position against it (LSP columns are UTF-16). */
export async function readSource(file: string, input: SourcePosition, maxBytes: number): Promise<{ source: string; stamp: Stamp; line: number; character: number }> {
  const { text: source, stamp } = await readCapped(file, input.filePath, maxBytes);
  const lines = splitLines(source);
  if (input.line > lines.length) {
    throw new HostError("bad_input:lsp", `line ${input.line} is past the end of ${input.filePath}, which has ${lines.length} lines.`, { reason: "invalid_position" });
  }
  const text = lines[input.line - 1]!;
  if (input.character > text.length + 1) {
    throw new HostError("bad_input:lsp", `character ${input.character} is past the end of line ${input.line}, which has ${text.length} UTF-16 code units.`, { reason: "invalid_position" });
  }
  const unit = text.charCodeAt(input.character - 1);
  const before = text.charCodeAt(input.character - 2);
  if (unit >= 0xdc00 && unit <= 0xdfff && before >= 0xd800 && before <= 0xdbff) {
    throw new HostError("bad_input:lsp", `character ${input.character} on line ${input.line} is the second half of a character that takes two UTF-16 code units (such as an emoji); use ${input.character - 1}.`, { reason: "invalid_position" });
  }
  return { source, stamp, line: input.line, character: input.character };
}

/**
 * The real path of `requested` inside `root` (already real). The common case costs one synchronous
 * realpath (a single syscall, far cheaper than a thread-pool round trip); anything unusual goes
 * through resolveInside for its errors.
 */
export async function contained(root: string, requested: string): Promise<string> {
  if (!requested.includes("\0")) {
    const real = realOrNull(resolve(root, requested));
    if (real !== null && isInside(root, real)) return real;
  }
  return resolveInside(root, requested);
}

export function realOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}
