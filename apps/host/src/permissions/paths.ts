import { posix } from "node:path";

/** Whether `path` (absolute, normalised) is `root` or below it. */
export function isInside(root: string, path: string): boolean {
  const rel = posix.relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !posix.isAbsolute(rel));
}

/**
 * A tool's path argument as a workspace-relative path with "/" separators ("." for the root), or
 * null when it lies outside the workspace. Symlinks are not resolved: the file tools refuse links
 * that leave the workspace themselves.
 */
export function workspaceRelative(workspace: string, path: string): string | null {
  if (path.includes("\0")) return null;
  const abs = posix.resolve(workspace, path);
  if (!isInside(workspace, abs)) return null;
  return posix.relative(workspace, abs) || ".";
}
