import type { Stats } from "node:fs";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { nulFields } from "./git.js";
import { syncExcludes, type Shadow } from "./shadow.js";

export interface Snapshot {
  tree: string;
  /** Files left out: larger than the limit, or unreadable. */
  skipped: string[];
  /** Nested repositories (`dir/`), left out as a whole. */
  nested: string[];
}

const STAT_BATCH = 256;
const uid = process.getuid?.() ?? -1;
const gid = process.getgid?.() ?? -1;

/**
 * Stages the workspace into the shadow index and writes its tree. Warm, it costs what `git add -A` costs:
 * git lists the untracked (not ignored) files and the tracked ones whose stat changed, only those are
 * checked (size, type) here, and only those are handed to `update-index`. Large and unreadable files are
 * never hashed; tracked files that became large, unreadable, or ignored leave the index.
 */
export async function takeSnapshot(shadow: Shadow, dataRoot: string, maxFileBytes: number): Promise<Snapshot> {
  const excludesChanged = await syncExcludes(shadow, dataRoot);
  const [others, dirty] = await Promise.all([
    shadow.git({ args: ["ls-files", "-z", "--others", "--exclude-standard"] }),
    shadow.git({ args: ["diff-files", "-z", "--name-only", "--no-renames", "--ignore-submodules"] }),
  ]);
  const untracked = nulFields(others.stdout);
  const tracked = nulFields(dirty.stdout);
  const nested = untracked.filter((p) => p.endsWith("/"));
  const add: string[] = [];
  const drop: string[] = [];
  const skipped: string[] = [];

  const untrackedFiles = untracked.filter((p) => !p.endsWith("/"));
  const untrackedStats = await statAll(shadow.workspace, untrackedFiles);
  untrackedFiles.forEach((path, i) => {
    const kind = classify(untrackedStats[i] ?? null, maxFileBytes);
    if (kind === "add") add.push(path);
    else if (kind === "skip") skipped.push(path);
  });

  const dirs = new Map<string, Promise<boolean>>();
  const trackedStats = await statAll(shadow.workspace, tracked);
  await Promise.all(tracked.map(async (path, i) => {
    const kind = (await underRealDirs(shadow.workspace, path, dirs)) ? classify(trackedStats[i] ?? null, maxFileBytes) : "drop";
    if (kind === "add") add.push(path);
    else drop.push(path);
    if (kind === "skip") skipped.push(path);
  }));

  // A changed ignore file can make tracked files ignored: they leave the snapshot like never-seen ones.
  if (excludesChanged || [...untracked, ...tracked].some((p) => p === ".gitignore" || p.endsWith("/.gitignore"))) {
    const ignored = nulFields((await shadow.git({ args: ["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"] })).stdout);
    if (ignored.length) {
      const set = new Set(ignored);
      drop.push(...ignored);
      add.splice(0, add.length, ...add.filter((p) => !set.has(p)));
    }
  }
  if (drop.length || add.length) shadow.indexTree = null;
  if (drop.length) await shadow.git({ args: ["update-index", "-z", "--force-remove", "--stdin"], stdin: nulList(drop) });
  // --remove as well: a file deleted between the listing and this call is dropped instead of failing it.
  if (add.length) await shadow.git({ args: ["update-index", "-z", "--add", "--remove", "--stdin"], stdin: nulList(add) });
  const tree = shadow.indexTree ?? (await shadow.git({ args: ["write-tree"] })).stdout.toString("utf8").trim();
  shadow.indexTree = tree;
  return { tree, skipped: skipped.sort(), nested };
}

const nulList = (paths: string[]) => paths.map((p) => `${p}\0`).join("");

type Kind = "add" | "skip" | "drop";

/** What to do with a listed path: hash it, leave it out and say so, or leave it out quietly (gone, a folder, a fifo). */
function classify(stats: Stats | null, maxFileBytes: number): Kind {
  if (!stats) return "drop";
  if (stats.isSymbolicLink()) return "add";
  if (!stats.isFile()) return "drop";
  if (stats.size > maxFileBytes || !readable(stats)) return "skip";
  return "add";
}

function readable(stats: Stats): boolean {
  if (uid === 0 || stats.mode & 0o004) return true;
  if (stats.uid === uid) return (stats.mode & 0o400) !== 0;
  return stats.gid === gid && (stats.mode & 0o040) !== 0;
}

async function statAll(root: string, paths: string[]): Promise<(Stats | null)[]> {
  const out: (Stats | null)[] = [];
  for (let i = 0; i < paths.length; i += STAT_BATCH) {
    out.push(...(await Promise.all(paths.slice(i, i + STAT_BATCH).map((p) => lstat(join(root, p)).catch(() => null)))));
  }
  return out;
}

/** Whether every folder above `path` is a real folder (not a symlink or a file): git refuses paths beyond a symlink. */
function underRealDirs(root: string, path: string, cache: Map<string, Promise<boolean>>): Promise<boolean> {
  const slash = path.lastIndexOf("/");
  if (slash === -1) return Promise.resolve(true);
  const dir = path.slice(0, slash);
  let known = cache.get(dir);
  if (!known) {
    known = underRealDirs(root, dir, cache).then(async (ok) => ok && ((await lstat(join(root, dir)).catch(() => null))?.isDirectory() ?? false));
    cache.set(dir, known);
  }
  return known;
}
