import type { Stats } from "node:fs";
import { lstat, readlink, realpath, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { HostError } from "../core/errors.js";
import { displayPath, isInside, outside, realpathOfExistingPrefix, workspaceRoot } from "./contain.js";

/** Where a write goes: a real path inside the workspace, and the file there now (if any). */
export interface WriteTarget {
  root: string;
  /** Real path of the file (an existing file's symlinks resolved; a new file's existing ancestors resolved). */
  abs: string;
  /** How results name it: relative to the workspace root, "/" separators. */
  path: string;
  /** The file as it is now; absent for a file to be created. */
  existing?: Stats;
}

const notAFile = (message: string) => new HostError("bad_input:workspace", message, { reason: "not_a_file" });

/**
 * Resolves a path the model wants to write (CODE-1, SEC-3). An existing file is followed through its
 * symlinks and must end up inside the workspace; a new file's nearest existing ancestor must resolve
 * inside the workspace and be a folder. Directories, special files and dangling links are refused.
 */
export async function resolveWriteTarget(workspace: string, requested: string): Promise<WriteTarget> {
  if (requested.includes("\0")) throw new HostError("bad_input:workspace", "The path contains a NUL character.", { reason: "invalid_arguments" });
  const root = await workspaceRoot(workspace);
  const target = resolve(workspace, requested);
  let real: string | undefined;
  try {
    real = await realpath(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw new HostError("denied:workspace", `Cannot access ${requested} (${code}).`, { reason: "access_denied" }, { cause: error });
  }
  if (real !== undefined) {
    if (!isInside(root, real)) throw outside(requested);
    const path = displayPath(root, real);
    const stats = await stat(real);
    if (stats.isDirectory()) throw notAFile(`${path} is a directory, not a file. Give the path of a file.`);
    if (!stats.isFile()) throw notAFile(`${path} is not a regular file (a device, socket or pipe); only regular files can be written.`);
    return { root, abs: real, path, existing: stats };
  }

  const link = await lstat(target).catch(() => undefined);
  if (link?.isSymbolicLink()) {
    const destination = await realpathOfExistingPrefix(resolve(dirname(target), await readlink(target)));
    if (!isInside(root, destination)) throw outside(requested);
    throw notAFile(`${requested} is a symbolic link to ${displayPath(root, destination)}, which does not exist. Write to that path instead.`);
  }
  const abs = await realpathOfExistingPrefix(target);
  if (!isInside(root, abs)) throw outside(requested);
  await assertFolderAncestor(root, abs);
  return { root, abs, path: displayPath(root, abs) };
}

/** The nearest existing ancestor of a new file must be a folder (not a file in the middle of the path). */
async function assertFolderAncestor(root: string, abs: string): Promise<void> {
  for (let dir = dirname(abs); isInside(root, dir); dir = dirname(dir)) {
    const stats = await stat(dir).catch(() => undefined);
    if (!stats) continue;
    if (!stats.isDirectory()) throw notAFile(`${displayPath(root, dir)} is a file, so ${displayPath(root, abs)} cannot be created inside it.`);
    return;
  }
}
