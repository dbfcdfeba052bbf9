import { Worker } from "node:worker_threads";
import { z } from "zod";
import { HostError, messageOf } from "../core/errors.js";
import type { ToolDef } from "../agent/tool.js";
import { resolveTarget } from "./contain.js";
import { workspaceTool } from "./tool.js";
import { abortedError, BINARY_SNIFF_BYTES, formatBytes, linesWithin } from "./files.js";
import { globToRegExp } from "./glob.js";

/** Plain ESM, so it loads as-is from src/ (vitest) and from dist/ (copied by scripts/copy-assets.mjs). */
const WORKER_URL = new URL("./grep-worker.mjs", import.meta.url);

export const GREP_DEFAULT_RESULTS = 100;
export const GREP_MAX_RESULTS = 500;
export const GREP_MAX_FILE_BYTES = 1024 * 1024;
/** The search worker is stopped after this long unless the limits say otherwise. */
export const GREP_DEFAULT_DEADLINE_MS = 20_000;
/** Old-generation heap of a search worker. */
export const GREP_WORKER_HEAP_MB = 256;
const LINE_CHARS = 300;
const SKIP_DIRS = new Set([".git", "node_modules"]);

const Input = z.object({
  pattern: z.string().min(1).describe("JavaScript regular expression, matched against each line"),
  path: z.string().min(1).optional().describe('Directory or file to search, relative to the workspace root (default ".")'),
  glob: z.string().min(1).optional().describe('Only files matching this glob, e.g. "*.ts" (file name) or "src/**/*.test.ts" (path)'),
  ignoreCase: z.boolean().optional().describe("Case-insensitive matching (default false)"),
  maxResults: z.number().int().min(1).max(GREP_MAX_RESULTS).optional().describe(`Maximum matches to return (default ${GREP_DEFAULT_RESULTS})`),
});

export interface GrepMatch { path: string; line: number; text: string }
export interface GrepResult {
  matches: GrepMatch[];
  truncated: boolean;
  filesScanned: number;
  skipped: { tooLarge: number; binary: number; symlinks: number };
}

const invalid = (message: string) => new HostError("bad_input:workspace", message, { reason: "invalid_arguments" });

/**
 * Validates the pattern and glob on the main thread (compiling a RegExp never runs it, so this cannot
 * hang); the worker recompiles them from source.
 */
function compile(args: z.output<typeof Input>): { re: RegExp; glob: GrepJob["glob"] } {
  let re: RegExp;
  try {
    re = new RegExp(args.pattern, args.ignoreCase ? "i" : "");
  } catch (error) {
    throw invalid(`pattern: ${messageOf(error)}. Escape special characters such as ( [ { . * + ? with a backslash to match them literally.`);
  }
  if (args.glob === undefined) return { re, glob: null };
  try {
    // A glob without "/" matches the file name; otherwise the path from the workspace root (see glob.ts).
    return { re, glob: { source: globToRegExp(args.glob).source, nameOnly: !args.glob.includes("/") } };
  } catch (error) {
    throw invalid(`glob: ${JSON.stringify(args.glob)} is not a valid glob (${messageOf(error)}).`);
  }
}

export interface GrepToolOptions {
  /** Files larger than this are skipped (default 1 MiB). */
  maxFileBytes?: number;
  /** The search worker is terminated after this long and the model told to narrow the search (default 20 s). */
  deadlineMs?: number;
}

export function grepTool(options: GrepToolOptions = {}): ToolDef {
  const maxFileBytes = options.maxFileBytes ?? GREP_MAX_FILE_BYTES;
  const deadlineMs = options.deadlineMs !== undefined && options.deadlineMs > 0 ? options.deadlineMs : GREP_DEFAULT_DEADLINE_MS;
  return workspaceTool("grep", Input, async (args, ctx) => {
    // Everything that can refuse the call runs here; only the search itself runs in the worker.
    const { re, glob } = compile(args);
    const limit = args.maxResults ?? GREP_DEFAULT_RESULTS;
    const { root, abs: start, path: shown, stats } = await resolveTarget(ctx.workspace, args.path ?? ".");
    const job: GrepJob = {
      root,
      start,
      startIsDir: stats.isDirectory(),
      startSize: stats.size,
      pattern: re.source,
      flags: re.flags,
      glob,
      limit,
      maxFileBytes,
      lineChars: LINE_CHARS,
      sniffBytes: BINARY_SNIFF_BYTES,
      skipDirs: [...SKIP_DIRS],
    };
    const result = await searchInWorker(job, ctx.signal, deadlineMs);
    return { canonical: result, rendered: render(result, re, shown, limit, maxFileBytes) };
  });
}

