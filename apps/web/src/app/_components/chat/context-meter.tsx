"use client";
import type { ContextUsage } from "@seam/shared";
import { Tip } from "@/components/ui/tooltip";
import { cn } from "@/lib/utils";

/** The meter warns this many points of the window before the compaction threshold (CTX-2). */
export const CONTEXT_WARN_MARGIN = 10;

/** 950 → "950", 12_345 → "12.3k", 128_000 → "128k", 1_047_576 → "1.05M". */
export function formatTokens(n: number): string {
  if (n < 1_000) return String(n);
  if (n < 1_000_000) {
    const k = n / 1_000;
    return `${k < 100 ? Number(k.toFixed(1)) : Math.round(k)}k`;
  }
  return `${Number((n / 1_000_000).toFixed(2))}M`;
}

export const contextLevel = (c: ContextUsage): "ok" | "warn" | "unknown" =>
  c.percent === null ? "unknown" : c.percent >= c.compactAt - CONTEXT_WARN_MARGIN ? "warn" : "ok";

const WINDOW_SOURCE: Record<ContextUsage["windowSource"], string> = {
  setting: "from your setting",
  model: "documented for this model",
  preset: "documented for this endpoint",
  unknown: "unknown",
};

/** Loaded names listed in the breakdown; more are counted. */
const LOADED_SHOWN = 12;

/** "N tools deferred · M loaded" and the loaded tools' names (CTX-3); nothing while no tool is deferred. */
export function DeferredTools({ context }: { context: Pick<ContextUsage, "deferred" | "loaded"> }) {
  if (context.deferred === 0 && context.loaded.length === 0) return null;
  const shown = context.loaded.slice(0, LOADED_SHOWN);
  const more = context.loaded.length - shown.length;
  return (
    <div className="flex flex-col gap-0.5 pl-2 opacity-80" data-testid="context-deferred">
      <span data-testid="context-deferred-line">
        {context.deferred} tool{context.deferred === 1 ? "" : "s"} deferred · {context.loaded.length} loaded
      </span>
      {shown.length > 0 && (
        <ul className="flex flex-col font-mono text-[11px]" data-testid="context-loaded">
          {shown.map((name) => <li key={name} className="truncate">{name}</li>)}
          {more > 0 && <li>+{more} more</li>}
        </ul>
      )}
    </div>
  );
}

/** The tooltip's breakdown: what the next request is made of, and what the provider reported for the last one. */
export function ContextBreakdown({ context }: { context: ContextUsage }) {
  const row = (label: string, value: string, testId: string) => (
    <div className="flex justify-between gap-4" data-testid={testId}>
      <span>{label}</span>
      <span className="font-mono tabular-nums">{value}</span>
    </div>
  );
  return (
    <div className="flex min-w-52 flex-col gap-0.5 py-0.5" data-testid="context-breakdown">
      <div className="font-medium">Next request (estimated)</div>
      {row("System prompt", formatTokens(context.system), "context-system")}
      {row(`Tools (${context.toolCount})`, formatTokens(context.tools), "context-tools")}
      <DeferredTools context={context} />
      {row("History", formatTokens(context.history), "context-history")}
      {row("Total", context.total.toLocaleString("en-US"), "context-total")}
      {context.window !== null
        ? row(`Window, ${WINDOW_SOURCE[context.windowSource]}`, `${context.window.toLocaleString("en-US")} (${context.percent}%)`, "context-window")
        : <div data-testid="context-window">Window unknown — set it in Settings → Model.</div>}
      {row("Last request, reported by the provider", context.lastReported === null ? "—" : context.lastReported.toLocaleString("en-US"), "context-last")}
      {contextLevel(context) === "warn" && (
        <div className="pt-1" data-testid="context-warning">
          Compaction starts at {context.compactAt}% of the window: before that step, older history is summarized. Type /compact to do it now.
        </div>
      )}
    </div>
  );
}

/** The chat header's meter (CTX-1): tokens of the next request against the model's window, with a bar. */
export function ContextMeter({ context }: { context: ContextUsage }) {
  const level = contextLevel(context);
  const used = formatTokens(context.total);
  const label = context.window === null ? `${used} tokens` : `${used} / ${formatTokens(context.window)}`;
  const fill = Math.min(100, context.percent ?? 0);
  return (
    <Tip label={<ContextBreakdown context={context} />} side="bottom">
      <button
        type="button"
        data-testid="context-meter"
        data-level={level}
        aria-label={`Context: ${label}${context.percent === null ? "" : ` (${context.percent}%)`}`}
        className={cn(
          "inline-flex shrink-0 items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs tabular-nums transition-colors hover:bg-muted",
          level === "warn" && "border-warning text-warning",
        )}
      >
        {context.window !== null && (
          <span className="relative h-1.5 w-10 overflow-hidden rounded-full bg-muted" aria-hidden>
            <span className={cn("absolute inset-y-0 left-0 rounded-full", level === "warn" ? "bg-warning" : "bg-foreground/60")} style={{ width: `${fill}%` }} />
          </span>
        )}
        <span className="font-mono" data-testid="context-meter-label">{label}</span>
      </button>
    </Tip>
  );
}
