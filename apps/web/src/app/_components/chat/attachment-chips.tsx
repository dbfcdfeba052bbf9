"use client";
import type { McpResourceAttachment } from "@seam/shared";
import { PaperclipIcon, XIcon } from "lucide-react";

/** The resources attached to the message being written (MCP-9), as chips above the input; × removes one. */
export function AttachmentChips({ attachments, onRemove }: { attachments: McpResourceAttachment[]; onRemove: (a: McpResourceAttachment) => void }) {
  if (attachments.length === 0) return null;
  return (
    <ul data-testid="composer-attachments" aria-label="Attached resources" className="flex flex-wrap gap-1.5 px-3 pt-2.5">
      {attachments.map((a) => (
        <li key={`${a.server} ${a.uri}`} data-testid="composer-attachment" data-uri={a.uri} className="flex max-w-full items-center gap-1 rounded-md border bg-muted px-1.5 py-0.5 text-[12px]">
          <PaperclipIcon className="size-3 shrink-0 text-muted-foreground" aria-hidden />
          <span className="text-muted-foreground">{a.server}</span>
          <span className="truncate font-mono text-[11.5px]" title={a.uri}>{a.uri}</span>
          <button type="button" aria-label={`Remove ${a.uri}`} className="rounded p-0.5 text-muted-foreground hover:bg-background hover:text-foreground" onClick={() => onRemove(a)}>
            <XIcon className="size-3" />
          </button>
        </li>
      ))}
    </ul>
  );
}
