"use client";
import type { FactItem, RewindResult } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { GitForkIcon, HistoryIcon, LoaderCircleIcon, Undo2Icon } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { hostCodeOf } from "@/lib/host-error";
import { useTRPC } from "@/trpc/react";
import { memo } from "react";
import { FactRow, FactShell, ModelText } from "../chat/fact-row";
import { DiffCounts } from "../diff/patch-diff";
import { ChangedFilesCard } from "./changed-files-card";
import {
  CHANGED_FILES_FACT, CHANGES_UNDONE_FACT, ChangedFilesPayload, FILES_RESTORED_FACT, fileCount, RestoredPayload, rewindErrorAdvice, rewindSummary, UndonePayload,
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
  /** For a Changed files card: the result of its turn's undo; for a restore row: of undoing the restore. */
  undone: RewindResult | null;
  running: boolean;
}) {
  if (fact.factKind === CHANGED_FILES_FACT) {
    const p = ChangedFilesPayload.safeParse(fact.payload);
    if (p.success) return <ChangedFilesCard sessionId={sessionId} payload={p.data} undone={undone} running={running} />;
  }
  if (fact.factKind === CHANGES_UNDONE_FACT) {
    const p = UndonePayload.safeParse(fact.payload);
    if (p.success) return <UndoneRow fact={fact} result={p.data.result} title={p.data.restoreId ? "Restore undone" : "Turn undone"} />;
  }
  if (fact.factKind === FILES_RESTORED_FACT) {
    const p = RestoredPayload.safeParse(fact.payload);
    if (p.success) return <RestoredRow fact={fact} payload={p.data} sessionId={sessionId} undone={undone} running={running} />;
  }
  return <FactRow fact={fact} />;
});

function UndoneRow({ fact, result, title }: { fact: FactItem; result: RewindResult; title: string }) {
  return (
    <FactShell fact={fact} icon={Undo2Icon} title={title} summary={rewindSummary(result)}>
      <RewindResultView result={result} />
      <ToldTheModel text={fact.text} />
    </FactShell>
  );
}

function RestoredRow({ fact, payload, sessionId, undone, running }: { fact: FactItem; payload: RestoredPayload; sessionId: string; undone: RewindResult | null; running: boolean }) {
  const { changes, result } = payload;
  const trpc = useTRPC();
  const undo = useMutation(trpc.checkpoints.undoRestore.mutationOptions());
  const reverted = undone ?? undo.data ?? null;
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
      {payload.forkId && (
        <p className="flex items-center gap-1.5">
          <GitForkIcon className="size-3.5 shrink-0" />
          <span>The conversation continued in</span>
          <Link data-testid="restore-fork-link" href={`/s/${encodeURIComponent(payload.forkId)}`} className="font-medium text-foreground underline underline-offset-2">
            its fork
          </Link>
        </p>
      )}
      {reverted ? (
        <div data-testid="restore-undone" className="space-y-1">
          <p className="font-medium text-foreground">Restore undone: {rewindSummary(reverted)}.</p>
          {reverted.conflicts.length > 0 && <RewindResultView result={reverted} />}
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <Button
            data-testid="restore-undo"
            size="sm"
            variant="outline"
            disabled={undo.isPending || running}
            onClick={() => undo.mutate({ sessionId, factId: fact.id })}
          >
            {undo.isPending ? <LoaderCircleIcon className="size-3.5 animate-spin" /> : <Undo2Icon className="size-3.5" />}
            Undo restore
          </Button>
          <span className="text-[11.5px]">
            {running ? "Wait for the running turn to end." : "Puts the files back as they were just before this restore; files you changed since are left alone."}
          </span>
        </div>
      )}
      {undo.error && !reverted && (
        <p role="alert" className="text-destructive">
          Could not undo the restore: {rewindErrorAdvice(hostCodeOf(undo.error), undo.error.message)}
        </p>
      )}
      <ToldTheModel text={fact.text} />
    </FactShell>
  );
}

/** The fact's text as the model reads it, behind a disclosure. */
function ToldTheModel({ text }: { text: string }) {
  return (
    <details className="text-[12px]">
      <summary className="cursor-pointer">What the model was told</summary>
      <div className="mt-1.5">
        <ModelText text={text} />
      </div>
    </details>
  );
}
