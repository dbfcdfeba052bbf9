"use client";
import type { FactItem, RewindResult } from "@seam/shared";
import { HistoryIcon, Undo2Icon } from "lucide-react";
import { memo } from "react";
import { FactRow, FactShell, ModelText } from "../chat/fact-row";
import { DiffCounts } from "../diff/patch-diff";
import { ChangedFilesCard } from "./changed-files-card";
import {
  CHANGED_FILES_FACT, CHANGES_UNDONE_FACT, ChangedFilesPayload, FILES_RESTORED_FACT, fileCount, RestoredPayload, rewindSummary, UndonePayload,
} from "./checkpoint-facts";
import { ChangedFileList } from "./file-list";
import { RewindResultView } from "./rewind-result";

/**
 * A checkpoint fact in the timeline: the Changed files card for `changed_files`, compact rows that
 * expand for `changes_undone` and `files_restored`; anything unreadable falls back to the generic row.
 */
export const CheckpointFact = memo(function CheckpointFact({
  fact,
  sessionId,
  undone,
  running,
}: {
  fact: FactItem;
  sessionId: string;
  /** For a Changed files card: the result of its turn's undo, when a later fact records one. */
  undone: RewindResult | null;
  running: boolean;
}) {
  if (fact.factKind === CHANGED_FILES_FACT) {
    const p = ChangedFilesPayload.safeParse(fact.payload);
    if (p.success) return <ChangedFilesCard sessionId={sessionId} payload={p.data} undone={undone} running={running} />;
  }
  if (fact.factKind === CHANGES_UNDONE_FACT) {
    const p = UndonePayload.safeParse(fact.payload);
    if (p.success) return <UndoneRow fact={fact} result={p.data.result} />;
  }
  if (fact.factKind === FILES_RESTORED_FACT) {
    const p = RestoredPayload.safeParse(fact.payload);
    if (p.success) return <RestoredRow fact={fact} payload={p.data} />;
  }
  return <FactRow fact={fact} />;
});

function UndoneRow({ fact, result }: { fact: FactItem; result: RewindResult }) {
  return (
    <FactShell fact={fact} icon={Undo2Icon} title="Turn undone" summary={rewindSummary(result)}>
      <RewindResultView result={result} />
      <details className="text-[12px]">
        <summary className="cursor-pointer">What the model was told</summary>
        <div className="mt-1.5">
          <ModelText text={fact.text} />
        </div>
      </details>
    </FactShell>
  );
}

function RestoredRow({ fact, payload }: { fact: FactItem; payload: RestoredPayload }) {
  const { changes, result } = payload;
  return (
    <FactShell
      fact={fact}
      icon={HistoryIcon}
      title="Files restored"
      summary={
        <>
          {fileCount(changes.files.length)}, <DiffCounts added={changes.added} removed={changes.removed} /> · {rewindSummary(result)}
        </>
      }
    >
      {changes.files.length > 0 ? (
        <div className="-ml-1.5">
          <ChangedFileList files={changes.files} />
        </div>
      ) : (
        <p>No file differed from the restored state.</p>
      )}
      {result.conflicts.length > 0 && <RewindResultView result={result} />}
      <p className="text-[11.5px]">
        The files as they were just before this restore are kept as snapshot <span className="font-mono">{result.before.slice(0, 12)}</span>.
      </p>
      <details className="text-[12px]">
        <summary className="cursor-pointer">What the model was told</summary>
        <div className="mt-1.5">
          <ModelText text={fact.text} />
        </div>
      </details>
    </FactShell>
  );
}
