"use client";
import type { CheckpointConflict } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { AlertTriangleIcon, HistoryIcon, LoaderCircleIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { hostCodeOf } from "@/lib/host-error";
import { useTRPC } from "@/trpc/react";
import { putComposerDraft } from "../session-ops/composer-draft";
import { rewindErrorAdvice } from "./checkpoint-facts";

export interface RestoreDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  error: { code: string | null; message: string } | null;
  /** Files the restore could not set back, found before anything was changed: the user decides. */
  conflicts?: CheckpointConflict[] | null;
  onConfirm: () => void;
  /** Restore the other files and fork anyway. */
  onAcceptConflicts?: () => void;
}

/** Says what "Restore to here" does — files rewound AND the conversation forked — before it does it (CODE-5, CTX-5). */
export function RestoreDialog({ open, onOpenChange, pending, error, conflicts, onConfirm, onAcceptConflicts }: RestoreDialogProps) {
  const asking = Boolean(conflicts?.length);
  return (
    <AlertDialog open={open} onOpenChange={(o) => !pending && onOpenChange(o)}>
      <AlertDialogContent data-testid="restore-dialog">
        <AlertDialogTitle>Restore to before this message?</AlertDialogTitle>
        <AlertDialogDescription asChild>
          <div className="flex flex-col gap-2">
            <p>
              <strong className="text-foreground">Files:</strong> every file changed after this message is set back to how it was when you sent it —{" "}
              <strong className="text-foreground">your own later edits included</strong>. Files created since are removed. Seam snapshots the current
              files first; a “Files restored” row at the end of this conversation lists what changed and offers “Undo restore”.
            </p>
            <p>
              <strong className="text-foreground">Conversation:</strong> a fork of this session opens with the conversation before this message, and the
              message in its composer, ready to edit and send. This conversation stays as it is.
            </p>
          </div>
        </AlertDialogDescription>
        {asking && conflicts && (
          <div data-testid="restore-conflicts" role="alert" className="mt-3 rounded-md border border-warning/40 bg-warning-soft/40 px-2.5 py-2 text-[12.5px]">
            <p className="flex items-start gap-1.5 font-medium text-warning">
              <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0" />
              <span>
                {conflicts.length === 1 ? "1 file cannot" : `${conflicts.length} files cannot`} be restored. Nothing has been changed and no fork made yet.
              </span>
            </p>
            <ul className="mt-1.5 flex flex-col gap-1 pl-5">
              {conflicts.map((c) => (
                <li key={c.path} data-testid="restore-conflict" data-path={c.path} className="min-w-0">
                  <span className="break-all font-mono text-[12px] text-foreground">{c.path}</span>
                  <span className="text-muted-foreground"> — {c.reason}</span>
                </li>
              ))}
            </ul>
            <p className="mt-1.5 text-[12px] text-muted-foreground">Restore the other files and fork anyway (these stay as they are), or cancel and sort them out first.</p>
          </div>
        )}
        {error && (
          <p data-testid="restore-error" data-code={error.code ?? undefined} role="alert" className="mt-3 text-[13px] text-destructive">
            Could not restore: {rewindErrorAdvice(error.code, error.message)}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          {/* A plain button: the dialog stays open until the host answered. */}
          {asking ? (
            <Button variant="destructive" data-testid="restore-accept-conflicts" disabled={pending} onClick={onAcceptConflicts}>
              {pending && <LoaderCircleIcon className="animate-spin" />}
              {pending ? "Restoring…" : "Restore the rest and fork"}
            </Button>
          ) : (
            <Button variant="destructive" data-testid="restore-confirm" disabled={pending} onClick={onConfirm}>
              {pending && <LoaderCircleIcon className="animate-spin" />}
              {pending ? "Restoring…" : "Restore and fork"}
            </Button>
          )}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The hover / focus action on a user message: rewind the files to before it and continue in a fork (CODE-5, CTX-5). */
export function RestoreAction({ sessionId, messageId, running }: { sessionId: string; messageId: string; running: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [conflicts, setConflicts] = useState<CheckpointConflict[] | null>(null);
  const restore = useMutation(trpc.checkpoints.restoreAndFork.mutationOptions({
    onSuccess: (out) => {
      if (out.outcome === "conflicts") {
        setConflicts(out.conflicts);
        return;
      }
      setOpen(false);
      putComposerDraft(out.session.id, out.text);
      void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
      router.push(`/s/${out.session.id}`);
    },
  }));
  return (
    <>
      <Button
        variant="subtle"
        size="xs"
        data-testid="message-restore"
        disabled={running}
        title={running ? "Wait for the running turn to finish" : "Set the workspace's files back to before this message and continue from there in a fork"}
        className="opacity-0 transition-opacity group-hover/msg:opacity-100 group-focus-within/msg:opacity-100 focus-visible:opacity-100"
        onClick={() => {
          restore.reset();
          setConflicts(null);
          setOpen(true);
        }}
      >
        <HistoryIcon /> Restore to here
      </Button>
      {open && (
        <RestoreDialog
          open={open}
          onOpenChange={setOpen}
          pending={restore.isPending}
          error={restore.error ? { code: hostCodeOf(restore.error), message: restore.error.message } : null}
          conflicts={conflicts}
          onConfirm={() => restore.mutate({ sessionId, messageId })}
          onAcceptConflicts={() => restore.mutate({ sessionId, messageId, acceptConflicts: true })}
        />
      )}
    </>
  );
}
