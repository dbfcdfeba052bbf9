"use client";
import { ChevronRightIcon } from "lucide-react";
import { useState } from "react";
import { cn } from "@/lib/utils";
import { ApprovalCard } from "./approval-card";
import { ExtensionFrame } from "./extension-frame";
import { hasLiveBrowserHalf, useExtensions } from "./use-extensions";

/** This session's pending run requests, inline at the end of the timeline (mirrored in the tray). */
export function SessionApprovals({ sessionId }: { sessionId: string }) {
  const approvals = useExtensions().data?.approvals.filter((a) => a.sessionId === sessionId) ?? [];
  if (approvals.length === 0) return null;
  return (
    <div data-testid="session-approvals" className="mt-3.5 flex flex-col gap-3">
      {approvals.map((r) => (
        <ApprovalCard key={r.id} request={r} />
      ))}
    </div>
  );
}

/** This session's running browser halves, in a collapsible panel above the composer. */
export function SessionFrames({ sessionId }: { sessionId: string }) {
  const runs = useExtensions().data?.runs.filter((r) => r.sessionId === sessionId && hasLiveBrowserHalf(r)) ?? [];
  const [open, setOpen] = useState(true);
  if (runs.length === 0) return null;
  return (
    <section data-testid="session-extension-frames" aria-label="Running extensions" className="flex flex-col gap-1.5">
      <button
        type="button"
        aria-expanded={open}
        data-testid="session-extension-frames-toggle"
        onClick={() => setOpen((o) => !o)}
        className="flex w-fit cursor-pointer items-center gap-1 text-[12px] font-medium text-muted-foreground hover:text-foreground"
      >
        <ChevronRightIcon className={cn("size-3.5 transition-transform", open && "rotate-90")} />
        Running extensions · {runs.length}
      </button>
      {/* Hidden, not unmounted: collapsing must not reset a running widget. */}
      <div className={cn("scroll-thin flex max-h-[45vh] flex-col gap-2 overflow-y-auto", !open && "hidden")}>
        {runs.map((run) => (
          <ExtensionFrame key={run.runId} run={run} />
        ))}
      </div>
    </section>
  );
}
