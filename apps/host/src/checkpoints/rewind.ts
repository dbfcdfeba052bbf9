import type { CheckpointConflict } from "@seam/shared";
import type { Stats } from "node:fs";
import { lstat, rm, rmdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { treeDiff, type Side, type TreeChange } from "./diff.js";
import { ignoredInTree } from "./ignored-then.js";
import type { Shadow } from "./shadow.js";

/** One path to bring to a target state: its content in `tree`, or absent. */
interface Item { path: string; want: Side | null }
interface Plan { items: Item[]; conflicts: CheckpointConflict[] }
export interface Applied { restored: string[]; removed: string[]; conflicts: CheckpointConflict[] }

const stat = (shadow: Shadow, path: string): Promise<Stats | null> => lstat(join(shadow.workspace, path)).catch(() => null);
const isFileLike = (s: Stats | null) => s !== null && !s.isDirectory();

/**
 * Undo a turn (start → end) given the workspace as it is now (`current`, a fresh snapshot): each path the
 * turn changed goes back to its start state unless it differs from the end state now — then it is a conflict.
 */
export async function planUndo(shadow: Shadow, start: string, end: string, current: string): Promise<Plan> {
  const [turn, since] = await Promise.all([treeDiff(shadow, start, end), treeDiff(shadow, end, current)]);
  const changedSince = new Map(since.map((c) => [c.path, c]));
  const plan: Plan = { items: [], conflicts: [] };
  for (const change of turn) {
    const later = changedSince.get(change.path);
    if (later) plan.conflicts.push({ path: change.path, reason: await laterReason(shadow, later) });
    else plan.items.push({ path: change.path, want: change.from });
  }
  return plan;
}

async function laterReason(shadow: Shadow, later: TreeChange): Promise<string> {
  if (later.from && later.to) return later.from.mode !== later.to.mode && later.from.sha === later.to.sha ? "its mode changed after the turn ended" : "it was changed after the turn ended";
  if (later.to) return "it was created again after the turn ended";
  return isFileLike(await stat(shadow, later.path))
    ? "it is no longer in snapshots (now ignored, too large or unreadable), so it cannot be checked"
    : "it was deleted after the turn ended";
}

/** Restore the workspace to `target` given the workspace now (`current`): every differing path is set to the target. */
export async function planRestore(shadow: Shadow, target: string, current: string): Promise<Plan> {
  const plan: Plan = { items: [], conflicts: [] };
  const ignoredThen = ignoredInTree(shadow, target);
  for (const change of await treeDiff(shadow, target, current)) {
    if (change.from && !change.to && isFileLike(await stat(shadow, change.path))) {
      plan.conflicts.push({ path: change.path, reason: "the file now there is not in snapshots (ignored, too large or unreadable); left as is" });
    } else if (!change.from && (await ignoredThen(change.path))) {
      // Not in the target because it was ignored then, not because it did not exist: removing it could lose it.
      plan.conflicts.push({ path: change.path, reason: "it was ignored when that snapshot was taken, so the snapshot cannot tell whether it existed then; left as is" });
    } else {
      plan.items.push({ path: change.path, want: change.from });
    }
  }
  return plan;
}

/**
 * Carries out a plan: deletions first (then the folders they emptied), then `checkout-index` of the
 * target tree's files through a temporary index (modes and symlinks kept). Before writing, nothing but
 * the path itself may be in the way: a folder where a file goes, or a file or link where a folder goes,
 * makes it a conflict, so git's forced checkout never removes anything else.
 */
export async function applyPlan(shadow: Shadow, tree: string, plan: Plan): Promise<Applied> {
  const conflicts = [...plan.conflicts];
  const removed: string[] = [];
  const parents = new Set<string>();
  for (const item of plan.items.filter((i) => i.want === null)) {
    const blocked = await blockedParent(shadow, item.path);
    const now = await stat(shadow, item.path);
    if (blocked) conflicts.push({ path: item.path, reason: blocked });
    else if (now?.isDirectory()) conflicts.push({ path: item.path, reason: "a folder now stands where this file was; left as is" });
    else if (now) {
      await unlink(join(shadow.workspace, item.path));
      removed.push(item.path);
      for (let p = item.path; p.includes("/"); ) parents.add((p = p.slice(0, p.lastIndexOf("/"))));
    }
  }
  for (const dir of [...parents].sort((a, b) => b.length - a.length)) {
    await rmdir(join(shadow.workspace, dir)).catch(() => undefined);
  }

  const writes: string[] = [];
  for (const item of plan.items.filter((i) => i.want !== null)) {
    const blocked = await blockedParent(shadow, item.path);
    if (blocked) conflicts.push({ path: item.path, reason: blocked });
    else if ((await stat(shadow, item.path))?.isDirectory()) conflicts.push({ path: item.path, reason: "a folder now stands where this file goes; left as is" });
    else writes.push(item.path);
  }
  if (writes.length) {
    const index = join(shadow.gitDir, "seam-rewind-index");
    try {
      await shadow.git({ args: ["read-tree", tree], env: { GIT_INDEX_FILE: index } });
      await shadow.git({ args: ["checkout-index", "-f", "-z", "--stdin"], env: { GIT_INDEX_FILE: index }, stdin: writes.map((p) => `${p}\0`).join("") });
    } finally {
      await rm(index, { force: true });
    }
  }
  const byPath = (a: CheckpointConflict, b: CheckpointConflict) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return { restored: writes, removed, conflicts: conflicts.sort(byPath) };
}

/**
 * What `applyPlan` would do, without writing anything ("Restore to here" asks before it rewinds, CTX-5).
 * A file in the way of a folder counts as gone when the plan deletes it first.
 */
export async function previewPlan(shadow: Shadow, plan: Plan): Promise<Applied> {
  const conflicts = [...plan.conflicts];
  const removed: string[] = [];
  for (const item of plan.items.filter((i) => i.want === null)) {
    const blocked = await blockedParent(shadow, item.path);
    const now = await stat(shadow, item.path);
    if (blocked) conflicts.push({ path: item.path, reason: blocked });
    else if (now?.isDirectory()) conflicts.push({ path: item.path, reason: "a folder now stands where this file was; left as is" });
    else if (now) removed.push(item.path);
  }
  const gone = new Set(removed);
  const writes: string[] = [];
  for (const item of plan.items.filter((i) => i.want !== null)) {
    const blocked = await blockedParent(shadow, item.path, gone);
    if (blocked) conflicts.push({ path: item.path, reason: blocked });
    else if ((await stat(shadow, item.path))?.isDirectory()) conflicts.push({ path: item.path, reason: "a folder now stands where this file goes; left as is" });
    else writes.push(item.path);
  }
  const byPath = (a: CheckpointConflict, b: CheckpointConflict) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return { restored: writes, removed, conflicts: conflicts.sort(byPath) };
}

/** Why a path's folders cannot hold it (a file or symlink where a folder must be), or null. `gone`: paths to treat as already deleted. */
async function blockedParent(shadow: Shadow, path: string, gone?: ReadonlySet<string>): Promise<string | null> {
  const parts = path.split("/").slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    if (gone?.has(dir)) return null;
    const s = await stat(shadow, dir);
    if (!s) return null;
    if (!s.isDirectory()) return `${dir} is now a ${s.isSymbolicLink() ? "symbolic link" : "file"}, where a folder was; left as is`;
  }
  return null;
}
