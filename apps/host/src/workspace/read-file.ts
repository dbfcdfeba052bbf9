import { createHash } from "node:crypto";
import { z } from "zod";
import { HostError } from "../core/errors.js";
import type { ToolDef } from "../agent/tool.js";
import { resolveTarget } from "./contain.js";
import { workspaceTool } from "./tool.js";
import { formatBytes, looksBinary, RENDER_BUDGET_CHARS } from "./files.js";
import type { Ledger } from "./ledger.js";
import { readLineWindow } from "./lines.js";

export const READ_MAX_BYTES = 256 * 1024;

const Input = z
  .object({
    path: z.string().min(1).describe("File path, relative to the workspace root"),
    startLine: z.number().int().min(1).optional().describe("First line to read, 1-based (default 1)"),
    endLine: z.number().int().min(1).optional().describe("Last line to read, inclusive (default: end of file)"),
  })
  .refine((a) => a.startLine === undefined || a.endLine === undefined || a.endLine >= a.startLine, {
    message: "endLine must not be smaller than startLine",
    path: ["endLine"],
  });

export interface ReadFileResult {
  path: string;
  startLine: number;
  endLine: number;
  totalLines: number;
  truncated: boolean;
  content: string;
}

/** `ledger`, when given, learns the hash of the whole file on every read (any window of it), for edit_file and write_file. */
export function readFileTool(options: { maxBytes?: number; maxChars?: number; ledger?: Ledger } = {}): ToolDef {
  const maxBytes = options.maxBytes ?? READ_MAX_BYTES;
  const maxChars = options.maxChars ?? RENDER_BUDGET_CHARS;
  return workspaceTool("read_file", Input, async (args, ctx) => {
    const { abs, path, stats } = await resolveTarget(ctx.workspace, args.path);
    if (stats.isDirectory()) throw new HostError("bad_input:workspace", `${path} is a directory; use list_dir to see its entries.`, { reason: "not_a_file" });
    if (!stats.isFile()) throw new HostError("bad_input:workspace", `${path} is not a regular file.`, { reason: "not_a_file" });
    if (await looksBinary(abs)) {
      throw new HostError("bad_input:workspace", `${path} is a binary file (${formatBytes(stats.size)}); read_file only shows text.`, { reason: "binary_file" });
    }
    const start = args.startLine ?? 1;
    const requestedEnd = args.endLine ?? Number.POSITIVE_INFINITY;
    const hash = options.ledger ? createHash("sha256") : undefined;
    const window = await readLineWindow(abs, start, requestedEnd, maxBytes, ctx.signal, hash && ((bytes) => hash.update(bytes)));
    if (hash) options.ledger?.record(ctx.sessionId, abs, { sha256: hash.digest("hex") });
    if (start > Math.max(window.totalLines, 1)) {
      throw new HostError("bad_input:workspace", `startLine ${start} is past the end of ${path}, which has ${window.totalLines} lines.`, { reason: "invalid_arguments" });
    }
    const fitted = fitChars(window.lines, maxChars);
    const lines = fitted.lines;
    const endLine = start + lines.length - 1;
    const truncated = window.truncated || fitted.cut;
    const firstLineCut = (window.firstLineCut && lines.length === 1) || fitted.firstLineCut;
    const result: ReadFileResult = { path, startLine: start, endLine, totalLines: window.totalLines, truncated, content: lines.join("\n") };
    return { canonical: result, rendered: render(result, lines, notes(result, args.endLine, firstLineCut)) };
  });
}

/** Keeps whole lines while their text stays within `maxChars`; a single overlong first line is cut. */
function fitChars(lines: string[], maxChars: number): { lines: string[]; cut: boolean; firstLineCut: boolean } {
  let used = 0;
  for (let i = 0; i < lines.length; i++) {
    used += lines[i]!.length + 1;
    if (used <= maxChars) continue;
    if (i > 0) return { lines: lines.slice(0, i), cut: true, firstLineCut: false };
    return { lines: [lines[0]!.slice(0, maxChars)], cut: true, firstLineCut: true };
  }
  return { lines, cut: false, firstLineCut: false };
}

function notes(r: ReadFileResult, askedEnd: number | undefined, firstLineCut: boolean): string[] {
  const out: string[] = [];
  if (r.totalLines === 0) out.push("[The file is empty.]");
  if (firstLineCut) out.push(`[Line ${r.startLine} is too long to show in full; only its beginning is shown.]`);
  else if (r.truncated) out.push(`[Output stopped at the size limit after line ${r.endLine} of ${r.totalLines}. Call read_file with startLine=${r.endLine + 1} to read on.]`);
  if (askedEnd !== undefined && askedEnd > r.totalLines && r.totalLines > 0) out.push(`[endLine ${askedEnd} is past the end of the file; it has ${r.totalLines} lines.]`);
  return out;
}

function render(r: ReadFileResult, lines: string[], notes: string[]): string {
  const header = r.totalLines === 0 ? `${r.path} (0 lines)` : `${r.path} (lines ${r.startLine}-${r.endLine} of ${r.totalLines})`;
  const body = lines.map((text, i) => `${String(r.startLine + i).padStart(5)}\t${text.endsWith("\r") ? text.slice(0, -1) : text}`);
  return [header, ...body, ...notes].join("\n");
}
