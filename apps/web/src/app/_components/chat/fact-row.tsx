"use client";
import type { FactItem } from "@seam/shared";
import { ChevronRightIcon, InfoIcon } from "lucide-react";
import { memo, useState } from "react";
import { cn } from "@/lib/utils";
import { prettyJson } from "./tool-summary";

const LABELS: Record<string, string> = {
  skills_catalog: "Skills catalog",
  compaction: "Context compacted",
  auxiliary: "Auxiliary request",
};

function label(kind: string): string {
  return LABELS[kind] ?? kind.replace(/[_-]+/g, " ").replace(/^\w/, (c) => c.toUpperCase());
}

/** Facts (skills catalog, compaction, auxiliary requests): a slim grey row that expands. */
export const FactRow = memo(function FactRow({ fact }: { fact: FactItem }) {
  const [open, setOpen] = useState(false);
  const firstLine = fact.text.split("\n").find((l) => l.trim()) ?? "";
  const hasPayload = fact.payload !== null && fact.payload !== undefined;
  return (
    <div data-testid="fact-row" data-fact-kind={fact.factKind} className="text-[12.5px] text-muted-foreground">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full cursor-pointer items-center gap-1.5 rounded-md px-1 py-0.5 text-left hover:bg-muted/70"
      >
        <ChevronRightIcon className={cn("size-3 shrink-0 transition-transform", open && "rotate-90")} />
        <InfoIcon className="size-3 shrink-0" />
        <span className="shrink-0 font-medium">{label(fact.factKind)}</span>
        {firstLine && <span className="min-w-0 truncate opacity-80">— {firstLine}</span>}
      </button>
      {open && (
        <div className="ml-5 mt-1 space-y-2 border-l pl-3">
          {fact.text && (
            <pre className="scroll-thin max-h-72 overflow-auto whitespace-pre-wrap break-words font-mono text-[11.5px] leading-relaxed">
              {fact.text}
            </pre>
          )}
          {hasPayload && (
            <pre className="scroll-thin max-h-72 overflow-auto rounded-md bg-muted p-2 font-mono text-[11.5px] leading-relaxed">
              {prettyJson(fact.payload)}
            </pre>
          )}
        </div>
      )}
    </div>
  );
});
