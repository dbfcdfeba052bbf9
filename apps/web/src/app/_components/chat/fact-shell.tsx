"use client";
import type { FactItem } from "@seam/shared";
import type { LucideIcon } from "lucide-react";
import { useState, type ReactNode } from "react";
import { ExpandButton } from "@/components/ui/expand-button";

/** A slim grey row that expands (also used by the checkpoint facts' rows). */
export function FactShell({
  fact,
  icon: Icon,
  title,
  summary,
  children,
}: {
  fact: FactItem;
  icon: LucideIcon;
  title: ReactNode;
  summary?: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div data-testid="fact-row" data-fact-kind={fact.factKind} className="text-[12.5px] text-muted-foreground">
      <ExpandButton
        data-testid="fact-row-toggle"
        open={open}
        onClick={() => setOpen((o) => !o)}
        className="w-full py-0.5 hover:bg-muted/70 hover:text-inherit"
        chevronClassName="size-3 text-inherit"
      >
        <Icon className="size-3 shrink-0" />
        <span data-testid="fact-row-title" className="shrink-0 font-medium">
          {title}
        </span>
        {summary && <span className="min-w-0 truncate opacity-80">— {summary}</span>}
      </ExpandButton>
      {open && (
        <div data-testid="fact-row-body" className="ml-5 mt-1 space-y-2.5 border-l pb-1 pl-3">
          {children}
        </div>
      )}
    </div>
  );
}

/** The exact text the model was given, in the fact row's small monospace. */
export function ModelText({ text }: { text: string }) {
  return (
    <pre
      data-testid="fact-row-text"
      className="scroll-thin max-h-72 overflow-auto whitespace-pre-wrap break-words rounded-md bg-muted/60 p-2 font-mono text-[11.5px] leading-relaxed"
    >
      {text}
    </pre>
  );
}
