"use client";
import type { MessageItem } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { GitForkIcon, LoaderCircleIcon, PencilIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/react";
import { EditMessageBox } from "./edit-message-box";

const HOVER = "opacity-0 transition-opacity group-hover/msg:opacity-100 group-focus-within/msg:opacity-100 focus-visible:opacity-100";

export interface MessageOpsViewProps {
  /** The message belongs to the turn that is still running: it can be forked or edited once the turn ends. */
  busy: boolean;
  forking: boolean;
  /** Why the fork failed, in words. */
  error: string | null;
  onFork: () => void;
  onEdit: () => void;
}

/** "Edit" and "Fork" on a user message (CTX-5), shown on hover and keyboard focus like "Restore to here". */
export function MessageOpsView({ busy, forking, error, onFork, onEdit }: MessageOpsViewProps) {
  const wait = "Wait for the running turn to finish";
  return (
    <>
      {error && (
        <span data-testid="message-fork-error" role="alert" className="text-xs text-destructive">
          Could not fork: {error}
        </span>
      )}
      <Button variant="subtle" size="xs" data-testid="message-edit" disabled={busy} className={HOVER} onClick={onEdit}
        title={busy ? wait : "Edit this message and send it again in a new fork of the session"}>
        <PencilIcon /> Edit
      </Button>
      <Button variant="subtle" size="xs" data-testid="message-fork" disabled={busy || forking} className={HOVER} onClick={onFork}
        title={busy ? wait : "Start a new session with the conversation up to this message"}>
        {forking ? <LoaderCircleIcon className="animate-spin" /> : <GitForkIcon />} Fork
      </Button>
    </>
  );
}

const useOpened = () => {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  return (sessionId: string) => {
    void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() });
    router.push(`/s/${sessionId}`);
  };
};

/** Forks at the message and opens the fork. */
export function MessageOps({ sessionId, messageId, busy, onEdit }: { sessionId: string; messageId: string; busy: boolean; onEdit: () => void }) {
  const trpc = useTRPC();
  const open = useOpened();
  const fork = useMutation(trpc.session.fork.mutationOptions({ onSuccess: (s) => open(s.id) }));
  return (
    <MessageOpsView
      busy={busy}
      forking={fork.isPending}
      error={fork.error?.message ?? null}
      onFork={() => fork.mutate({ sessionId, itemId: messageId })}
      onEdit={onEdit}
    />
  );
}

/** The editor in place of the bubble: sending forks before the message, sends the text there and opens the fork. */
export function EditMessage({ sessionId, message, onDone }: { sessionId: string; message: MessageItem; onDone: () => void }) {
  const trpc = useTRPC();
  const open = useOpened();
  const edit = useMutation(trpc.session.editAndResend.mutationOptions({ onSuccess: (r) => {
    onDone();
    open(r.session.id);
  } }));
  return (
    <EditMessageBox
      initial={message.text}
      pending={edit.isPending}
      error={edit.error?.message ?? null}
      onSend={(text) => edit.mutate({ sessionId, itemId: message.id, text })}
      onCancel={onDone}
    />
  );
}
