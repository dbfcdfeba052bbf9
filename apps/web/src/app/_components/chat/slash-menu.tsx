"use client";
import type { ToolInfo } from "@seam/shared";
import { useEffect, useRef } from "react";
import { cn } from "@/lib/utils";

export interface SlashEntry {
  name: string;
  label: string;
  description: string;
  /** Text that replaces the composer content, and where the cursor goes. */
  insert: string;
  cursor: number;
}

/** `/call <tool>` completions for the text typed so far, or null when the menu should be closed. */
export function slashEntries(text: string, tools: ToolInfo[]): SlashEntry[] | null {
  if (!text.startsWith("/") || text.includes("\n") || text.includes("{")) return null;
  const query = text.slice(1).toLowerCase().replace(/\s+/g, " ");
  const entries = tools
    .filter((t) => {
      const label = `call ${t.name.toLowerCase()}`;
      return label.startsWith(query) || (!"call ".startsWith(query) && !query.startsWith("call ") && t.name.toLowerCase().includes(query));
    })
    .map((t) => {
      const insert = `/call ${t.name} {}`;
      return { name: t.name, label: `/call ${t.name}`, description: t.description, insert, cursor: insert.length - 1 };
    });
  return entries;
}

export function SlashMenu({
  entries,
  active,
  onPick,
  onHover,
}: {
  entries: SlashEntry[];
  active: number;
  onPick: (e: SlashEntry) => void;
  onHover: (i: number) => void;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active]);
  return (
    <div
      data-testid="slash-menu"
      role="listbox"
      aria-label="Commands"
      ref={listRef}
      className="scroll-thin absolute inset-x-0 bottom-full z-20 mb-2 max-h-72 overflow-y-auto rounded-xl border bg-popover p-1 shadow-lg"
    >
      <div className="px-2 pb-1 pt-1.5 text-[11px] font-medium uppercase tracking-wide text-muted-foreground">Run a tool directly</div>
      {entries.length === 0 && <div className="px-2 py-2 text-[13px] text-muted-foreground">No matching tool.</div>}
      {entries.map((e, i) => (
        <div
          key={e.name}
          data-testid="slash-item"
          data-tool-name={e.name}
          data-index={i}
          role="option"
          aria-selected={i === active}
          onMouseDown={(ev) => {
            ev.preventDefault();
            onPick(e);
          }}
          onMouseEnter={() => onHover(i)}
          className={cn(
            "flex cursor-pointer items-baseline gap-3 rounded-lg px-2 py-1.5",
            i === active ? "bg-muted" : "hover:bg-muted/60",
          )}
        >
          <span className="shrink-0 font-mono text-[12.5px]">{e.label}</span>
          <span className="min-w-0 truncate text-xs text-muted-foreground">{e.description}</span>
        </div>
      ))}
      <div className="border-t px-2 pb-0.5 pt-1.5 text-[11px] text-muted-foreground">
        ↑↓ to choose · Enter or Tab to insert · Esc to close
      </div>
    </div>
  );
}
