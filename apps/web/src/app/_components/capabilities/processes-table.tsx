"use client";
import { useQuery } from "@tanstack/react-query";
import { formatDuration, relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";

/** Child processes the host started (language servers, MCP servers…), with the tail of their stderr (SEC-4). */
export function ProcessesTable() {
  const trpc = useTRPC();
  const processes = useQuery({ ...trpc.processes.list.queryOptions(), refetchInterval: 3_000 });
  const now = useNow(5_000);

  if (processes.isPending) return <p className="text-[13px] text-muted-foreground">Loading processes…</p>;
  if (processes.isError) return <p className="text-[13px] text-destructive">Could not load processes: {processes.error.message}</p>;
  if (processes.data.length === 0) {
    return (
      <p data-testid="processes-empty" className="rounded-xl border bg-card px-4 py-5 text-[13px] text-muted-foreground">
        The host runs no child processes right now. Language servers and stdio MCP servers appear here once configured, with
        their stderr.
      </p>
    );
  }
  return (
    <ul data-testid="processes-table" className="divide-y rounded-xl border bg-card text-[13px]">
      {processes.data.map((p) => (
        <li key={`${p.pid}-${p.startedAt}`} data-testid="process-row" data-state={p.state} className="px-3 py-2.5">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span className="font-medium">{p.label}</span>
            <span className="font-mono text-[11.5px] text-muted-foreground">pid {p.pid} · {p.command}</span>
            <span
              className={cn(
                "rounded-full px-2 py-0.5 text-[11.5px]",
                p.state === "running" ? "bg-success-soft text-success" : "bg-muted text-muted-foreground",
              )}
            >
              {p.state === "running"
                ? `running for ${formatDuration(now - Date.parse(p.startedAt))}`
                : `exited ${p.exitSignal ? `by ${p.exitSignal}` : `with code ${p.exitCode}`} ${relativeTime(p.endedAt ?? p.startedAt, now)}`}
            </span>
          </div>
          <details className="mt-1.5">
            <summary className="cursor-pointer text-[12px] text-muted-foreground select-none">
              stderr {p.stderrTail ? `(last ${p.stderrTail.length.toLocaleString()} chars)` : "(empty)"}
            </summary>
            <pre className="scroll-thin mt-1.5 max-h-64 overflow-auto rounded-md bg-muted p-2 font-mono text-[12px] whitespace-pre-wrap">
              {p.stderrTail || "Nothing written to stderr."}
            </pre>
          </details>
        </li>
      ))}
    </ul>
  );
}
