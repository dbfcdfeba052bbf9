"use client";
import type { ShellJobView } from "@seam/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { LoaderCircleIcon, ScrollTextIcon, SquareIcon, TerminalIcon, XIcon } from "lucide-react";
import { useState } from "react";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { formatBytes } from "@/lib/format";
import { hostCodeOf } from "@/lib/host-error";
import { useNow } from "@/lib/use-now";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";
import { TerminalBlock } from "../terminal/terminal-block";
import { jobStateLabel, shortCommand, visibleJobs, type JobTone } from "./job-state";
import { useSessionJobs, useUpdateJob } from "./use-jobs";

const TONE: Record<JobTone, string> = {
  running: "text-primary",
  ok: "text-success",
  failed: "text-destructive",
  killed: "text-muted-foreground",
};

export interface JobChipViewProps {
  job: ShellJobView;
  now: number;
  killing: boolean;
  /** Why the last kill failed. */
  error: string | null;
  onKill: () => void;
  onOutput: () => void;
  onDismiss: () => void;
}

/** One background job under the chat header: its command, state, output and kill / dismiss. */
export function JobChipView({ job, now, killing, error, onKill, onOutput, onDismiss }: JobChipViewProps) {
  const state = jobStateLabel(job, now);
  const running = job.state === "running";
  return (
    <li
      data-testid="job-chip"
      data-job-id={job.id}
      data-state={job.state}
      className={cn(
        "flex max-w-full items-center gap-1 rounded-full border bg-card py-0.5 pr-1 pl-2 text-[12px] shadow-xs",
        running ? "border-primary/30" : "border-border opacity-90",
        error && "border-destructive/50",
      )}
    >
      {running ? (
        <span className="relative flex size-2 shrink-0" aria-hidden>
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-primary/40" />
          <span className="relative inline-flex size-2 rounded-full bg-primary" />
        </span>
      ) : (
        <TerminalIcon className="size-3 shrink-0 text-muted-foreground" aria-hidden />
      )}
      <button
        type="button"
        data-testid="job-chip-output"
        onClick={onOutput}
        title={`${job.command}\n(${job.id}) — show its output`}
        className="min-w-0 cursor-pointer truncate rounded px-0.5 font-mono text-[11.5px] hover:underline"
      >
        {shortCommand(job.command)}
      </button>
      <span data-testid="job-chip-state" className={cn("shrink-0 tabular-nums", TONE[state.tone])}>
        {killing ? "stopping…" : state.label}
      </span>
      <button
        type="button"
        aria-label={`Show the output of ${job.id}`}
        onClick={onOutput}
        className="shrink-0 cursor-pointer rounded-full p-0.5 text-muted-foreground hover:bg-muted hover:text-foreground"
      >
        <ScrollTextIcon className="size-3.5" />
      </button>
      {running ? (
        <button
          type="button"
          data-testid="job-chip-kill"
          aria-label={`Kill ${job.id}`}
          title="Kill this job (its whole process group)"
          disabled={killing}
          onClick={onKill}
          className="shrink-0 cursor-pointer rounded-full p-0.5 text-destructive hover:bg-destructive-soft disabled:opacity-50"
        >
          {killing ? <LoaderCircleIcon className="size-3.5 animate-spin" /> : <SquareIcon className="size-3 fill-current" />}
        </button>
      ) : (
        <button
          type="button"
          data-testid="job-chip-dismiss"
          aria-label={`Dismiss ${job.id}`}
          onClick={onDismiss}
          className="shrink-0 cursor-pointer rounded-full p-0.5 text-muted-foreground hover:bg-muted hover:text-foreground"
        >
          <XIcon className="size-3.5" />
        </button>
      )}
      {error && (
        <span data-testid="job-chip-error" role="alert" className="max-w-64 truncate text-destructive" title={error}>
          {error}
        </span>
      )}
    </li>
  );
}

