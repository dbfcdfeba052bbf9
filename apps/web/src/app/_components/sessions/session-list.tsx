"use client";
import type { SessionInfo } from "@seam/shared";
import { MoreHorizontalIcon, Trash2Icon } from "lucide-react";
import { IntentLink } from "@/components/intent-link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { cn, folderName } from "@/lib/utils";
import { DeleteSessionDialog } from "./delete-session-dialog";
import { useLiveSessionList, useSessions } from "./use-sessions";

export function SessionList() {
  useLiveSessionList();
  const sessions = useSessions();
  const now = useNow(30_000);
  const pathname = usePathname();
  const [deleting, setDeleting] = useState<SessionInfo | null>(null);

  const list = [...(sessions.data ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));

  return (
    <nav aria-label="Sessions" className="flex min-h-0 flex-1 flex-col">
      <div className="px-3 pb-1 pt-3 text-[11px] font-medium uppercase tracking-wide text-muted-foreground">Sessions</div>
      <ul data-testid="session-list" className="scroll-thin flex min-h-0 flex-1 flex-col gap-px overflow-y-auto px-2 pb-2">
        {sessions.isPending && <li className="px-2 py-1.5 text-xs text-muted-foreground">Loading…</li>}
        {sessions.isError && <li className="px-2 py-1.5 text-xs text-destructive">Could not load sessions: {sessions.error.message}</li>}
        {sessions.isSuccess && list.length === 0 && (
          <li className="px-2 py-1.5 text-xs leading-relaxed text-muted-foreground">No sessions yet. Start one for a folder you want to work in.</li>
        )}
        {list.map((s) => {
          const active = pathname === `/s/${s.id}`;
          return (
            <li key={s.id} data-testid="session-item" data-session-id={s.id} data-waiting={s.waiting > 0 || undefined} className="group relative">
              <IntentLink
                href={`/s/${s.id}`}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "flex flex-col rounded-lg px-2.5 py-1.5 pr-8 outline-none transition-colors hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring/40",
                  active && "bg-subtle hover:bg-subtle",
                )}
              >
                <span className="flex items-center gap-1.5">
                  {s.waiting > 0 ? (
                    <span
                      data-testid="session-item-waiting-dot"
                      className="size-1.5 shrink-0 animate-pulse-dot rounded-full bg-warning"
                      aria-hidden
                    />
                  ) : s.running && (
                    <span
                      className="size-1.5 shrink-0 animate-pulse-dot rounded-full bg-primary"
                      aria-label="running"
                      title="A turn is running"
                    />
                  )}
                  <span data-testid="session-item-title" className="truncate text-[13.5px] font-medium">
                    {s.title}
                  </span>
                </span>
                <span className="flex items-center gap-1 text-[11.5px] text-muted-foreground">
                  <span className="truncate font-mono" title={s.workspace}>
                    {folderName(s.workspace)}
                  </span>
                  <span aria-hidden>·</span>
                  {s.waiting > 0 ? (
                    <span data-testid="session-item-waiting" className="shrink-0 font-medium text-warning" title={`${s.waiting} request${s.waiting === 1 ? "" : "s"} waiting for your answer`}>
                      waiting for you
                    </span>
                  ) : (
                    <span className="shrink-0">{s.running ? "running" : relativeTime(s.updatedAt, now)}</span>
                  )}
                </span>
              </IntentLink>
              <DropdownMenu>
                <DropdownMenuTrigger
                  data-testid="session-item-menu"
                  aria-label={`Actions for ${s.title}`}
                  className="absolute right-1.5 top-1/2 flex size-6 -translate-y-1/2 cursor-pointer items-center justify-center rounded-md text-muted-foreground opacity-0 hover:bg-subtle hover:text-foreground focus-visible:opacity-100 group-hover:opacity-100 data-[state=open]:opacity-100"
                >
                  <MoreHorizontalIcon className="size-4" />
                </DropdownMenuTrigger>
                <DropdownMenuContent align="start" side="right">
                  <DropdownMenuItem destructive data-testid="session-item-delete" onSelect={() => setDeleting(s)}>
                    <Trash2Icon /> Delete…
                  </DropdownMenuItem>
                </DropdownMenuContent>
              </DropdownMenu>
            </li>
          );
        })}
      </ul>
      {deleting && (
        <DeleteSessionDialog session={deleting} open onOpenChange={(o) => !o && setDeleting(null)} />
      )}
    </nav>
  );
}
