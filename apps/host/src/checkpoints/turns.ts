import type { ChangedFile, FactItem, RestoreAndForkInput, RestoreAndForkResult, RewindResult, SessionInfo, TimelineItem, TurnChanges } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import type { Disposer } from "../core/scope.js";
import type { AfterTurn } from "../agent/session.js";
import type { BeforeRun } from "../agent/runtime.js";
import type { Api as Engine } from "./checkpoints.js";
import { restoreAndFork } from "./restore-fork.js";
import { createLog } from "../core/log.js";

/** The Changed files card of a turn (CODE-5): the files between its two snapshots. */
export const CHANGED_FILES_FACT = "changed_files";
/** "Undo this turn" was applied: what was restored and what was left as a conflict. */
export const CHANGES_UNDONE_FACT = "changes_undone";
/** "Restore to here" rewound the files to the state before a user message. */
export const FILES_RESTORED_FACT = "files_restored";

export interface ChangedFilesPayload extends TurnChanges { turnId: string; workspace: string }
/** `turnId` for "Undo this turn"; `restoreId` (the files_restored fact) for undoing a restore. */
export interface UndonePayload { turnId: string | null; restoreId?: string; result: RewindResult }
/** `forkId`: the session "Restore to here" forked before the message (CTX-5); absent for a files-only restore. */
export interface RestoredPayload { messageId: string; target: string; result: RewindResult; changes: TurnChanges; forkId?: string }

/** Effects that can change files: a turn is snapshotted before the first such call runs. */
const CHANGES_FILES = new Set(["write", "execute", "external"]);

export interface TurnDeps {
  engine: Engine;
  runtime: { beforeRun(fn: BeforeRun): Disposer };
  sessions: {
    afterTurn(fn: AfterTurn): Disposer;
    appendFact(sessionId: string, fact: { factKind: string; text: string; payload: unknown }): Promise<FactItem>;
    runningTurn(sessionId: string): string | null;
    workspaceOf(sessionId: string): Promise<string>;
  };
  items: { list(sessionId: string): Promise<TimelineItem[]> };
  /** Forks for "Restore to here" (CTX-5): the history before a user message as a new session, and its removal. */
  forks: {
    forkBefore(sessionId: string, itemId: string): Promise<SessionInfo>;
    remove(sessionId: string): Promise<void>;
  };
  warn?(message: string): void;
}

/** What the tRPC layer calls: "Undo this turn" and "Restore to here". */
export interface TurnsApi {
  undo(sessionId: string, turnId: string): Promise<RewindResult>;
  restore(sessionId: string, messageId: string): Promise<RewindResult>;
  /**
   * "Restore to here" (CODE-5, CTX-5): rewinds the files like `restore`, then forks the session before the
   * message. All or nothing: files a restore cannot set back (conflicts) roll it back and make no fork
   * unless `acceptConflicts`; a failed fork puts the files back. The original keeps its whole history and
   * gets the "Files restored" fact (with the fork's id), whose Undo restore reverts the files as today.
   */
  restoreAndFork(input: RestoreAndForkInput): Promise<RestoreAndForkResult>;
  /** Reverts a "Restore to here" (its files_restored fact): the files back to how they were just before it. */
  undoRestore(sessionId: string, factId: string): Promise<RewindResult>;
}

/**
 * Brackets every turn that can change files with snapshots (CODE-5): the start snapshot is taken just
 * before the turn's first write, command or MCP call runs (nothing earlier in the turn can change a file),
 * the end snapshot when the turn ends; a turn that changed files gets a Changed files fact. Where git is
 * missing, the calls run without checkpoints and the capability row says why.
 */