/** The session's background jobs as chips under the header (CODE-3); nothing when there are none. */
export function JobChips({ sessionId }: { sessionId: string }) {
  const jobs = useSessionJobs(sessionId);
  const [dismissed, setDismissed] = useState<ReadonlySet<string>>(() => new Set());
  const [viewing, setViewing] = useState<string | null>(null);
  const list = jobs.data ?? [];
  const anyRunning = list.some((j) => j.state === "running");
  // Ticks each second while a job runs (elapsed time), and now and then to let finished chips go.
  const now = useNow(anyRunning ? 1_000 : 15_000, list.length > 0);
  const shown = visibleJobs(list, dismissed, now);
  const viewed = viewing ? list.find((j) => j.id === viewing) : undefined;
  if (shown.length === 0 && !viewed) return null;
  return (
    <div data-testid="job-chips" className="shrink-0 border-b bg-muted/30 px-4 py-1.5">
      <ul aria-label="Background jobs" className="mx-auto flex w-full max-w-3xl flex-wrap items-center gap-1.5">
        <li className="mr-0.5 text-[11.5px] text-muted-foreground">Jobs</li>
        {shown.map((job) => (
          <JobChip
            key={job.id}
            sessionId={sessionId}
            job={job}
            now={now}
            onOutput={() => setViewing(job.id)}
            onDismiss={() => setDismissed((d) => new Set([...d, job.id]))}
          />
        ))}
      </ul>
      {viewed && <JobOutputDialog sessionId={sessionId} job={viewed} onClose={() => setViewing(null)} />}
    </div>
  );
}

function JobChip({ sessionId, job, now, onOutput, onDismiss }: { sessionId: string; job: ShellJobView; now: number; onOutput: () => void; onDismiss: () => void }) {
  const trpc = useTRPC();
  const update = useUpdateJob(sessionId);
  const kill = useMutation(trpc.shell.killJob.mutationOptions({ onSuccess: update }));
  const error = kill.error
    ? hostCodeOf(kill.error) === "job_not_found"
      ? "This job is gone (the host restarted or forgot it)."
      : `Could not kill: ${kill.error.message}`
    : null;
  return (
    <JobChipView
      job={job}
      now={now}
      killing={kill.isPending}
      error={error}
      onKill={() => kill.mutate({ sessionId, jobId: job.id })}
      onOutput={onOutput}
      onDismiss={onDismiss}
    />
  );
}

/** A job's whole buffered output in a terminal block, refreshed while it runs. */
function JobOutputDialog({ sessionId, job, onClose }: { sessionId: string; job: ShellJobView; onClose: () => void }) {
  const trpc = useTRPC();
  const running = job.state === "running";
  const output = useQuery({ ...trpc.shell.jobOutput.queryOptions({ sessionId, jobId: job.id }), refetchInterval: running ? 1_000 : false });
  const now = useNow(1_000, running);
  const state = jobStateLabel(job, now);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent data-testid="job-output-dialog" className="max-w-3xl">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            Background job <span className="font-mono text-[13px] text-muted-foreground">{job.id}</span>
          </DialogTitle>
          <DialogDescription>
            <span className={TONE[state.tone]}>{state.label}</span>
            {output.data && (
              <>
                {" "}· {formatBytes(output.data.outputBytes)} of output{output.data.truncated ? " (the middle was dropped to keep it bounded)" : ""}
              </>
            )}
          </DialogDescription>
        </DialogHeader>
        {output.isError ? (
          <p data-testid="job-output-error" role="alert" className="text-[13px] text-destructive">
            Could not load the output: {output.error.message}
          </p>
        ) : (
          <TerminalBlock
            live={running}
            text={output.data?.output ?? ""}
            empty={output.isPending ? "Loading…" : "(no output)"}
            testId="job-output"
            header={
              <span data-testid="job-output-command" className="whitespace-pre-wrap break-all text-zinc-100">
                <span className="select-none text-emerald-400">$ </span>
                {job.command}
              </span>
            }
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