/** What grep-worker.mjs receives (keep in sync with its GrepJob typedef). */
interface GrepJob {
  root: string;
  start: string;
  startIsDir: boolean;
  startSize: number;
  pattern: string;
  flags: string;
  glob: { source: string; nameOnly: boolean } | null;
  limit: number;
  maxFileBytes: number;
  lineChars: number;
  sniffBytes: number;
  skipDirs: string[];
}

let workersStarted = 0;
let workersLive = 0;
/** Search workers started so far, and those whose exit has not been observed yet (tests, diagnostics). */
export const grepWorkerCounts = () => ({ started: workersStarted, live: workersLive });

/**
 * Runs one search in a fresh worker thread with a bounded heap, so a catastrophically backtracking
 * pattern cannot block the host's event loop. Settles only after the worker has exited: with its
 * result, or — having terminated it — with the cancellation or deadline error.
 */
function searchInWorker(job: GrepJob, signal: AbortSignal, deadlineMs: number): Promise<GrepResult> {
  if (signal.aborted) return Promise.reject(abortedError());
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_URL, { workerData: job, resourceLimits: { maxOldGenerationSizeMb: GREP_WORKER_HEAP_MB } });
    workersStarted++;
    workersLive++;
    let result: GrepResult | undefined;
    let failure: HostError | undefined;
    const stop = (error: HostError) => {
      failure ??= error;
      void worker.terminate();
    };
    const onAbort = () => stop(abortedError());
    const timer = setTimeout(() => stop(timeoutError(deadlineMs)), deadlineMs);
    signal.addEventListener("abort", onAbort, { once: true });

    worker.on("message", (message: GrepResult) => {
      result ??= message;
      void worker.terminate();
    });
    worker.on("error", (error: Error & { code?: string }) => {
      const message = error.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? `grep ran out of memory (${GREP_WORKER_HEAP_MB} MB) and was stopped. ${NARROW}`
        : `grep failed: ${messageOf(error)}`;
      failure ??= new HostError("internal:workspace", message, { reason: "grep_failed" }, { cause: error });
    });
    worker.once("exit", () => {
      workersLive--;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      // A result that arrived before a late abort or the deadline is still the answer.
      if (result) resolve(result);
      else reject(failure ?? new HostError("internal:workspace", "grep's search worker exited without a result.", { reason: "grep_failed" }));
    });
  });
}

const NARROW = "Narrow `path` or `glob`, or simplify the regular expression (nested quantifiers such as (a+)+ can backtrack exponentially).";

function timeoutError(deadlineMs: number): HostError {
  const within = deadlineMs >= 1000 && deadlineMs % 1000 === 0 ? `${deadlineMs / 1000} s` : `${deadlineMs} ms`;
  return new HostError(
    "timeout:workspace",
    `grep did not finish within ${within} and was stopped: the pattern is too expensive to evaluate or the searched tree is too large. ${NARROW}`,
    { reason: "grep_timeout" },
  );
}

function render(r: GrepResult, re: RegExp, where: string, limit: number, maxFileBytes: number): string {
  const skipped = [
    r.skipped.tooLarge && `${r.skipped.tooLarge} larger than ${formatBytes(maxFileBytes)}`,
    r.skipped.binary && `${r.skipped.binary} binary`,
    r.skipped.symlinks && `${r.skipped.symlinks} symlinks`,
  ].filter(Boolean);
  const scanned = `${r.filesScanned} files searched${skipped.length ? `; skipped ${skipped.join(", ")}` : ""}`;
  if (r.matches.length === 0) return `No matches for ${re} under ${where} (${scanned}).`;
  const all = r.matches.map((m) => `${m.path}:${m.line}: ${m.text}`);
  const lines = all.slice(0, linesWithin(all));
  const summary = r.truncated
    ? `[Showing the first ${lines.length} matches; there are more. Narrow the pattern, path or glob${lines.length === limit ? `, or raise maxResults (at most ${GREP_MAX_RESULTS})` : ""}.]`
    : lines.length < all.length
      ? `[Showing the first ${lines.length} of ${all.length} matches (output size limit). Narrow the pattern, path or glob.]`
      : `[${all.length} ${all.length === 1 ? "match" : "matches"}; ${scanned}.]`;
  return [...lines, summary].join("\n");
}
