"use client";
import type { ApprovalRequestView, ToolApprovalView } from "@seam/shared";
import { ArrowRightIcon, BellIcon, XIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Tip } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";
import { ToolApprovalCard } from "../approvals/tool-approval-card";
import { SummaryText } from "../approvals/approval-subject";
import { useApprovals, useLiveApprovals } from "../approvals/use-approvals";
import { useLingering } from "../approvals/use-lingering";
import { Sheet } from "../mcp/sheet";
import { ApprovalCard } from "./approval-card";
import { messageOf, useLiveExtensions } from "./use-extensions";
import { ElicitationCard } from "../elicitation/elicitation-card";
import { useAllElicitations } from "../elicitation/use-elicitations";

/** How long the "new run request" notice stays up when nobody looks at it. */
const NOTICE_MS = 12_000;

/** A pending request of either kind, for the notice. */
type AnyRequest = ApprovalRequestView | ToolApprovalView;

/**
 * The global approval tray (EXT-6, PERM-3, UI.md Frame): a bell in the main area's top-right corner with
 * the number of pending requests of every session (tool calls and extension runs), and a slide-over that
 * lists them. Also keeps the extensions and approvals snapshots live for the whole app.
 */
export function ApprovalTray({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  useLiveExtensions();
  useLiveApprovals();
  const snapshot = useApprovals();
  const approvals = snapshot.data?.runs ?? [];
  const tools = snapshot.data?.tools ?? [];
  const notice = useNewRequestNotice(tools, approvals, open);
  // MCP servers' requests for input (MCP-12) wait for a person too.
  const elicitations = useAllElicitations();
  const count = approvals.length + tools.length + elicitations.length;
  const toolCards = useLingering(tools, 5_000);

  return (
    <>
      <div className="absolute right-3 top-2.5 z-30">
        <Tip label={count ? `${count} request${count === 1 ? "" : "s"} waiting for you` : "Approvals"} side="left">
          <Button
            variant="subtle"
            size="icon-sm"
            data-testid="approval-tray-button"
            data-count={count}
            aria-label={count ? `Approvals, ${count} pending` : "Approvals"}
            aria-haspopup="dialog"
            onClick={() => onOpenChange(true)}
            className={cn("relative bg-background/80 backdrop-blur-sm", count > 0 && "bg-primary-soft text-primary-soft-foreground hover:bg-primary-soft")}
          >
            <BellIcon />
            {count > 0 && (
              <span
                data-testid="approval-count"
                aria-hidden
                className="absolute -right-1 -top-1 flex h-4 min-w-4 items-center justify-center rounded-full bg-primary px-1 text-[10px] font-semibold leading-none text-primary-foreground tabular-nums"
              >
                {count > 99 ? "99+" : count}
              </span>
            )}
          </Button>
        </Tip>
      </div>

      {notice.request && (
        <div
          data-testid="approval-notice"
          role="status"
          className="absolute right-3 top-13 z-30 flex w-80 max-w-[calc(100%-1.5rem)] items-start gap-2 rounded-xl border border-primary/30 bg-popover p-3 text-[13px] shadow-lg animate-pop-in"
        >
          <BellIcon className="mt-0.5 size-4 shrink-0 text-primary" />
          <button type="button" className="min-w-0 flex-1 cursor-pointer text-left" onClick={() => onOpenChange(true)}>
            <NoticeText request={notice.request} />
            <span className="mt-1 flex items-center gap-1 text-[12px] font-medium text-primary">
              Review <ArrowRightIcon className="size-3" />
            </span>
          </button>
          <button type="button" aria-label="Dismiss" className="cursor-pointer rounded p-0.5 text-muted-foreground hover:bg-muted hover:text-foreground" onClick={notice.dismiss}>
            <XIcon className="size-3.5" />
          </button>
        </div>
      )}

      <Sheet
        open={open}
        onOpenChange={onOpenChange}
        title="Approvals"
        description="Tool calls, run requests and MCP servers' requests for input from every session. Each turn waits until someone answers; the first answer wins."
        className="max-w-2xl"
        data-testid="approval-tray"
      >
        <div className="scroll-thin flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto p-4">
          {snapshot.isError && (
            <p role="alert" className="text-[13px] text-destructive">
              Could not load the pending requests: {messageOf(snapshot.error)}. Check that the Seam host is running; this panel updates by itself once it answers.
            </p>
          )}
          {snapshot.data && count === 0 && (
            <p data-testid="approval-tray-empty" className="rounded-xl border border-dashed px-4 py-8 text-center text-[13px] text-muted-foreground">
              Nothing is waiting. When the agent wants to run a command, edit a file, call an MCP tool or run an extension and its mode asks first, the request shows up here.
            </p>
          )}
          {toolCards.map(({ item, stale }) => (
            <ToolApprovalCard key={item.id} request={item} stale={stale} showSession />
          ))}
          {approvals.map((r) => (
            <ApprovalCard key={r.id} request={r} />
          ))}
          {elicitations.map((v) => (
            <div key={v.id} className="flex flex-col gap-1" data-testid="approval-tray-elicitation">
              <Link href={`/s/${v.sessionId}`} onClick={() => onOpenChange(false)} className="text-[12px] text-muted-foreground hover:underline">
                In its session →
              </Link>
              <ElicitationCard view={v} />
            </div>
          ))}
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            <Link href="/permissions" onClick={() => onOpenChange(false)} className="inline-flex w-fit items-center gap-1 text-[12.5px] font-medium text-primary hover:underline">
              Modes, rules and the audit log <ArrowRightIcon className="size-3.5" />
            </Link>
            <Link href="/extensions" onClick={() => onOpenChange(false)} className="inline-flex w-fit items-center gap-1 text-[12.5px] font-medium text-primary hover:underline">
              Packages, runs and grants <ArrowRightIcon className="size-3.5" />
            </Link>
          </div>
        </div>
      </Sheet>
    </>
  );
}

function NoticeText({ request }: { request: AnyRequest }) {
  if ("kind" in request && request.kind === "tool_call") {
    return (
      <>
        <span className="font-medium">{request.sessionTitle || "A session"}</span> asks: <SummaryText text={request.summary} />
      </>
    );
  }
  const run = request as ApprovalRequestView;
  return (
    <>
      <span className="font-mono font-medium">
        {run.packageName} v{run.version}
      </span>{" "}
      wants to run in <span className="font-medium">{run.sessionTitle || "a session"}</span>.
    </>
  );
}

/** The newest request nobody has seen yet, unless the tray is open or the current page already shows it. */
function useNewRequestNotice(tools: ToolApprovalView[], runs: ApprovalRequestView[], trayOpen: boolean) {
  const pathname = usePathname();
  const seen = useRef(new Set<string>());
  const [request, setRequest] = useState<AnyRequest | null>(null);

  useEffect(() => {
    const all: AnyRequest[] = [...runs, ...tools];
    const fresh = all.filter((a) => !seen.current.has(a.id));
    for (const a of fresh) seen.current.add(a.id);
    const shownHere = (a: AnyRequest) => pathname === `/s/${a.sessionId}` || (pathname === "/extensions" && !("callId" in a));
    const newest = fresh.filter((a) => !shownHere(a)).at(-1);
    if (newest && !trayOpen) setRequest(newest);
  }, [tools, runs, pathname, trayOpen]);

  // Gone once answered anywhere, once the tray opens, or after a while.
  const current = request && (runs.some((a) => a.id === request.id) || tools.some((a) => a.id === request.id)) && !trayOpen ? request : null;
  useEffect(() => {
    if (!current) return;
    const t = setTimeout(() => setRequest(null), NOTICE_MS);
    return () => clearTimeout(t);
  }, [current]);

  return { request: current, dismiss: () => setRequest(null) };
}
