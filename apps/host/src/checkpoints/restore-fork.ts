/**
 * "Restore to here" (CODE-5, CTX-5): rewind the workspace's files to before a user message AND fork the
 * conversation before it, so the user continues from there with the message ready to edit.
 *
 * Nothing is left half-done, and nothing is rolled back on disk (a rollback could delete a file that
 * was outside snapshots): the restore is first previewed without writing; files it could not set back
 * (conflicts) are returned and nothing happens until the user accepts them. The fork is made next (a
 * database write that can be removed again); only then are the files rewound, and a failure there
 * removes the fork. The restore is recorded in the original session, whose "Undo restore" reverts it
 * as before.
 */
import { formatIssues, RestoreAndForkInput, type FactItem, type RestoreAndForkResult, type RewindResult, type SessionInfo, type TimelineItem } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import type { Api as Engine } from "./checkpoints.js";

export interface RestoreForkDeps {
  engine: Pick<Engine, "restore" | "previewRestore">;
  forks: { forkBefore(sessionId: string, itemId: string): Promise<SessionInfo>; remove(sessionId: string): Promise<void> };
  /** Throws conflict:checkpoints while a turn runs in the session. */
  idle(sessionId: string): void;
  restoreTarget(sessionId: string, messageId: string): Promise<{ message: TimelineItem; workspace: string; target: string }>;
  recordRestore(sessionId: string, r: { messageId: string; workspace: string; target: string; result: RewindResult; forkId?: string }): Promise<FactItem>;
  warn(message: string): void;
}

export async function restoreAndFork(d: RestoreForkDeps, raw: RestoreAndForkInput): Promise<RestoreAndForkResult> {
  const input = RestoreAndForkInput.safeParse(raw);
  if (!input.success) throw new HostError("bad_input:checkpoints", formatIssues(input.error), { reason: "invalid_argument" });
  const { sessionId, messageId, acceptConflicts } = input.data;
  d.idle(sessionId);
  const { message, workspace, target } = await d.restoreTarget(sessionId, messageId);
  const text = message.kind === "message" ? message.text : "";

  if (!acceptConflicts) {
    const preview = await d.engine.previewRestore(workspace, target);
    if (preview.conflicts.length > 0) return { outcome: "conflicts", conflicts: preview.conflicts };
  }

  const fork = await d.forks.forkBefore(sessionId, messageId);
  const dropFork = () => d.forks.remove(fork.id).catch((e: unknown) => d.warn(`could not remove fork ${fork.id} of a failed restore: ${messageOf(e)}`));
  let result: RewindResult;
  try {
    d.idle(sessionId); // a turn may have started while the fork was written
    result = await d.engine.restore(workspace, target);
  } catch (error) {
    await dropFork();
    throw error;
  }
  try {
    await d.recordRestore(sessionId, { messageId, workspace, target, result, forkId: fork.id });
  } catch (error) {
    await dropFork();
    throw new HostError(
      "internal:checkpoints",
      `The files were restored, but the restore could not be recorded (${messageOf(error)}), so this session cannot undo it and no fork was kept. Check the host log and the database, then look over the workspace's files.`,
      { reason: "record_failed" },
      { cause: error },
    );
  }
  // Files that changed between the preview and the restore (or accepted conflicts) are in `result.conflicts`, shown to the user.
  return { outcome: "forked", session: fork, text, result };
}
