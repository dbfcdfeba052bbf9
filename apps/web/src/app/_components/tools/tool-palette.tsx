"use client";
import type { ToolInfo } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { ArrowLeftIcon, SearchIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { useTRPC } from "@/trpc/react";
import { groupByCapability } from "../chat/empty-state";
import { ToolButton } from "./tool-button";
import { ToolForm } from "./tool-form";

/** Pick a tool, fill a form generated from its input schema, run it in this session. */
export function ToolPalette({
  sessionId,
  tools,
  open,
  initialTool,
  onOpenChange,
}: {
  sessionId: string;
  tools: ToolInfo[];
  open: boolean;
  initialTool: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const [query, setQuery] = useState("");
  const [selected, setSelected] = useState<string | null>(initialTool);
  // Each opening (or a new tool asked for while open) starts from `initialTool` with an empty filter:
  // adjusted while rendering, so the dialog never shows the previous opening's state.
  const [shownFor, setShownFor] = useState({ open, initialTool });
  if (shownFor.open !== open || shownFor.initialTool !== initialTool) {
    setShownFor({ open, initialTool });
    if (open) {
      setSelected(initialTool);
      setQuery("");
    }
  }

  const call = useMutation(trpc.session.callTool.mutationOptions({ onSuccess: () => onOpenChange(false) }));
  const tool = tools.find((t) => t.name === selected) ?? null;

  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? tools.filter((t) => t.name.toLowerCase().includes(q) || t.description.toLowerCase().includes(q)) : tools;
  }, [tools, query]);

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) call.reset();
        onOpenChange(o);
      }}
    >
      <DialogContent data-testid="tool-palette" className="max-w-xl gap-0 p-0" aria-describedby="tool-palette-desc">
        <div className="flex items-center gap-2 border-b px-4 py-3 pr-12">
          {tool && (
            <Button variant="subtle" size="icon-xs" aria-label="Back to tools" onClick={() => { setSelected(null); call.reset(); }}>
              <ArrowLeftIcon />
            </Button>
          )}
          <div className="min-w-0">
            <DialogTitle className="truncate text-[14.5px]">{tool ? <span className="font-mono">{tool.name}</span> : "Run a tool"}</DialogTitle>
            <DialogDescription id="tool-palette-desc" className="truncate text-xs">
              {tool ? tool.description : "Tools run in this session, exactly as if the agent had called them."}
            </DialogDescription>
          </div>
        </div>
        {tool ? (
          <div className="scroll-thin overflow-y-auto px-4 py-4">
            <ToolForm
              key={tool.name}
              tool={tool}
              pending={call.isPending}
              error={call.error?.message ?? null}
              onSubmit={(args) => call.mutate({ sessionId, name: tool.name, args })}
            />
          </div>
        ) : (
          <>
            <div className="relative border-b">
              <SearchIcon className="pointer-events-none absolute left-4 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
              <input
                autoFocus
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                placeholder="Filter tools…"
                aria-label="Filter tools"
                className="h-10 w-full bg-transparent pl-10 pr-4 text-[14px] outline-none placeholder:text-muted-foreground/70"
              />
            </div>
            <div className="scroll-thin max-h-[60vh] overflow-y-auto p-2">
              {filtered.length === 0 && <p className="px-2 py-3 text-[13px] text-muted-foreground">No tool matches.</p>}
              {groupByCapability(filtered).map(([capability, list]) => (
                <div key={capability} className="mb-1">
                  <div className="px-2 pb-1 pt-2 text-[11px] font-medium uppercase tracking-wide text-muted-foreground">{capability}</div>
                  {list.map((t) => (
                    <ToolButton key={t.name} tool={t} variant="row" data-testid="tool-palette-item" data-tool-name={t.name} onClick={() => setSelected(t.name)} />
                  ))}
                </div>
              ))}
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
