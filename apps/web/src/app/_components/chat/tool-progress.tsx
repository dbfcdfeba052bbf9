"use client";
import type { ToolProgress } from "@seam/shared";

/**
 * A running tool call's progress (MCP `notifications/progress`, MCP-12): a bar that fills when the total is known, a
 * moving stripe with the server's message when it is not.
 */
export function ToolProgressBar({ progress }: { progress: ToolProgress }) {
  const { total, message } = progress;
  const determinate = total !== null && total > 0;
  const ratio = determinate ? Math.min(1, Math.max(0, progress.progress / total)) : null;
  const label = determinate ? `${formatCount(progress.progress)} of ${formatCount(total)}` : `${formatCount(progress.progress)} so far`;
  return (
    <div data-testid="tool-progress" data-mode={determinate ? "determinate" : "indeterminate"} className="flex flex-col gap-1 border-t px-2.5 py-2">
      <div
        role="progressbar"
        aria-label={message ?? "Progress"}
        aria-valuemin={determinate ? 0 : undefined}
        aria-valuemax={determinate ? total : undefined}
        aria-valuenow={determinate ? progress.progress : undefined}
        aria-valuetext={message ? `${label}: ${message}` : label}
        data-value={ratio ?? undefined}
        className="relative h-1.5 overflow-hidden rounded-full bg-muted"
      >
        {ratio !== null ? (
          <div className="h-full rounded-full bg-primary transition-[width] duration-300" style={{ width: `${(ratio * 100).toFixed(1)}%` }} />
        ) : (
          <div className="absolute inset-y-0 w-1/3 animate-[progress-stripe_1.2s_ease-in-out_infinite] rounded-full bg-primary/70" />
        )}
      </div>
      <p className="flex justify-between gap-2 text-[11.5px] text-muted-foreground">
        <span data-testid="tool-progress-message" className="min-w-0 truncate">{message ?? (determinate ? "Working…" : "Working, no total given…")}</span>
        <span data-testid="tool-progress-label" className="shrink-0 tabular-nums">
          {label}
          {ratio !== null && ` · ${Math.round(ratio * 100)}%`}
        </span>
      </p>
    </div>
  );
}

const formatCount = (n: number) => (Number.isInteger(n) ? n.toLocaleString("en-US") : n.toLocaleString("en-US", { maximumFractionDigits: 2 }));
