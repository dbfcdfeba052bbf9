import type { Stats } from "node:fs";
import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { HostError } from "../core/errors.js";
import { statOf } from "./files.js";

/** The workspace directory with symlinks resolved. */
export async function workspaceRoot(workspace: string): Promise<string> {
  try {
    return await realpath(workspace);
  } catch (error) {
    throw new HostError("not_found:workspace", `The session workspace ${workspace} does not exist.`, { reason: "not_found" }, { cause: error });
  }
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** `path` relative to `root` with "/" separators; "." for the root itself. */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === "" ? "." : rel.split(sep).join("/");
}

/**
 * Resolves `requested` (relative to the workspace, or absolute) to a real path inside the workspace
 * (SEC-3). Symlinks are resolved before the check, so a link pointing outside is refused.
 */
export async function resolveInside(workspace: string, requested: string): Promise<string> {
  if (requested.includes("\0")) throw new HostError("bad_input:workspace", "The path contains a NUL character.", { reason: "invalid_arguments" });
  const root = await workspaceRoot(workspace);
  const target = resolve(workspace, requested);
  let real: string;
  try {
    real = await realpath(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw new HostError("denied:workspace", `Cannot access ${requested} (${code}).`, { reason: "access_denied" }, { cause: error });
    // Say "outside" rather than "missing" for paths that would be outside even if they existed.
    if (!isInside(root, await realpathOfExistingPrefix(target))) throw outside(requested);
    throw new HostError("not_found:workspace", `${requested} does not exist in the workspace. Use list_dir to see what is there.`, { reason: "not_found" }, { cause: error });
  }
  if (!isInside(root, real)) throw outside(requested);
  return real;
}

/** A path a tool was given, resolved inside the workspace and stat'ed; `path` is how results name it. */
export interface Target { root: string; abs: string; path: string; stats: Stats }

export async function resolveTarget(workspace: string, requested: string): Promise<Target> {
  const root = await workspaceRoot(workspace);
  const abs = await resolveInside(workspace, requested);
  const path = displayPath(root, abs);
  return { root, abs, path, stats: await statOf(abs, path) };
}

export const outside = (requested: string) =>
  new HostError("denied:workspace", `${requested} is outside the workspace (symlinks are resolved). Use a path inside the workspace.`, { reason: "outside_workspace" });

/** realpath of the longest existing ancestor of `path`, with the missing rest appended. */
export async function realpathOfExistingPrefix(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(await realpath(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      missing.push(basename(current));
      current = parent;
    }
  }
}
