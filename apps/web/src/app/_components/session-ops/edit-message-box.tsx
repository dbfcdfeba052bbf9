"use client";
import { SESSION_TEXT_MAX } from "@seam/shared";
import { LoaderCircleIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";

export interface EditMessageBoxProps {
  initial: string;
  pending: boolean;
  /** What went wrong, in words. */
  error: string | null;
  onSend: (text: string) => void;
  onCancel: () => void;
}

/** Whether the edited text can be sent: something to say, within the limit, and not the same words again. */
export const canSendEdit = (initial: string, text: string) => text.trim().length > 0 && text.length <= SESSION_TEXT_MAX && text !== initial;

/** The small editor "Edit" opens on a past user message (CTX-5): sending forks before it and sends this text there. */
export function EditMessageBox({ initial, pending, error, onSend, onCancel }: EditMessageBoxProps) {
  const [text, setText] = useState(initial);
  const ok = canSendEdit(initial, text) && !pending;
  return (
    <div data-testid="edit-message-box" className="flex w-full max-w-[85%] flex-col gap-2 rounded-2xl border bg-background p-2">
      <textarea
        data-testid="edit-message-input"
        aria-label="Edited message"
        autoFocus
        value={text}
        disabled={pending}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && (e.metaKey || e.ctrlKey)) {
            e.preventDefault();
            if (ok) onSend(text);
          } else if (e.key === "Escape") {
            e.preventDefault();
            onCancel();
          }
        }}
        className="w-full resize-y rounded-md bg-transparent px-1.5 py-1 text-[14.5px] leading-relaxed outline-none"
      />
      {error && (
        <p data-testid="edit-message-error" role="alert" className="px-1.5 text-[13px] text-destructive">
          Could not send the edit: {error}
        </p>
      )}
      <div className="flex items-center justify-end gap-2">
        <span className="mr-auto px-1.5 text-xs text-muted-foreground">Sends in a new fork; this session stays as it is.</span>
        <Button variant="ghost" size="sm" data-testid="edit-message-cancel" disabled={pending} onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" data-testid="edit-message-send" disabled={!ok} onClick={() => onSend(text)}>
          {pending && <LoaderCircleIcon className="animate-spin" />}
          {pending ? "Forking…" : "Fork and send"}
        </Button>
      </div>
    </div>
  );
}
