"use client";
import type { RewindResult } from "@seam/shared";
import { AlertTriangleIcon, CheckIcon } from "lucide-react";
import { cn } from "@/lib/utils";
import { rewindSummary } from "./checkpoint-facts";

/**
 * What an Undo or a Restore did: the files written back, the files removed, and — clearly apart — the
 * files left untouched because they changed since, each with the reason.
 */
export function RewindResultView({ result, className }: { result: RewindResult; className?: string }) {
  const changed = result.restored.length + result.removed.length;
  return (
    <div data-testid="rewind-result" data-conflicts={result.conflicts.length} className={cn("flex flex-col gap-2 text-[12.5px]", className)}>
      <p className="flex items-center gap-1.5 text-muted-foreground">
        <CheckIcon className="size-3.5 shrink-0 text-success" />
        <span data-testid="rewind-summary">{changed === 0 && result.conflicts.length === 0 ? "Nothing needed changing." : rewindSummary(result)}</span>
      </p>
      {result.restored.length > 0 && <PathGroup label="Restored" testId="rewind-restored" paths={result.restored} />}
      {result.removed.length > 0 && <PathGroup label="Removed" testId="rewind-removed" paths={result.removed} />}
      {result.conflicts.length > 0 && (
        <div data-testid="rewind-conflicts" role="note" className="rounded-md border border-warning/40 bg-warning-soft/40 px-2.5 py-2">
          <p className="flex items-start gap-1.5 font-medium text-warning">
            <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0" />
            <span>
              {result.conflicts.length === 1 ? "1 file was" : `${result.conflicts.length} files were`} left as{" "}
              {result.conflicts.length === 1 ? "it is" : "they are"} — you changed {result.conflicts.length === 1 ? "it" : "them"} since.
            </span>
          </p>
          <ul className="mt-1.5 flex flex-col gap-1 pl-5">
            {result.conflicts.map((c) => (
              <li key={c.path} data-testid="rewind-conflict" data-path={c.path} className="min-w-0">
                <span className="break-all font-mono text-[12px] text-foreground">{c.path}</span>
                <span className="text-muted-foreground"> — {c.reason}</span>
              </li>
            ))}
          </ul>
          <p className="mt-1.5 text-[12px] text-muted-foreground">Seam never overwrites your own edits; revert these files yourself if you want them back.</p>
        </div>
      )}
    </div>
  );
}

function PathGroup({ label, testId, paths }: { label: string; testId: string; paths: string[] }) {
  return (
    <div data-testid={testId} className="flex flex-col gap-0.5">
      <span className="text-[11px] font-medium uppercase tracking-wide text-muted-foreground">{label}</span>
      <ul className="flex flex-col gap-0.5">
        {paths.map((p) => (
          <li key={p} className="break-all font-mono text-[12px]">
            {p}
          </li>
        ))}
      </ul>
    </div>
  );
}
