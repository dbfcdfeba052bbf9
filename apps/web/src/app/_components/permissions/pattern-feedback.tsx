"use client";
import type { PatternCheck } from "@seam/shared";
import { CheckIcon, LoaderCircleIcon, XIcon } from "lucide-react";
import { relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";

/** Under a pattern field: valid or why not, and the recent calls it would have matched. */
export function PatternFeedback({ check, checking, error, showMatches = true }: { check: PatternCheck | undefined; checking: boolean; error: { message: string } | null; showMatches?: boolean }) {
  const now = useNow(60_000);
  if (error) return <p className="text-xs text-destructive">Could not check the pattern: {error.message}</p>;
  if (!check) return checking ? <p className="flex items-center gap-1 text-xs text-muted-foreground"><LoaderCircleIcon className="size-3 animate-spin" /> Checking…</p> : null;
  if (!check.ok) {
    return (
      <p data-testid="pattern-invalid" role="alert" className="flex items-center gap-1 text-xs text-destructive">
        <XIcon className="size-3.5 shrink-0" /> {check.message ?? "Not a valid pattern."}
      </p>
    );
  }
  return (
    <div data-testid="pattern-check" data-matches={check.matches.length} className="flex flex-col gap-1 text-xs">
      <p className="flex items-center gap-1 text-success">
        <CheckIcon className="size-3.5 shrink-0" /> Valid pattern
        <span className="text-muted-foreground">
          {" "}
          · {check.matches.length === 0 ? "it matches none of the recent calls" : `would have matched ${check.matches.length} recent call${check.matches.length === 1 ? "" : "s"}`}
        </span>
      </p>
      {showMatches && check.matches.length > 0 && (
        <ul data-testid="pattern-matches" className="scroll-thin max-h-36 overflow-y-auto rounded-md border bg-code px-2 py-1">
          {check.matches.map((m, i) => (
            <li key={i} data-testid="pattern-match" className="flex items-baseline gap-2 py-0.5">
              <span className="shrink-0 font-mono text-foreground">{m.tool}</span>
              <span className="min-w-0 flex-1 truncate font-mono text-muted-foreground" title={m.subject}>
                {m.subject}
              </span>
              <span className="shrink-0 text-muted-foreground">
                {m.sessionTitle} · {relativeTime(m.decidedAt, now)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
