"use client";
import type { ExtensionRunView } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { ChevronRightIcon, LoaderCircleIcon, SquareIcon, TriangleAlertIcon, WrenchIcon } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { elapsedSince, formatDuration, relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { useTRPC } from "@/trpc/react";
import { BrowserStateChip, RunStateChip } from "./run-state-chip";
import { isActiveRun, messageOf } from "./use-extensions";

/** Current and recent runs, newest first (EXT-6): state, tools, browser half, failures, logs, stop. */
export function RunsList({ runs, sessionTitle }: { runs: ExtensionRunView[]; sessionTitle: (sessionId: string) => string }) {
  const now = useNow(1_000, runs.some(isActiveRun));
  return (
    <ol data-testid="extension-runs" className="flex flex-col gap-2">
      {runs.map((run) => (
        <RunItem key={run.runId} run={run} now={now} sessionTitle={sessionTitle(run.sessionId)} />
      ))}
    </ol>
  );
}

function RunItem({ run, now, sessionTitle }: { run: ExtensionRunView; now: number; sessionTitle: string }) {
  const trpc = useTRPC();
  const stop = useMutation(trpc.extensions.stop.mutationOptions());
  const active = isActiveRun(run);
  return (
    <li data-testid="extension-run" data-run-id={run.runId} data-package={run.packageName} data-state={run.state} className="flex flex-col gap-2 rounded-xl border bg-card px-3.5 py-3">
      <div className="flex flex-wrap items-center gap-x-2.5 gap-y-1.5">
        <RunStateChip state={run.state} />
        <span className="font-mono text-[13px] font-medium">
          {run.packageName} <span className="text-muted-foreground">v{run.version}</span>
        </span>
        <Link href={`/s/${run.sessionId}`} className="min-w-0 max-w-64 truncate text-[12.5px] text-primary hover:underline" title={sessionTitle}>
          {sessionTitle}
        </Link>
        <span className="text-[12px] text-muted-foreground tabular-nums">
          started {relativeTime(run.startedAt, now)}
          {(active || run.endedAt) && ` · ${active ? "up" : "ran"} ${formatDuration(elapsedSince(run.startedAt, run.endedAt, now))}`}
        </span>
        <span className="flex-1" />
        {active && (
          <Button variant="outline" size="xs" data-testid="extension-run-stop" disabled={stop.isPending} onClick={() => stop.mutate({ runId: run.runId })}>
            {stop.isPending ? <LoaderCircleIcon className="animate-spin" /> : <SquareIcon className="fill-current" />}
            Stop
          </Button>
        )}
      </div>

      <div className="flex flex-wrap items-center gap-1.5 text-[12px]">
        {run.hasHost && (
          <span className="flex flex-wrap items-center gap-1" data-testid="extension-run-tools">
            <WrenchIcon className="size-3.5 text-muted-foreground" />
            {run.tools.length === 0 ? (
              <span className="text-muted-foreground">no tools registered</span>
            ) : (
              run.tools.map((t) => (
                <Badge key={t} tone="outline" className="font-mono">
                  {t}
                </Badge>
              ))
            )}
          </span>
        )}
        <BrowserStateChip state={run.browser} failure={run.browserFailure} ended={!active} />
      </div>

      {run.browser === "failed" && run.browserFailure && (
        <Failure testId="extension-run-browser-failure" title="The browser half failed to render" text={run.browserFailure} />
      )}
      {run.lastFailure &&
        (run.state === "rejected" || run.state === "cancelled" ? (
          <p data-testid="extension-run-reason" className="text-[12.5px] text-muted-foreground">
            {run.lastFailure}
          </p>
        ) : (
          <Failure testId="extension-run-failure" title="Last failure" text={run.lastFailure} />
        ))}
      {stop.error && (
        <p role="alert" className="text-[12.5px] text-destructive">
          Could not stop this run: {messageOf(stop.error)}. It may already have ended; the state above is live.
        </p>
      )}

      <details className="group/logs text-[12px]" data-testid="extension-run-logs">
        <summary className="flex w-fit cursor-pointer items-center gap-1 text-muted-foreground select-none hover:text-foreground">
          <ChevronRightIcon className="size-3.5 transition-transform group-open/logs:rotate-90" />
          Logs · {run.logs.length} line{run.logs.length === 1 ? "" : "s"}
        </summary>
        {run.logs.length === 0 ? (
          <p className="mt-1.5 text-muted-foreground">Nothing logged. A host half writes here with api.log(…).</p>
        ) : (
          <pre className="scroll-thin mt-1.5 max-h-72 overflow-auto rounded-md border bg-code p-2.5 font-mono text-[12px] leading-[1.55] whitespace-pre-wrap break-words">
            {run.logs.join("\n")}
          </pre>
        )}
      </details>
    </li>
  );
}

function Failure({ testId, title, text }: { testId: string; title: string; text: string }) {
  return (
    <div data-testid={testId} className="flex items-start gap-2 rounded-md border border-destructive/25 bg-destructive-soft/60 px-2.5 py-2 text-[12.5px]">
      <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0 text-destructive" />
      <div className="min-w-0">
        <span className="font-medium">{title}: </span>
        <span className="break-words font-mono text-[12px]">{text}</span>
      </div>
    </div>
  );
}
