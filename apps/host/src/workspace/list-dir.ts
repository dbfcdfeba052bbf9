import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { HostError } from "../core/errors.js";
import type { ToolDef } from "../agent/tool.js";
import { resolveTarget } from "./contain.js";
import { workspaceTool } from "./tool.js";
import { linesWithin } from "./files.js";

export const LIST_MAX_ENTRIES = 1000;

const Input = z.object({
  path: z.string().min(1).optional().describe('Directory, relative to the workspace root (default ".")'),
});

export type EntryType = "file" | "dir" | "symlink" | "other";
export interface DirEntry { name: string; type: EntryType; size?: number }
export interface ListDirResult { path: string; entries: DirEntry[]; totalEntries: number; truncated: boolean }

const typeOf = (d: Dirent): EntryType => (d.isSymbolicLink() ? "symlink" : d.isDirectory() ? "dir" : d.isFile() ? "file" : "other");
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function listDirTool(options: { maxEntries?: number } = {}): ToolDef {
  const maxEntries = options.maxEntries ?? LIST_MAX_ENTRIES;
  return workspaceTool("list_dir", Input, async (args, ctx) => {
    const { abs, path, stats } = await resolveTarget(ctx.workspace, args.path ?? ".");
    if (!stats.isDirectory()) {
      throw new HostError("bad_input:workspace", `${path} is not a directory; use read_file to read a file.`, { reason: "not_a_directory" });
    }
    const all = (await readdir(abs, { withFileTypes: true })).sort((a, b) => byName(a.name, b.name));
    const shown = all.slice(0, maxEntries);
    const entries = await Promise.all(shown.map(async (d): Promise<DirEntry> => {
      const type = typeOf(d);
      if (type !== "file") return { name: d.name, type };
      const size = await lstat(join(abs, d.name)).then((s) => s.size, () => undefined);
      return size === undefined ? { name: d.name, type } : { name: d.name, type, size };
    }));
    const result: ListDirResult = { path, entries, totalEntries: all.length, truncated: all.length > shown.length };
    return { canonical: result, rendered: render(result) };
  });
}

const SUFFIX: Record<EntryType, string> = { file: "", dir: "/", symlink: "@", other: "" };

function render(r: ListDirResult): string {
  const all = r.entries.map((e) => `${e.name}${SUFFIX[e.type]}${e.size === undefined ? "" : `\t${e.size} B`}${e.type === "other" ? "\t(special file)" : ""}`);
  const lines = all.slice(0, linesWithin(all));
  const header = `${r.path}/ (${r.totalEntries} ${r.totalEntries === 1 ? "entry" : "entries"})`;
  if (r.entries.length === 0) return `${header}\n(empty directory)`;
  const cut = lines.length < r.totalEntries;
  const note = cut ? [`[Showing the first ${lines.length} of ${r.totalEntries} entries, sorted by name. List a subdirectory or use grep to narrow down.]`] : [];
  return [header, ...lines, ...note].join("\n");
}
