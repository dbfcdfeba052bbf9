"use client";
import type { ToolInfo } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { ArrowLeftIcon, LockIcon, SearchIcon } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "@/components/ui/dialog";
import { useTRPC } from "@/trpc/react";
import { groupByCapability } from "../chat/empty-state";
import { toolIcon } from "../chat/tool-summary";
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
  useEffect(() => {
    if (open) {
      setSelected(initialTool);
      setQuery("");
    }
  }, [open, initialTool]);

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
                  {list.map((t) => {
                    const Icon = toolIcon(t.name);
                    return (
                      <button
                        key={t.name}
                        type="button"
                        data-testid="tool-palette-item"
                        data-tool-name={t.name}
                        onClick={() => setSelected(t.name)}
                        className="flex w-full cursor-pointer items-start gap-2.5 rounded-lg px-2 py-2 text-left hover:bg-muted focus-visible:bg-muted focus-visible:outline-none"
                      >
                        <Icon className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                        <span className="min-w-0">
                          <span className="flex items-center gap-1.5 font-mono text-[13px] font-medium">
                            {t.name}
                            {t.readOnly && <span className="rounded bg-muted px-1 font-sans text-[10.5px] font-normal text-muted-foreground">read-only</span>}
                            {t.approval === "ask" && <LockIcon className="size-3 text-muted-foreground" aria-label="asks for approval" />}
                          </span>
                          <span className="line-clamp-2 text-[12.5px] leading-snug text-muted-foreground">{t.description}</span>
                        </span>
                      </button>
                    );
                  })}
                </div>
              ))}
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
