import { stat } from "node:fs/promises";
import { join } from "node:path";
import { glob } from "tinyglobby";
import { z } from "zod";
import { HostError } from "../core/errors.js";
import type { ToolDef } from "../agent/tool.js";
import { displayPath, isInside, resolveTarget } from "./contain.js";
import { linesWithin } from "./files.js";
import { ALWAYS_SKIPPED, gitignoreMatcher } from "./gitignore.js";
import { workspaceTool } from "./tool.js";

export const GLOB_MAX_RESULTS = 1000;
const STAT_BATCH = 64;
/** A ".." segment, also inside braces ("{..,x}/*"): the pattern would climb out of `path`. */
const CLIMBS = /(^|[/{,])\.\.([/},]|$)/;

const Input = z.object({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts", "src/**/*.{js,jsx}", "*.md"'),
  path: z.string().min(1).optional().describe("Folder to search in, relative to the workspace root (default: the whole workspace)"),
});

export interface GlobResult {
  pattern: string;
  /** The folder searched, relative to the workspace root. */
  path: string;
  /** Matching files relative to the workspace root, newest first. */
  files: string[];
  /** All matches, before the cap. */
  total: number;
  truncated: boolean;
}

/** glob (CODE-2): files matching a pattern, .gitignore honoured, newest first, capped. */
export function globTool(options: { maxResults?: number } = {}): ToolDef {
  const maxResults = options.maxResults ?? GLOB_MAX_RESULTS;
  return workspaceTool("glob", Input, async (args, ctx) => {
    if (args.pattern.startsWith("/") || CLIMBS.test(args.pattern)) {
      throw new HostError("bad_input:workspace", `The pattern must be relative to the folder searched, without "..". Pass the folder as path instead.`, { reason: "invalid_arguments" });
    }
    const { root, abs, path, stats } = await resolveTarget(ctx.workspace, args.path ?? ".");
    if (!stats.isDirectory()) throw new HostError("bad_input:workspace", `${path} is not a folder; pass a folder as path.`, { reason: "not_a_directory" });
    const found = await glob(args.pattern, { cwd: abs, dot: true, onlyFiles: true, followSymbolicLinks: false, ignore: ALWAYS_SKIPPED, signal: ctx.signal, expandDirectories: false });
    const ignored = await gitignoreMatcher(root, abs, ctx.signal);
    const files = found.map((rel) => join(abs, rel)).filter((file) => isInside(abs, file)).map((file) => displayPath(root, file)).filter((rel) => !ignored(rel));

    const dated: { file: string; mtime: number }[] = [];
    for (let i = 0; i < files.length; i += STAT_BATCH) {
      const batch = await Promise.all(files.slice(i, i + STAT_BATCH).map(async (file) => ({ file, mtime: await stat(join(root, file)).then((s) => s.mtimeMs, () => -1) })));
      dated.push(...batch.filter((d) => d.mtime >= 0));
    }
    dated.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const shown = dated.slice(0, maxResults).map((d) => d.file);
    const result: GlobResult = { pattern: args.pattern, path, files: shown, total: dated.length, truncated: dated.length > shown.length };
    return { canonical: result, rendered: render(result) };
  });
}

function render(r: GlobResult): string {
  if (r.total === 0) return `No files match ${r.pattern}${r.path === "." ? "" : ` in ${r.path}`}.`;
  const lines = r.files.slice(0, linesWithin(r.files));
  if (lines.length === r.total) return lines.join("\n");
  return `${lines.join("\n")}\n[Showing the ${lines.length} most recently modified of ${r.total} matching files. Use a narrower pattern or path.]`;
}
