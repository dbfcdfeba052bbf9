import { constants } from "node:fs";
import { access, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { SkillRootKind } from "@seam/shared";

/** One filesystem root and its rank (SKL-2; lower wins within a layer). */
export interface RootSpec {
  path: string;
  rank: number;
  kind: SkillRootKind;
  source: string;
}

export const RANKS = { projectDsh: 100, projectAgents: 200, custom: 300, userDsh: 400, userAgents: 500, bundled: 600 } as const;

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** `~` and `~/x` against the user's home; other paths resolved as given. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return resolve(path);
}

const exists = (path: string) => stat(path).then(() => true, () => false);

/** Nearest ancestor of the workspace (itself included) that contains `.git`, else the workspace. */
export async function findProjectRoot(workspace: string): Promise<string> {
  const start = await realpath(workspace).catch(() => resolve(workspace));
  for (let dir = start; ; dir = dirname(dir)) {
    if (await exists(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/** The six roots in rank order for a workspace; custom roots keep their settings order. Duplicate paths keep the better rank. */
export function rootSpecs(input: { projectRoot?: string; customRoots: string[]; userHome: string; bundledDir?: string | null }): RootSpec[] {
  const specs: RootSpec[] = [];
  if (input.projectRoot !== undefined) {
    specs.push({ path: join(input.projectRoot, ".dsh", "skills"), rank: RANKS.projectDsh, kind: "project", source: "project-dsh" });
    specs.push({ path: join(input.projectRoot, ".agents", "skills"), rank: RANKS.projectAgents, kind: "project", source: "project-agents" });
  }
  for (const custom of input.customRoots) {
    specs.push({ path: expandHome(custom, input.userHome), rank: RANKS.custom, kind: "custom", source: "custom" });
  }
  specs.push({ path: join(input.userHome, ".dsh", "skills"), rank: RANKS.userDsh, kind: "user", source: "user-dsh" });
  specs.push({ path: join(input.userHome, ".agents", "skills"), rank: RANKS.userAgents, kind: "user", source: "user-agents" });
  if (input.bundledDir) specs.push({ path: resolve(input.bundledDir), rank: RANKS.bundled, kind: "bundled", source: "bundled" });
  const seen = new Set<string>();
  return specs.filter((s) => (seen.has(s.path) ? false : (seen.add(s.path), true)));
}

/** The longest existing prefix of `path` (the path itself when it exists). */
export async function nearestExisting(path: string): Promise<string> {
  for (let dir = path; ; dir = dirname(dir)) {
    if (await exists(dir)) return dir;
    if (dirname(dir) === dir) return dir;
  }
}

/** Existing and writable, or missing and creatable (its nearest existing ancestor is writable). */
export async function isWritable(path: string): Promise<boolean> {
  const target = await nearestExisting(path);
  return access(target, constants.W_OK).then(() => true, () => false);
}
