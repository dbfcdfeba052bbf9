"use client";
import {
  COMPACTION_FACT, COMPACTION_FAILED_FACT, CompactionFailedPayload, CompactionPayload, CONTEXT_PRUNED_FACT, ContextPrunedPayload, type FactItem,
} from "@seam/shared";
import { AlertTriangleIcon, ChevronRightIcon, ScissorsIcon } from "lucide-react";
import { useState, type ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { cn } from "@/lib/utils";
import { FactShell, ModelText } from "./fact-shell";
import { MarkdownText } from "./markdown";

/** The summary's own text: the fact's text without its fixed first line. */
export function summaryBody(text: string): string {
  const [first, ...rest] = text.split("\n");
  return /^Summary of the earlier conversation:?\s*$/.test(first ?? "") ? rest.join("\n").trim() : text;
}

const tokens = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** A compaction fact, or a failed or pruning one, as its own row; null for any other fact. */
export function compactionRow(fact: FactItem): ReactNode | null {
  if (fact.factKind === COMPACTION_FACT) {
    const payload = CompactionPayload.safeParse(fact.payload);
    return payload.success ? <CompactionDivider fact={fact} payload={payload.data} /> : null;
  }
  if (fact.factKind === COMPACTION_FAILED_FACT) {
    const payload = CompactionFailedPayload.safeParse(fact.payload);
    return payload.success ? <CompactionFailedRow payload={payload.data} /> : null;
  }
  if (fact.factKind === CONTEXT_PRUNED_FACT) {
    const payload = ContextPrunedPayload.safeParse(fact.payload);
    return payload.success ? <ContextPrunedRow fact={fact} payload={payload.data} /> : null;
  }
  return null;
}

/**
 * CTX-2: a divider "N items compacted". Everything above it stays readable here; the model now sees the
 * summary (expandable) instead of those items.
 */
export function CompactionDivider({ fact, payload }: { fact: FactItem; payload: CompactionPayload }) {
  const [open, setOpen] = useState(false);
  const how = payload.trigger === "manual" ? "by /compact" : "automatically";
  return (
    <div data-testid="compaction-divider" data-fact-kind={fact.factKind} className="py-1 text-[12.5px] text-muted-foreground">
      <button
        type="button"
        data-testid="compaction-toggle"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="group flex w-full items-center gap-3 rounded-md py-0.5 hover:text-foreground"
      >
        <span className="h-px flex-1 bg-border" aria-hidden />
        <span className="flex shrink-0 items-center gap-1.5">
          <ChevronRightIcon className={cn("size-3 transition-transform", open && "rotate-90")} aria-hidden />
          <span data-testid="compaction-title" className="font-medium">{plural(payload.itemsCompacted, "item")} compacted</span>
          <span className="opacity-80">
            {how} · {tokens(payload.tokensBefore)} → {tokens(payload.tokensAfter)} tokens
          </span>
        </span>
        <span className="h-px flex-1 bg-border" aria-hidden />
      </button>
      {open && (
        <div data-testid="compaction-summary" className="mx-auto mt-2 max-w-3xl space-y-2 rounded-lg border bg-card px-3 py-2 text-foreground">
          <div className="flex items-center justify-between gap-2 text-[11px] font-medium uppercase tracking-wide text-muted-foreground">
            <span>What the model now sees instead of the earliest {payload.itemsCompacted === 1 ? "item" : `${payload.itemsCompacted.toLocaleString("en-US")} items`}</span>
            <CopyButton text={fact.text} />
          </div>
          {payload.focus && (
            <p className="text-[12.5px] text-muted-foreground">
              Focus: <span className="text-foreground/85">{payload.focus}</span>
            </p>
          )}
          <div className="[&_.prose]:text-[13.5px]">
            <MarkdownText text={summaryBody(fact.text)} />
          </div>
        </div>
      )}
    </div>
  );
}

/** CTX-2: the summary call failed; the history was left as it was. */
export function CompactionFailedRow({ payload }: { payload: CompactionFailedPayload }) {
  return (
    <div data-testid="compaction-failed" role="status" className="flex items-start gap-2 rounded-lg bg-warning-soft px-3 py-2 text-[13px] text-warning">
      <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden />
      <div className="min-w-0">
        <span className="font-medium">{payload.trigger === "manual" ? "Compaction failed" : "Automatic compaction failed"}</span>
        <span className="opacity-90"> — {payload.reason} The history was left as it was.</span>
      </div>
    </div>
  );
}

/** CTX-2: old large tool results are stubs in the model's view from here on; the cards above keep them whole. */
export function ContextPrunedRow({ fact, payload }: { fact: FactItem; payload: ContextPrunedPayload }) {
  return (
    <FactShell
      fact={fact}
      icon={ScissorsIcon}
      title={`${plural(payload.itemIds.length, "old tool result")} pruned`}
      summary={`${tokens(payload.tokensBefore)} → ${tokens(payload.tokensAfter)} tokens`}
    >
      <p className="leading-relaxed">
        To save context, the model now sees a one-line stub instead of {payload.itemIds.length === 1 ? "this result" : "these results"}; the tool
        cards above still show them in full, and the model can run the tool again.
      </p>
      <ModelText text="[Result pruned to save context: <tool> returned N characters; run the tool again if you need it]" />
    </FactShell>
  );
}
