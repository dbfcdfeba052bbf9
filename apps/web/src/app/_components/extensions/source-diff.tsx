"use client";
import { useMemo, useState } from "react";
import { cn } from "@/lib/utils";
import { CodeBlock } from "../chat/code-block";
import { diffStats, lineDiff, withContext, type DiffRow } from "./line-diff";

/** A unified line diff: removed lines red with −, added lines green with +, long unchanged runs folded. */
export function SourceDiff({ before, after, testId = "source-diff" }: { before: string; after: string; testId?: string }) {
  const [expanded, setExpanded] = useState(false);
  const lines = useMemo(() => lineDiff(before, after), [before, after]);
  const { added, removed } = diffStats(lines);
  const rows: DiffRow[] = useMemo(() => (expanded ? lines : withContext(lines)), [lines, expanded]);
  if (added === 0 && removed === 0) {
    return (
      <p data-testid={testId} data-added={0} data-removed={0} className="rounded-md border bg-code px-3 py-2 text-[12.5px] text-muted-foreground">
        No changes in this half.
      </p>
    );
  }
  return (
    <div data-testid={testId} data-added={added} data-removed={removed} className="overflow-hidden rounded-md border bg-code">
      <div className="flex items-center justify-between gap-2 border-b px-2.5 py-1 text-[11.5px] text-muted-foreground">
        <span className="font-mono">
          <span className="text-success">+{added}</span> <span className="text-destructive">−{removed}</span>
        </span>
        {lines.length !== rows.length || expanded ? (
          <button type="button" className="cursor-pointer hover:text-foreground" onClick={() => setExpanded((e) => !e)}>
            {expanded ? "Fold unchanged lines" : "Show all lines"}
          </button>
        ) : null}
      </div>
      <pre className="scroll-thin max-h-96 overflow-auto py-1 font-mono text-[12px] leading-[1.55]">
        <div className="inline-block min-w-full">
          {rows.map((row, i) => (
            <Row key={i} row={row} />
          ))}
        </div>
      </pre>
    </div>
  );
}

function Row({ row }: { row: DiffRow }) {
  if (row.kind === "skip") {
    return (
      <div className="bg-muted/60 px-2.5 text-[11.5px] text-muted-foreground select-none">
        ⋯ {row.count} unchanged line{row.count === 1 ? "" : "s"}
      </div>
    );
  }
  const sign = row.kind === "add" ? "+" : row.kind === "del" ? "−" : " ";
  return (
    <div
      data-diff={row.kind}
      data-testid={row.kind === "add" ? "diff-added" : row.kind === "del" ? "diff-removed" : undefined}
      className={cn(
        "flex",
        row.kind === "add" && "bg-success-soft text-foreground",
        row.kind === "del" && "bg-destructive-soft text-foreground",
      )}
    >
      <span className={cn("w-6 shrink-0 text-center select-none", row.kind === "add" ? "text-success" : row.kind === "del" ? "text-destructive" : "text-muted-foreground")}>
        {sign}
      </span>
      <span className="whitespace-pre pr-3">{row.text || " "}</span>
    </div>
  );
}

/** A whole source, highlighted, scrolling inside a bounded box. */
export function SourceView({ code, testId = "source-view" }: { code: string; testId?: string }) {
  return (
    <div data-testid={testId} className="[&>div]:my-0 [&_pre]:max-h-96 [&_pre]:overflow-auto">
      <CodeBlock code={code} lang="javascript" />
    </div>
  );
}