export function turnCheckpoints(deps: TurnDeps): { api: TurnsApi; disposers: Disposer[] } {
  const warn = deps.warn ?? ((m: string) => createLog("checkpoints").warn(m));
  /** turnId → the start snapshot (taken once, on the first changing call). */
  const started = new Map<string, Promise<string | null>>();

  const beforeRun: BeforeRun = async ({ tool, req }) => {
    if (!req.turnId || !CHANGES_FILES.has(tool.effect)) return;
    let start = started.get(req.turnId);
    if (!start) {
      const label = `${req.turnId}-start`;
      start = (async () => {
        if (!(await deps.engine.available()).ok) return null;
        try {
          return (await deps.engine.snapshot(req.workspace, label)).tree;
        } catch (error) {
          warn(`no start snapshot for turn ${req.turnId}: ${messageOf(error)}`);
          return null;
        }
      })();
      started.set(req.turnId, start);
    }
    await start;
  };

  const afterTurn: AfterTurn = async (turn) => {
    const start = started.get(turn.turnId);
    if (!start) return;
    started.delete(turn.turnId);
    const from = await start;
    if (!from) return;
    const to = (await deps.engine.snapshot(turn.workspace, `${turn.turnId}-end`)).tree;
    if (to === from) return;
    const changes = await deps.engine.turnChanges(turn.workspace, from, to);
    if (changes.files.length === 0) return;
    const payload: ChangedFilesPayload = { ...changes, turnId: turn.turnId, workspace: turn.workspace };
    await turn.appendFact({ factKind: CHANGED_FILES_FACT, text: describeChanges("Files changed in this turn", changes.files), payload });
  };

  const idle = (sessionId: string) => {
    if (deps.sessions.runningTurn(sessionId)) {
      throw new HostError("conflict:checkpoints", "A turn is running in this session; stop it or wait for it to finish, then try again.", { reason: "turn_running" });
    }
  };

  /** The user message and the snapshot "Restore to here" rewinds to: the start of the first turn after it that changed files. */
  const restoreTarget = async (sessionId: string, messageId: string) => {
    const items = await deps.items.list(sessionId);
    const message = items.find((i) => i.id === messageId);
    if (!message || message.kind !== "message" || message.role !== "user") {
      throw new HostError("not_found:checkpoints", "That message is not a user message of this session.", { reason: "not_found" });
    }
    const first = factsOf<ChangedFilesPayload>(items, CHANGED_FILES_FACT).find((f) => f.seq > message.seq);
    if (!first) throw new HostError("bad_input:checkpoints", "No files were changed after this message, so there is nothing to restore.", { reason: "no_changes" });
    return { message, workspace: await deps.sessions.workspaceOf(sessionId), target: first.payload.from };
  };

  /** The files_restored fact of the session the restore was started from: the model reads it, the UI offers Undo restore on it. */
  const recordRestore = async (sessionId: string, r: { messageId: string; workspace: string; target: string; result: RewindResult; forkId?: string }) => {
    const changes = await deps.engine.turnChanges(r.workspace, r.result.before, r.target);
    const conflicts = r.result.conflicts.length ? ` Left as they are: ${r.result.conflicts.map((c) => c.path).join(", ")}.` : "";
    const forked = r.forkId ? " The conversation from that message on was continued in a fork; this session's history is unchanged." : "";
    return deps.sessions.appendFact(sessionId, {
      factKind: FILES_RESTORED_FACT,
      text: `${describeChanges("The user restored the workspace files to how they were before an earlier message", changes.files)}${conflicts}${forked} Read files again before editing them.`,
      payload: { messageId: r.messageId, target: r.target, result: r.result, changes, ...(r.forkId && { forkId: r.forkId }) } satisfies RestoredPayload,
    });
  };

  const api: TurnsApi = {
    async undo(sessionId, turnId) {
      idle(sessionId);
      const items = await deps.items.list(sessionId);
      const card = factsOf<ChangedFilesPayload>(items, CHANGED_FILES_FACT).find((f) => f.payload.turnId === turnId);
      if (!card) throw new HostError("not_found:checkpoints", "That turn changed no files (or its checkpoint is gone), so there is nothing to undo.", { reason: "no_changes" });
      if (factsOf<UndonePayload>(items, CHANGES_UNDONE_FACT).some((f) => f.payload.turnId === turnId)) {
        throw new HostError("conflict:checkpoints", "This turn's changes were already undone.", { reason: "already_undone" });
      }
      const result = await deps.engine.undo(card.payload.workspace, card.payload.from, card.payload.to);
      const conflicts = result.conflicts.length ? ` ${result.conflicts.length} file(s) changed since then were left as they are: ${result.conflicts.map((c) => c.path).join(", ")}.` : "";
      await deps.sessions.appendFact(sessionId, {
        factKind: CHANGES_UNDONE_FACT,
        text: `The user undid the file changes of an earlier turn: ${result.restored.length} file(s) restored, ${result.removed.length} removed.${conflicts} Read files again before editing them.`,
        payload: { turnId, result } satisfies UndonePayload,
      });
      return result;
    },

    async restore(sessionId, messageId) {
      idle(sessionId);
      const { workspace, target } = await restoreTarget(sessionId, messageId);
      const result = await deps.engine.restore(workspace, target);
      await recordRestore(sessionId, { messageId, workspace, target, result });
      return result;
    },

    restoreAndFork: (input) => restoreAndFork({ engine: deps.engine, forks: deps.forks, idle, restoreTarget, recordRestore, warn }, input),

    async undoRestore(sessionId, factId) {
      idle(sessionId);
      const items = await deps.items.list(sessionId);
      const restored = factsOf<RestoredPayload>(items, FILES_RESTORED_FACT).find((f) => f.id === factId);
      if (!restored) throw new HostError("not_found:checkpoints", "That is not a restore of this session.", { reason: "not_found" });
      if (factsOf<UndonePayload>(items, CHANGES_UNDONE_FACT).some((f) => f.payload.restoreId === factId)) {
        throw new HostError("conflict:checkpoints", "This restore was already undone.", { reason: "already_undone" });
      }
      const workspace = await deps.sessions.workspaceOf(sessionId);
      // Like undoing a turn: from the restored state back to the snapshot taken just before the restore.
      const result = await deps.engine.undo(workspace, restored.payload.result.before, restored.payload.target);
      const conflicts = result.conflicts.length ? ` Left as they are (changed since): ${result.conflicts.map((c) => c.path).join(", ")}.` : "";
      await deps.sessions.appendFact(sessionId, {
        factKind: CHANGES_UNDONE_FACT,
        text: `The user undid an earlier restore: the files are back as they were before it (${result.restored.length} restored, ${result.removed.length} removed).${conflicts} Read files again before editing them.`,
        payload: { turnId: null, restoreId: factId, result } satisfies UndonePayload,
      });
      return result;
    },
  };

  return { api, disposers: [deps.runtime.beforeRun(beforeRun), deps.sessions.afterTurn(afterTurn)] };
}

type Fact<P> = FactItem & { payload: P };
function factsOf<P>(items: TimelineItem[], kind: string): Fact<P>[] {
  return items.filter((i): i is Fact<P> => i.kind === "fact" && i.factKind === kind && typeof i.payload === "object" && i.payload !== null);
}

const LETTER = { added: "A", modified: "M", deleted: "D" } as const;
/** "Files changed in this turn: M src/a.ts (+3 −1), A new.txt (+10 −0)". */
function describeChanges(head: string, files: ChangedFile[]): string {
  const shown = files.slice(0, 50).map((f) => `${LETTER[f.status]} ${f.path}${f.binary ? " (binary)" : ` (+${f.added} −${f.removed})`}`);
  const more = files.length > shown.length ? `, and ${files.length - shown.length} more` : "";
  return `${head}: ${shown.join(", ")}${more}.`;
}
