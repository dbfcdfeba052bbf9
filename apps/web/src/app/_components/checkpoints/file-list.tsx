"use client";
import type { ChangedFile } from "@seam/shared";
import { useState } from "react";
import { ExpandButton } from "@/components/ui/expand-button";
import { cn } from "@/lib/utils";
import { DiffCounts, PatchDiff } from "../diff/patch-diff";
import { STATUS_LETTER } from "./checkpoint-facts";

const LETTER_TONE: Record<ChangedFile["status"], string> = {
  added: "bg-success-soft text-success",
  modified: "bg-primary-soft text-primary-soft-foreground",
  deleted: "bg-destructive-soft text-destructive",
};

/** A/M/D as a small square badge. */
export function StatusLetter({ status }: { status: ChangedFile["status"] }) {
  return (
    <span
      data-testid="changed-file-status"
      title={status}
      aria-label={status}
      className={cn("inline-flex size-4.5 shrink-0 items-center justify-center rounded font-mono text-[10.5px] font-semibold", LETTER_TONE[status])}
    >
      {STATUS_LETTER[status]}
    </span>
  );
}

/** The files of a turn (or of a restore), each one click away from its diff. */
export function ChangedFileList({ files, className }: { files: ChangedFile[]; className?: string }) {
  return (
    <ul data-testid="changed-files-list" className={cn("flex flex-col", className)}>
      {files.map((f) => (
        <ChangedFileRow key={f.path} file={f} />
      ))}
    </ul>
  );
}

function ChangedFileRow({ file: f }: { file: ChangedFile }) {
  const [open, setOpen] = useState(false);
  const modeChange = f.oldMode && f.newMode && f.oldMode !== f.newMode ? `${f.oldMode} → ${f.newMode}` : null;
  return (
    <li data-testid="changed-file" data-path={f.path} data-status={f.status} className="min-w-0">
      <ExpandButton
        data-testid="changed-file-toggle"
        open={open}
        onClick={() => setOpen((o) => !o)}
        className="w-full gap-2 rounded-md px-1.5 py-1 text-[12.5px] hover:bg-muted/60 hover:text-inherit"
      >
        <StatusLetter status={f.status} />
        <span className="min-w-0 flex-1 truncate font-mono text-[12px]" title={f.path}>
          {f.path}
        </span>
        {modeChange && <span className="shrink-0 font-mono text-[11px] text-muted-foreground">{modeChange}</span>}
        {f.binary ? (
          <span className="shrink-0 text-[11.5px] text-muted-foreground">binary</span>
        ) : (
          <DiffCounts added={f.added} removed={f.removed} className="shrink-0 text-[11.5px]" />
        )}
      </ExpandButton>
      {open && (
        <div data-testid="changed-file-body" className="mb-1.5 ml-6 mt-0.5 flex flex-col gap-1">
          {f.binary ? (
            <p data-testid="changed-file-binary" className="rounded-md border bg-code px-3 py-2 text-[12.5px] text-muted-foreground">
              Binary file — {f.status === "added" ? "created" : f.status === "deleted" ? "deleted" : "changed"}; there is no text diff to show.
            </p>
          ) : f.patch ? (
            <PatchDiff patch={f.patch} testId="changed-file-diff" />
          ) : (
            <p data-testid={f.truncated ? "changed-file-truncated" : undefined} className="rounded-md border bg-code px-3 py-2 text-[12.5px] text-muted-foreground">
              {f.truncated ? "The diff was left out: this turn's changes are too large to show in full." : "No text changes (only the file's mode changed)."}
            </p>
          )}
          {f.truncated && f.patch && (
            <p data-testid="changed-file-truncated" className="text-[11.5px] text-warning">
              This diff was cut short (it is too long to show in full); the counts above are complete.
            </p>
          )}
        </div>
      )}
    </li>
  );
}
