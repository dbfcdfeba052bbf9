import { RewindResult, TurnChanges, type ChangedFile, type TimelineItem } from "@seam/shared";
import { z } from "zod";

/**
 * The facts the checkpoints capability appends (CODE-5, apps/host/src/checkpoints/turns.ts) and what the
 * timeline derives from them: which turns were undone, and which user messages can be restored to.
 */
export const CHANGED_FILES_FACT = "changed_files";
export const CHANGES_UNDONE_FACT = "changes_undone";
export const FILES_RESTORED_FACT = "files_restored";

export const CHECKPOINT_FACTS: ReadonlySet<string> = new Set([CHANGED_FILES_FACT, CHANGES_UNDONE_FACT, FILES_RESTORED_FACT]);

export const ChangedFilesPayload = TurnChanges.extend({ turnId: z.string(), workspace: z.string() });
export type ChangedFilesPayload = z.infer<typeof ChangedFilesPayload>;

/** `turnId` for "Undo this turn"; `restoreId` (the files_restored fact's id) for an undone restore. */
export const UndonePayload = z.object({ turnId: z.string().nullable(), restoreId: z.string().optional(), result: RewindResult });
export type UndonePayload = z.infer<typeof UndonePayload>;

/** `forkId`: the fork "Restore to here" opened (CTX-5); older restores have none. */
export const RestoredPayload = z.object({ messageId: z.string(), target: z.string(), result: RewindResult, changes: TurnChanges, forkId: z.string().optional() });
export type RestoredPayload = z.infer<typeof RestoredPayload>;

export interface CheckpointIndex {
  /** turnId → the result of its "Undo this turn" (the first changes_undone fact for it). */
  undone: ReadonlyMap<string, RewindResult>;
  /** files_restored fact id → the result of undoing that restore. */
  undoneRestores: ReadonlyMap<string, RewindResult>;
  /** User messages with a Changed files card after them: "Restore to here" applies. */
  restorable: ReadonlySet<string>;
}

export const EMPTY_INDEX: CheckpointIndex = { undone: new Map(), undoneRestores: new Map(), restorable: new Set() };

/** Reads the checkpoint facts of a timeline (items in any order). */
export function checkpointIndex(items: readonly TimelineItem[]): CheckpointIndex {
  const sorted = [...items].sort((a, b) => a.seq - b.seq);
  const undone = new Map<string, RewindResult>();
  const undoneRestores = new Map<string, RewindResult>();
  const restorable = new Set<string>();
  let lastChange = -Infinity;
  for (const item of sorted) {
    if (item.kind !== "fact") continue;
    if (item.factKind === CHANGES_UNDONE_FACT) {
      // The payload's own object is kept (not the parsed copy), so it stays the same between renders.
      if (UndonePayload.safeParse(item.payload).success) {
        const raw = item.payload as UndonePayload;
        if (raw.turnId !== null && !undone.has(raw.turnId)) undone.set(raw.turnId, raw.result);
        if (raw.restoreId && !undoneRestores.has(raw.restoreId)) undoneRestores.set(raw.restoreId, raw.result);
      }
    } else if (item.factKind === CHANGED_FILES_FACT && ChangedFilesPayload.safeParse(item.payload).success) {
      lastChange = Math.max(lastChange, item.seq);
    }
  }
  for (const item of sorted) {
    if (item.kind === "message" && item.role === "user" && item.seq < lastChange) restorable.add(item.id);
  }
  return { undone, undoneRestores, restorable };
}

export const STATUS_LETTER: Record<ChangedFile["status"], "A" | "M" | "D"> = { added: "A", modified: "M", deleted: "D" };

/** "1 file", "3 files". */
export const fileCount = (n: number) => `${n} file${n === 1 ? "" : "s"}`;

/** What an Undo or a Restore did, in a few words: "2 restored, 1 removed, 1 left as it is". */
export function rewindSummary(result: RewindResult): string {
  const parts: string[] = [];
  if (result.restored.length) parts.push(`${result.restored.length} restored`);
  if (result.removed.length) parts.push(`${result.removed.length} removed`);
  if (result.conflicts.length) parts.push(`${result.conflicts.length} left as ${result.conflicts.length === 1 ? "it is" : "they are"}`);
  return parts.length ? parts.join(", ") : "nothing to change";
}

/** What a failed Undo or Restore means and what to do next, by the host's code (`reason`). */
export function rewindErrorAdvice(code: string | null, message: string): string {
  switch (code) {
    case "turn_running":
      return "A turn is running in this session. Wait for it to finish (or stop it), then try again.";
    case "already_undone":
      return "This turn's changes were already undone (perhaps from another tab).";
    case "no_changes":
      return message;
    case "git_unavailable":
    case "workspace_not_found":
      return message;
    case "snapshot_not_found":
      return "The snapshot for this point is gone (old snapshots are pruned), so the files cannot be rewound from here.";
    default:
      return `${message} Nothing was changed unless the card says so; try again, and if it keeps failing check the host log.`;
  }
}
