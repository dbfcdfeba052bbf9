import { readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import ignore from "ignore";
import { glob } from "tinyglobby";

type Ignore = ReturnType<typeof ignore>;

/** Always skipped by glob, whatever the .gitignore files say. */
export const ALWAYS_SKIPPED = ["**/.git/**", "**/node_modules/**"];

/**
 * The .gitignore files that apply under `base` (those in `base`'s folders from the workspace root
 * down, and every one below it), as a test on workspace-relative "/" paths. A deeper file's rules win
 * over a shallower one's, and nothing inside an ignored folder is listed, even if a .gitignore in it
 * negates a pattern (git does not read it). Not supported: re-including a folder from a deeper
 * .gitignore once a shallower one excluded it by a pattern that matches at any depth.
 */
export async function gitignoreMatcher(root: string, base: string, signal?: AbortSignal): Promise<(rel: string) => boolean> {
  const folders = new Set<string>();
  const baseRel = relative(root, base).split(sep).filter(Boolean);
  for (let depth = 0; depth <= baseRel.length; depth++) folders.add(baseRel.slice(0, depth).join("/"));
  const nested = await glob("**/.gitignore", { cwd: base, dot: true, onlyFiles: true, followSymbolicLinks: false, ignore: ALWAYS_SKIPPED, signal, expandDirectories: false });
  for (const file of nested) folders.add([...baseRel, ...file.split("/").slice(0, -1)].join("/"));

  const rules = new Map<string, Ignore>();
  await Promise.all(
    [...folders].map(async (folder) => {
      const text = await readFile(join(root, ...folder.split("/").filter(Boolean), ".gitignore"), "utf8").catch(() => undefined);
      if (text !== undefined) rules.set(folder, ignore().add(text));
    }),
  );
  if (rules.size === 0) return () => false;

  const folderIgnored = new Map<string, boolean>();
  const ignored = (rel: string, isDir: boolean): boolean => {
    const parts = rel.split("/");
    let state = false;
    for (let depth = 0; depth < parts.length; depth++) {
      const folder = parts.slice(0, depth).join("/");
      const ig = rules.get(folder);
      if (!ig) continue;
      // git never reads a .gitignore inside an ignored folder, and lists nothing below it.
      if (depth > 0 && isFolderIgnored(folder)) return true;
      const result = ig.test(parts.slice(depth).join("/") + (isDir ? "/" : ""));
      if (result.ignored) state = true;
      else if (result.unignored) state = false;
    }
    return state;
  };
  const isFolderIgnored = (folder: string): boolean => {
    let known = folderIgnored.get(folder);
    if (known === undefined) folderIgnored.set(folder, (known = ignored(folder, true)));
    return known;
  };
  return (rel) => ignored(rel, false);
}
