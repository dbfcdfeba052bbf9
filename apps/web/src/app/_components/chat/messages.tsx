"use client";
import type { MessageItem } from "@seam/shared";
import { memo, useDeferredValue, useState } from "react";
import { RestoreAction } from "../checkpoints/restore-action";
import { EditMessage, MessageOps } from "../session-ops/message-ops";
import { MarkdownText } from "./markdown";

/**
 * The user's bubble. `restore` (a later turn changed files) adds "Restore to here" (files + fork); `opsIn` adds
 * "Edit" and "Fork" (CTX-5). All are shown on hover and keyboard focus.
 */
export const UserMessage = memo(function UserMessage({
  message,
  restoreIn,
  running = false,
  opsIn,
  busy = false,
}: {
  message: MessageItem;
  /** The session id, when a later turn changed files (the action applies). */
  restoreIn?: string;
  /** A turn is running: restoring waits until it ends. */
  running?: boolean;
  /** The session id, to offer "Edit" and "Fork". */
  opsIn?: string;
  /** The message belongs to the running turn: editing and forking wait until it ends. */
  busy?: boolean;
}) {
  const command = message.text.startsWith("/");
  const [editing, setEditing] = useState(false);
  return (
    <div data-testid="user-message-row" data-message-id={message.id} className="group/msg flex flex-col items-end gap-1">
      {editing && opsIn ? (
        <EditMessage sessionId={opsIn} message={message} onDone={() => setEditing(false)} />
      ) : (
        <div
          data-testid="message-user"
          className={
            command
              ? "max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-br-md bg-subtle px-3.5 py-2 font-mono text-[13px] leading-relaxed"
              : "max-w-[85%] whitespace-pre-wrap break-words rounded-2xl rounded-br-md bg-subtle px-3.5 py-2 text-[14.5px] leading-relaxed"
          }
        >
          {message.text}
        </div>
      )}
      {(restoreIn || opsIn) && !editing && (
        <div className="flex items-center justify-end gap-1">
          {opsIn && <MessageOps sessionId={opsIn} messageId={message.id} busy={busy} onEdit={() => setEditing(true)} />}
          {restoreIn && <RestoreAction sessionId={restoreIn} messageId={message.id} running={running} />}
        </div>
      )}
    </div>
  );
});

export const AssistantMessage = memo(function AssistantMessage({ message }: { message: MessageItem }) {
  const streaming = message.state === "streaming";
  // While text streams in, let React skip intermediate renders under load instead of blocking input.
  const text = useDeferredValue(message.text);
  return (
    <div data-testid="message-assistant" data-state={message.state} className="min-w-0">
      {text ? <MarkdownText text={text} /> : streaming ? null : <p className="text-muted-foreground">(empty reply)</p>}
      {streaming && (
        <span aria-label="Writing" className="mt-1 inline-flex gap-1 align-middle">
          <span className="size-1.5 animate-pulse-dot rounded-full bg-muted-foreground/60" />
          <span className="size-1.5 animate-pulse-dot rounded-full bg-muted-foreground/60 [animation-delay:200ms]" />
          <span className="size-1.5 animate-pulse-dot rounded-full bg-muted-foreground/60 [animation-delay:400ms]" />
        </span>
      )}
      {message.state === "interrupted" && (
        <p className="mt-1 text-xs text-warning">The reply was cut off before it finished.</p>
      )}
    </div>
  );
});
