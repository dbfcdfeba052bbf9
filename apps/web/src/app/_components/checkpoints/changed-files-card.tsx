"use client";
import type { RewindResult } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { FilePenLineIcon, LoaderCircleIcon, Undo2Icon } from "lucide-react";
import { memo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { hostCodeOf } from "@/lib/host-error";
import { useTRPC } from "@/trpc/react";
import { DiffCounts } from "../diff/patch-diff";
import { fileCount, rewindErrorAdvice, type ChangedFilesPayload } from "./checkpoint-facts";
import { ChangedFileList } from "./file-list";
import { RewindResultView } from "./rewind-result";

/** How many files the card lists before "Show all". */
const SHOWN_FILES = 12;

export interface UndoError {
  code: string | null;
  message: string;
}

export interface ChangedFilesCardViewProps {
  payload: ChangedFilesPayload;
  /** The result of this turn's undo, from a later `changes_undone` fact or from the click in this tab. */
  undone: RewindResult | null;
  pending: boolean;
  /** A turn is running in the session: the host refuses an undo until it ends. */
  running: boolean;
  error: UndoError | null;
  onUndo: () => void;
}

/** The Changed files card at the end of a turn (CODE-5): counts, files with their diffs, Undo this turn and its outcome. */
export function ChangedFilesCardView({ payload, undone, pending, running, error, onUndo }: ChangedFilesCardViewProps) {
  const [all, setAll] = useState(false);
  const files = all ? payload.files : payload.files.slice(0, SHOWN_FILES);
  const hidden = payload.files.length - files.length;
  return (
    <section
      data-testid="changed-files-card"
      data-turn-id={payload.turnId}
      data-undone={undone ? "true" : undefined}
      aria-label="Changed files"
      className="overflow-hidden rounded-lg border bg-card"
    >
      <header className="flex flex-wrap items-center gap-2 border-b px-3 py-2">
        <FilePenLineIcon className="size-3.5 shrink-0 text-muted-foreground" />
        <h3 className="text-[13px] font-semibold">Changed files</h3>
        <span data-testid="changed-files-counts" className="text-[12px] text-muted-foreground">
          {fileCount(payload.files.length)}, <DiffCounts added={payload.added} removed={payload.removed} />
        </span>
        <span className="flex-1" />
        {undone ? (
          <Badge data-testid="changed-files-undone" tone="neutral">
            <Undo2Icon /> Undone
          </Badge>
        ) : (
          <Button
            variant="outline"
            size="xs"
            data-testid="changed-files-undo"
            disabled={pending || running}
            title={running ? "Wait for the running turn to finish" : "Put this turn's files back as they were before it"}
            onClick={onUndo}
          >
            {pending ? <LoaderCircleIcon className="animate-spin" /> : <Undo2Icon />}
            {pending ? "Undoing…" : "Undo this turn"}
          </Button>
        )}
      </header>
      <div className="px-1.5 py-1.5">
        <ChangedFileList files={files} />
        {hidden > 0 && (
          <button type="button" className="ml-1.5 cursor-pointer py-1 text-[12px] text-primary hover:underline" onClick={() => setAll(true)}>
            Show all {payload.files.length} files
          </button>
        )}
        {payload.truncated && <p className="px-1.5 py-1 text-[11.5px] text-muted-foreground">Some diffs are shortened or left out (too large); the counts are complete.</p>}
      </div>
      {running && !undone && !pending && (
        <p data-testid="changed-files-wait" className="border-t px-3 py-1.5 text-[12px] text-muted-foreground">
          Undo becomes available when the running turn ends.
        </p>
      )}
      {pending && (
        <p data-testid="changed-files-progress" role="status" className="flex items-center gap-1.5 border-t px-3 py-1.5 text-[12px] text-muted-foreground">
          <LoaderCircleIcon className="size-3.5 animate-spin" /> Snapshotting the current files, then putting this turn&apos;s files back…
        </p>
      )}
      {error && !undone && (
        <p data-testid="changed-files-error" data-code={error.code ?? undefined} role="alert" className="border-t px-3 py-1.5 text-[12.5px] text-destructive">
          Could not undo: {rewindErrorAdvice(error.code, error.message)}
        </p>
      )}
      {undone && (
        <div className="border-t px-3 py-2">
          <RewindResultView result={undone} />
        </div>
      )}
    </section>
  );
}

/** The card wired to `checkpoints.undo`. */
export const ChangedFilesCard = memo(function ChangedFilesCard({
  sessionId,
  payload,
  undone,
  running,
}: {
  sessionId: string;
  payload: ChangedFilesPayload;
  undone: RewindResult | null;
  running: boolean;
}) {
  const trpc = useTRPC();
  const undo = useMutation(trpc.checkpoints.undo.mutationOptions());
  const error = undo.error ? { code: hostCodeOf(undo.error), message: undo.error.message } : null;
  return (
    <ChangedFilesCardView
      payload={payload}
      undone={undone ?? undo.data ?? null}
      pending={undo.isPending}
      running={running}
      error={error}
      onUndo={() => undo.mutate({ sessionId, turnId: payload.turnId })}
    />
  );
});
