// @ts-check
/**
 * grep's search body, run in a worker thread by grep.ts so a model-supplied regex that backtracks
 * catastrophically burns this thread, not the host's event loop; grep.ts terminates it on abort or
 * deadline. Plain JavaScript on purpose: the same file runs from src/ under vitest and from dist/
 * (copied by scripts/copy-assets.mjs) without a TypeScript loader.
 *
 * Input (workerData): a GrepJob, already validated on the main thread. Output: one GrepResult message
 * (the canonical shape declared in grep.ts), then the thread exits.
 */
import { lstat, readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { parentPort, workerData } from "node:worker_threads";

/**
 * @typedef {object} GrepJob
 * @property {string} root real path of the workspace root
 * @property {string} start real path of the file or directory to search
 * @property {boolean} startIsDir
 * @property {number} startSize
 * @property {string} pattern
 * @property {string} flags
 * @property {{ source: string; nameOnly: boolean } | null} glob compiled glob; nameOnly matches the file name only
 * @property {number} limit
 * @property {number} maxFileBytes
 * @property {number} lineChars
 * @property {number} sniffBytes a NUL in the first sniffBytes bytes marks a file as binary
 * @property {string[]} skipDirs
 */

/**
 * @typedef {object} GrepResult
 * @property {{ path: string; line: number; text: string }[]} matches
 * @property {boolean} truncated
 * @property {number} filesScanned
 * @property {{ tooLarge: number; binary: number; symlinks: number }} skipped
 */

/** @param {GrepJob} job @returns {Promise<GrepResult>} */
async function search(job) {
  const re = new RegExp(job.pattern, job.flags);
  const globRe = job.glob ? new RegExp(job.glob.source) : null;
  const nameOnly = job.glob?.nameOnly ?? false;
  const skipDirs = new Set(job.skipDirs);
  /** @type {GrepResult} */
  const result = { matches: [], truncated: false, filesScanned: 0, skipped: { tooLarge: 0, binary: 0, symlinks: 0 } };

  /** @param {string} abs */
  const displayPath = (abs) => {
    const rel = relative(job.root, abs);
    return rel === "" ? "." : rel.split(sep).join("/");
  };
  /** @param {string} rel */
  const include = (rel) => globRe === null || globRe.test(nameOnly ? rel.slice(rel.lastIndexOf("/") + 1) : rel);
  /** @param {string} text */
  const clip = (text) => {
    const trimmed = text.trim();
    return trimmed.length > job.lineChars ? `${trimmed.slice(0, job.lineChars)}…` : trimmed;
  };

  /** @param {string} abs @param {number} size */
  const scanFile = async (abs, size) => {
    const rel = displayPath(abs);
    if (!include(rel)) return;
    if (size > job.maxFileBytes) return void result.skipped.tooLarge++;
    const bytes = await readFile(abs).catch(() => undefined);
    if (!bytes) return;
    if (bytes.subarray(0, job.sniffBytes).includes(0)) return void result.skipped.binary++;
    result.filesScanned++;
    const lines = bytes.toString("utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const text = /** @type {string} */ (lines[i]);
      if (!re.test(text)) continue;
      if (result.matches.length === job.limit) {
        result.truncated = true;
        return;
      }
      result.matches.push({ path: rel, line: i + 1, text: clip(text) });
    }
  };

  if (!job.startIsDir) {
    await scanFile(job.start, job.startSize);
    return result;
  }
  // Depth-first, in name order; never follows symlinks, so it cannot leave the workspace or loop.
  const stack = [job.start];
  while (stack.length > 0 && !result.truncated) {
    const current = /** @type {string} */ (stack.pop());
    /** @type {import("node:fs").Dirent[]} */
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    /** @type {string[]} */
    const subdirs = [];
    for (const entry of entries) {
      if (result.truncated) return result;
      const abs = join(current, entry.name);
      if (entry.isSymbolicLink()) result.skipped.symlinks++;
      else if (entry.isDirectory()) {
        if (!skipDirs.has(entry.name)) subdirs.push(abs);
      } else if (entry.isFile()) {
        const size = await lstat(abs).then((s) => s.size, () => -1);
        if (size >= 0) await scanFile(abs, size);
      }
    }
    stack.push(...subdirs.reverse());
  }
  return result;
}

if (parentPort) parentPort.postMessage(await search(/** @type {GrepJob} */ (workerData)));
