"use client";
import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { useTRPC } from "@/trpc/react";

/** Picks a session (most recently active first) for "Attach to message" and "Run in session…" (MCP-9). */
export function SessionPicker({ open, title, description, onOpenChange, onPick }: {
  open: boolean;
  title: string;
  description: string;
  onOpenChange: (open: boolean) => void;
  onPick: (sessionId: string) => void;
}) {
  const trpc = useTRPC();
  const sessions = useQuery({ ...trpc.session.list.queryOptions(), enabled: open });
  const list = [...(sessions.data ?? [])].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="mcp-session-picker">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {sessions.isPending && <p className="text-[13px] text-muted-foreground">Loading sessions…</p>}
        {sessions.error && <p role="alert" className="text-[13px] text-destructive">Could not load the sessions: {sessions.error.message}</p>}
        {sessions.data && list.length === 0 && <p className="text-[13px] text-muted-foreground">There are no sessions yet. Start one from the sidebar first.</p>}
        <ul className="scroll-thin flex max-h-80 flex-col gap-1 overflow-y-auto">
          {list.map((s, i) => (
            <li key={s.id}>
              <Button variant="ghost" className="w-full justify-start" data-testid="mcp-session-option" data-session={s.id} onClick={() => onPick(s.id)}>
                <span className="truncate">{s.title}</span>
                {i === 0 && <span className="ml-auto text-[11px] text-muted-foreground">most recent</span>}
                {s.running && <span className="text-[11px] text-muted-foreground">running</span>}
              </Button>
            </li>
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  );
}
