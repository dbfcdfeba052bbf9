import { readFileSync } from "node:fs";
import { lstat, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { HostError, messageOf } from "../core/errors.js";
import { defineTool, type ToolDef } from "../agent/tool.js";
import { displayPath, resolveInside, workspaceRoot } from "./contain.js";
import { abortedError, formatBytes, hasNulPrefix, linesWithin, statOf } from "./files.js";
import { globMatcher } from "./glob.js";

const description = readFileSync(new URL("./grep.md", import.meta.url), "utf8").trim();

export const GREP_DEFAULT_RESULTS = 100;
export const GREP_MAX_RESULTS = 500;
export const GREP_MAX_FILE_BYTES = 1024 * 1024;
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

function compile(args: z.output<typeof Input>): { re: RegExp; include: (path: string) => boolean } {
  let re: RegExp;
  try {
    re = new RegExp(args.pattern, args.ignoreCase ? "i" : "");
  } catch (error) {
    throw invalid(`pattern: ${messageOf(error)}. Escape special characters such as ( [ { . * + ? with a backslash to match them literally.`);
  }
  if (args.glob === undefined) return { re, include: () => true };
  try {
    return { re, include: globMatcher(args.glob) };
  } catch (error) {
    throw invalid(`glob: ${JSON.stringify(args.glob)} is not a valid glob (${messageOf(error)}).`);
  }
}

export function grepTool(options: { maxFileBytes?: number } = {}): ToolDef {
  const maxFileBytes = options.maxFileBytes ?? GREP_MAX_FILE_BYTES;
  return defineTool({
    name: "grep",
    description,
    capability: "workspace",
    input: Input,
    async run(args, ctx) {
      const { re, include } = compile(args);
      const limit = args.maxResults ?? GREP_DEFAULT_RESULTS;
      const root = await workspaceRoot(ctx.workspace);
      const start = await resolveInside(ctx.workspace, args.path ?? ".");
      const result: GrepResult = { matches: [], truncated: false, filesScanned: 0, skipped: { tooLarge: 0, binary: 0, symlinks: 0 } };

      const scanFile = async (abs: string, size: number) => {
        const rel = displayPath(root, abs);
        if (!include(rel)) return;
        if (size > maxFileBytes) return void result.skipped.tooLarge++;
        const bytes = await readFile(abs).catch(() => undefined);
        if (!bytes) return;
        if (hasNulPrefix(bytes)) return void result.skipped.binary++;
        result.filesScanned++;
        const lines = bytes.toString("utf8").split("\n");
        for (let i = 0; i < lines.length; i++) {
          const text = lines[i]!;
          if (!re.test(text)) continue;
          if (result.matches.length === limit) {
            result.truncated = true;
            return;
          }
          result.matches.push({ path: rel, line: i + 1, text: clip(text) });
        }
      };

      const startStats = await statOf(start, displayPath(root, start));
      if (!startStats.isDirectory()) await scanFile(start, startStats.size);
      else await walk(start, ctx.signal, () => result.truncated, async (abs, kind, size) => {
        if (kind === "symlink") result.skipped.symlinks++;
        else await scanFile(abs, size);
      });
      return { canonical: result, rendered: render(result, re, displayPath(root, start), limit, maxFileBytes) };
    },
  });
}

/** Depth-first, in name order; never follows symlinks, so it cannot leave the workspace or loop. */
async function walk(dir: string, signal: AbortSignal, done: () => boolean, visit: (abs: string, kind: "file" | "symlink", size: number) => Promise<void>) {
  const stack = [dir];
  while (stack.length > 0 && !done()) {
    if (signal.aborted) throw abortedError();
    const current = stack.pop()!;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      if (done()) return;
      if (signal.aborted) throw abortedError();
      const abs = join(current, entry.name);
      if (entry.isSymbolicLink()) await visit(abs, "symlink", 0);
      else if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) subdirs.push(abs);
      } else if (entry.isFile()) {
        const size = await lstat(abs).then((s) => s.size, () => -1);
        if (size >= 0) await visit(abs, "file", size);
      }
    }
    stack.push(...subdirs.reverse());
  }
}

function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > LINE_CHARS ? `${trimmed.slice(0, LINE_CHARS)}…` : trimmed;
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
