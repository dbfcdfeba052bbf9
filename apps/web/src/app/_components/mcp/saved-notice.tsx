"use client";
import { CheckIcon, XIcon } from "lucide-react";
import { useEffect } from "react";

/** How long the confirmation stays up. */
const NOTICE_MS = 8_000;

/** A toast-like confirmation at the bottom right (MCP-10: "Added "x": 12 tools available."), dismissed after a while or by hand. */
export function SavedNotice({ message, onDismiss }: { message: string | null; onDismiss: () => void }) {
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(onDismiss, NOTICE_MS);
    return () => clearTimeout(timer);
  }, [message, onDismiss]);
  if (!message) return null;
  return (
    <div
      data-testid="mcp-saved-notice"
      role="status"
      className="fixed right-4 bottom-4 z-50 flex max-w-md items-start gap-2 rounded-lg border bg-popover px-3 py-2.5 text-[13px] shadow-lg data-[state=open]:animate-fade-in"
      data-state="open"
    >
      <CheckIcon className="mt-0.5 size-4 shrink-0 text-success" />
      <span className="leading-relaxed">{message}</span>
      <button type="button" aria-label="Dismiss" className="rounded p-0.5 text-muted-foreground hover:bg-muted hover:text-foreground" onClick={onDismiss}>
        <XIcon className="size-3.5" />
      </button>
    </div>
  );
}
