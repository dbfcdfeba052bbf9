"use client";
import { Columns2Icon, Rows3Icon } from "lucide-react";
import { useMemo, useState } from "react";
import { cn } from "@/lib/utils";
import type { DiffRow } from "../extensions/line-diff";
import { patchRows, sideBySide, type SideCell } from "./patch-rows";

/** +N −M, the counts every diff shows. */
export function DiffCounts({ added, removed, className }: { added: number; removed: number; className?: string }) {
  return (
    <span data-testid="diff-counts" className={cn("font-mono tabular-nums", className)}>
      <span className="text-success">+{added}</span> <span className="text-destructive">−{removed}</span>
    </span>
  );
}

/**
 * A unified patch as a diff card: inline (removed red, added green) or side by side, long unchanged
 * runs folded. `path` heads it when given.
 */
export function PatchDiff({ patch, path, testId = "patch-diff", maxHeight = "max-h-96" }: { patch: string; path?: string; testId?: string; maxHeight?: string }) {
  const [expanded, setExpanded] = useState(false);
  const [split, setSplit] = useState(false);
  const view = useMemo(() => patchRows(patch, expanded), [patch, expanded]);
  const pairs = useMemo(() => (split ? sideBySide(view.rows) : null), [split, view.rows]);
  if (view.rows.length === 0) {
    return (
      <p data-testid={testId} data-added={0} data-removed={0} className="rounded-md border bg-code px-3 py-2 text-[12.5px] text-muted-foreground">
        No changes.
      </p>
    );
  }
  return (
    <div data-testid={testId} data-added={view.added} data-removed={view.removed} data-layout={split ? "split" : "inline"} className="overflow-hidden rounded-md border bg-code">
      <div className="flex items-center gap-2 border-b px-2.5 py-1 text-[11.5px] text-muted-foreground">
        {path && (
          <span data-testid="diff-path" className="min-w-0 truncate font-mono text-foreground" title={path}>
            {path}
          </span>
        )}
        <DiffCounts added={view.added} removed={view.removed} />
        <span className="flex-1" />
        {(view.folded || expanded) && (
          <button type="button" className="cursor-pointer hover:text-foreground" onClick={() => setExpanded((e) => !e)}>
            {expanded ? "Fold unchanged lines" : "Show folded lines"}
          </button>
        )}
        <button
          type="button"
          data-testid="diff-layout-toggle"
          aria-pressed={split}
          className="inline-flex cursor-pointer items-center gap-1 rounded px-1 hover:bg-muted hover:text-foreground"
          onClick={() => setSplit((s) => !s)}
        >
          {split ? <Rows3Icon className="size-3.5" /> : <Columns2Icon className="size-3.5" />}
          {split ? "Inline" : "Side by side"}
        </button>
      </div>
      <div className={cn("scroll-thin overflow-auto py-1 font-mono text-[12px] leading-[1.55]", maxHeight)}>
        {pairs ? (
          <table className="w-full table-fixed border-collapse">
            <tbody>
              {pairs.map((p, i) =>
                p.kind === "skip" ? (
                  <tr key={i}>
                    <td colSpan={2}>
                      <SkipRow count={p.count} />
                    </td>
                  </tr>
                ) : (
                  <tr key={i} className="align-top">
                    <SideCellView cell={p.left} />
                    <SideCellView cell={p.right} />
                  </tr>
                ),
              )}
            </tbody>
          </table>
        ) : (
          <div className="inline-block min-w-full">
            {view.rows.map((row, i) => (
              <InlineRow key={i} row={row} />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

function SkipRow({ count }: { count: number }) {
  return (
    <div className="bg-muted/60 px-2.5 text-[11.5px] text-muted-foreground select-none">
      ⋯ {count} unchanged line{count === 1 ? "" : "s"}
    </div>
  );
}

const tone = (kind: "same" | "del" | "add") => (kind === "add" ? "bg-success-soft" : kind === "del" ? "bg-destructive-soft" : undefined);
const signOf = (kind: "same" | "del" | "add") => (kind === "add" ? "+" : kind === "del" ? "−" : " ");
const signTone = (kind: "same" | "del" | "add") => (kind === "add" ? "text-success" : kind === "del" ? "text-destructive" : "text-muted-foreground");

function InlineRow({ row }: { row: DiffRow }) {
  if (row.kind === "skip") return <SkipRow count={row.count} />;
  return (
    <div data-diff={row.kind} data-testid={row.kind === "add" ? "diff-added" : row.kind === "del" ? "diff-removed" : undefined} className={cn("flex", tone(row.kind))}>
      <span className="w-9 shrink-0 pr-1 text-right text-muted-foreground/70 select-none tabular-nums">{row.kind === "add" ? row.newNo : row.oldNo}</span>
      <span className={cn("w-5 shrink-0 text-center select-none", signTone(row.kind))}>{signOf(row.kind)}</span>
      <span className="whitespace-pre pr-3">{row.text || " "}</span>
    </div>
  );
}

function SideCellView({ cell }: { cell: SideCell }) {
  // oxlint-disable-next-line jsx-a11y/control-has-associated-label -- the empty side of a changed line
  if (!cell) return <td className="w-1/2 bg-muted/30" />;
  return (
    // oxlint-disable-next-line jsx-a11y/control-has-associated-label -- a table cell holding a line of code, not a control
    <td data-diff={cell.kind} className={cn("w-1/2 overflow-hidden", tone(cell.kind))}>
      <div className="flex">
        <span className="w-9 shrink-0 pr-1 text-right text-muted-foreground/70 select-none tabular-nums">{cell.no}</span>
        <span className={cn("w-4 shrink-0 text-center select-none", signTone(cell.kind))}>{signOf(cell.kind)}</span>
        <span className="min-w-0 whitespace-pre-wrap break-all pr-2">{cell.text || " "}</span>
      </div>
    </td>
  );
}
