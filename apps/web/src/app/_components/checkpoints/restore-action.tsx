"use client";
import { useMutation } from "@tanstack/react-query";
import { HistoryIcon, LoaderCircleIcon } from "lucide-react";
import { useState } from "react";
import {
  AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { hostCodeOf } from "@/lib/host-error";
import { useTRPC } from "@/trpc/react";
import { rewindErrorAdvice } from "./checkpoint-facts";

export interface RestoreDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  error: { code: string | null; message: string } | null;
  onConfirm: () => void;
}

/** Says what "Restore files to here" does before it does it. */
export function RestoreDialog({ open, onOpenChange, pending, error, onConfirm }: RestoreDialogProps) {
  return (
    <AlertDialog open={open} onOpenChange={(o) => !pending && onOpenChange(o)}>
      <AlertDialogContent data-testid="restore-dialog">
        <AlertDialogTitle>Restore files to before this message?</AlertDialogTitle>
        <AlertDialogDescription asChild>
          <div className="flex flex-col gap-2">
            <p>
              Every file changed after this message is set back to how it was when you sent it — <strong className="text-foreground">your own later edits
              included</strong>. Files created since are removed. The conversation itself stays as it is.
            </p>
            <p>
              Seam snapshots the current files first. The result appears as a “Files restored” row at the end of the conversation, listing every file it
              changed and any it had to leave alone, with “Undo restore” to put the files back as they are now.
            </p>
          </div>
        </AlertDialogDescription>
        {error && (
          <p data-testid="restore-error" data-code={error.code ?? undefined} role="alert" className="mt-3 text-[13px] text-destructive">
            Could not restore: {rewindErrorAdvice(error.code, error.message)}
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          {/* A plain button: the dialog stays open until the host answered. */}
          <Button variant="destructive" data-testid="restore-confirm" disabled={pending} onClick={onConfirm}>
            {pending && <LoaderCircleIcon className="animate-spin" />}
            {pending ? "Restoring…" : "Restore files"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The hover / focus action on a user message that rewinds the workspace's files to before it (CODE-5). */
export function RestoreAction({ sessionId, messageId, running }: { sessionId: string; messageId: string; running: boolean }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const restore = useMutation(trpc.checkpoints.restore.mutationOptions({ onSuccess: () => setOpen(false) }));
  return (
    <>
      <Button
        variant="subtle"
        size="xs"
        data-testid="message-restore"
        disabled={running}
        title={running ? "Wait for the running turn to finish" : "Set the workspace's files back to how they were before this message"}
        className="opacity-0 transition-opacity group-hover/msg:opacity-100 group-focus-within/msg:opacity-100 focus-visible:opacity-100"
        onClick={() => {
          restore.reset();
          setOpen(true);
        }}
      >
        <HistoryIcon /> Restore files to here
      </Button>
      {open && (
        <RestoreDialog
          open={open}
          onOpenChange={setOpen}
          pending={restore.isPending}
          error={restore.error ? { code: hostCodeOf(restore.error), message: restore.error.message } : null}
          onConfirm={() => restore.mutate({ sessionId, messageId })}
        />
      )}
    </>
  );
}
