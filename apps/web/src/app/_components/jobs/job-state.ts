import type { ShellJobView } from "@seam/shared";
import { elapsedSince, formatDuration } from "@/lib/time";

/** How long a finished job's chip stays after it ended, unless dismissed sooner. */
export const FINISHED_LINGER_MS = 2 * 60_000;

/** The chips to show: running jobs always; finished ones until dismissed or `linger` after they ended. Oldest first. */
export function visibleJobs(jobs: readonly ShellJobView[], dismissed: ReadonlySet<string>, now: number, linger = FINISHED_LINGER_MS): ShellJobView[] {
  return jobs
    .filter((j) => {
      if (j.state === "running") return true;
      if (dismissed.has(j.id)) return false;
      const ended = j.endedAt ? Date.parse(j.endedAt) : Number.NaN;
      return Number.isNaN(ended) || now - ended < linger;
    })
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

export type JobTone = "running" | "ok" | "failed" | "killed";

/** A job's state in a few words: "running 12 s", "exited 0", "exited 2", "killed (SIGTERM)". */
export function jobStateLabel(job: ShellJobView, now: number): { label: string; tone: JobTone } {
  switch (job.state) {
    case "running":
      return { label: `running ${formatDuration(elapsedSince(job.startedAt, null, now))}`, tone: "running" };
    case "killed":
      return { label: job.signal ? `killed (${job.signal})` : "killed", tone: "killed" };
    case "exited":
      if (job.exitCode === null && job.signal) return { label: `ended by ${job.signal}`, tone: "failed" };
      return { label: `exited ${job.exitCode ?? "?"}`, tone: job.exitCode === 0 ? "ok" : "failed" };
  }
}

/** A command shortened for a chip, on one line. */
export function shortCommand(command: string, max = 40): string {
  const line = command.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
