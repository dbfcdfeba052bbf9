import { z } from "zod";

/** A snapshot of a workspace: the id of a tree object in its shadow repository (CODE-5). */
export const SnapshotTree = z.string().regex(/^[0-9a-f]{40}$/, "a snapshot id is 40 lowercase hex digits (a git tree id)");
export type SnapshotTree = z.infer<typeof SnapshotTree>;

/** A name for a snapshot's ref (e.g. `<turnId>-start`): letters, digits, `_`, `-`, inner dots. */
export const SnapshotLabel = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, "a snapshot label is letters, digits, '_', '-' and inner dots")
  .refine((label) => !label.endsWith(".lock"), "a snapshot label cannot end in .lock");
export type SnapshotLabel = z.infer<typeof SnapshotLabel>;

/** What a snapshot captured: its tree and the files it left out. */
export const SnapshotResult = z.object({
  tree: SnapshotTree,
  /** Files left out because they are larger than the limit (workspace-relative, `/` separators). */
  skipped: z.array(z.string()),
  /** Nested git repositories (folders with their own `.git`), left out as a whole (path ends in `/`). */
  nested: z.array(z.string()),
});
export type SnapshotResult = z.infer<typeof SnapshotResult>;

/** One file a turn changed, for the Changed files card. */
export const ChangedFile = z.object({
  path: z.string(),
  status: z.enum(["added", "modified", "deleted"]),
  /** Lines added / removed (0 for binary files). */
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  binary: z.boolean(),
  /** Git file modes before and after (`100644`, `100755`, `120000` for a symlink), null when absent. */
  oldMode: z.string().nullable(),
  newMode: z.string().nullable(),
  /** Unified diff (git format, from the `diff --git` line); empty for binary files and omitted patches. */
  patch: z.string(),
  /** True when `patch` was cut (per-file limit) or left out (the turn's limit was reached). */
  truncated: z.boolean(),
});
export type ChangedFile = z.infer<typeof ChangedFile>;

/** A turn's Changed files card: the files between two snapshots and the totals. */
export const TurnChanges = z.object({
  from: SnapshotTree,
  to: SnapshotTree,
  files: z.array(ChangedFile),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  /** True when some patch was cut or left out; the counts are always complete. */
  truncated: z.boolean(),
});
export type TurnChanges = z.infer<typeof TurnChanges>;

/** A file Undo or Restore left untouched, and why. */
export const CheckpointConflict = z.object({ path: z.string(), reason: z.string() });
export type CheckpointConflict = z.infer<typeof CheckpointConflict>;

/** The outcome of "Undo this turn" or "Restore to here". */
export const RewindResult = z.object({
  /** Files written back (recreated or reverted). */
  restored: z.array(z.string()),
  /** Files deleted (they did not exist in the target snapshot). */
  removed: z.array(z.string()),
  conflicts: z.array(CheckpointConflict),
  /** The snapshot taken just before, so the undo or restore can itself be reverted (`restore(before)`). */
  before: SnapshotTree,
});
export type RewindResult = z.infer<typeof RewindResult>;

/** Whether checkpoints can run here (git present). */
export const CheckpointsAvailability = z.object({
  ok: z.boolean(),
  reason: z.string().optional(),
  version: z.string().optional(),
});
export type CheckpointsAvailability = z.infer<typeof CheckpointsAvailability>;
