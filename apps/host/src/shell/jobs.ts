/**
 * Background jobs (CODE-3): commands started with `background: true`, per session, at most `maxJobs`
 * running at once. A finished job stays listed (its output readable) until more than `keepFinished`
 * finished ones pile up or the session's jobs are killed.
 */
import type { ShellJobState, ShellJobView } from "@seam/shared";
import type { Disposer } from "../core/scope.js";
import { shellError } from "./errors.js";
import type { Read } from "./output.js";
import type { CommandExit, RunningCommand } from "./run.js";

export interface Job {
  readonly id: string;
  readonly sessionId: string;
  readonly command: string;
  readonly run: RunningCommand;
  /** Absolute output offset up to which job_output has handed the output to the model. */
  cursor: number;
}

export interface Jobs {
  /** Refuses with `too_many_jobs` when the session runs `maxJobs` already; `start` is called only then. */
  start(sessionId: string, command: string, start: () => RunningCommand): Job;
  /** The session's job, or `job_not_found` (another session's job is not found either). */
  get(sessionId: string, jobId: string): Job;
  list(sessionId: string): ShellJobView[];
  /** Stops a running job (its whole process group) and resolves with it; a finished job is returned as it is. */
  kill(sessionId: string, jobId: string): Promise<Job>;
  /** Stops every job of the session and forgets them. */
  killSession(sessionId: string): Promise<void>;
  /** Output since the last `unread` (then marks it read). */
  unread(job: Job): Read;
  onChange(fn: (sessionId: string) => void): Disposer;
}

export function stateOf(exit: CommandExit | null): ShellJobState {
  if (!exit) return "running";
  return exit.stoppedBy ? "killed" : "exited";
}

export function viewOf(job: Job): ShellJobView {
  const exit = job.run.exit();
  return {
    id: job.id, sessionId: job.sessionId, command: job.command, startedAt: job.run.startedAt.toISOString(), state: stateOf(exit),
    exitCode: exit?.exitCode ?? null, signal: exit?.signal ?? null, endedAt: exit?.endedAt.toISOString() ?? null,
  };
}

export function createJobs(opts: { maxJobs: number; keepFinished: number; onListenerError?: (error: unknown) => void }): Jobs {
  const sessions = new Map<string, Map<string, Job>>();
  const listeners = new Set<{ fn: (sessionId: string) => void }>();
  let counter = 0;
  const changed = (sessionId: string) => {
    for (const l of [...listeners]) {
      try {
        l.fn(sessionId);
      } catch (error) {
        opts.onListenerError?.(error);
      }
    }
  };
  const running = (table: Map<string, Job>) => [...table.values()].filter((j) => !j.run.exit());

  const prune = (sessionId: string) => {
    const table = sessions.get(sessionId);
    if (!table) return;
    const finished = [...table.values()].filter((j) => j.run.exit());
    for (const job of finished.slice(0, Math.max(0, finished.length - opts.keepFinished))) table.delete(job.id);
  };

  const get = (sessionId: string, jobId: string): Job => {
    const job = sessions.get(sessionId)?.get(jobId);
    if (!job) {
      const known = [...(sessions.get(sessionId)?.keys() ?? [])];
      throw shellError("not_found", "job_not_found", `There is no background job "${jobId}" in this session.${known.length ? ` Its jobs: ${known.join(", ")}.` : " It has no background jobs."}`, { jobId });
    }
    return job;
  };

  return {
    start(sessionId, command, start) {
      let table = sessions.get(sessionId);
      const now = table ? running(table) : [];
      if (now.length >= opts.maxJobs) {
        const list = now.map((j) => `${j.id} (${short(j.command)})`).join(", ");
        throw shellError("conflict", "too_many_jobs", `This session already runs ${now.length} background jobs, the most allowed: ${list}. Stop one with job_kill before starting another.`, { limit: opts.maxJobs });
      }
      const run = start();
      if (!table) sessions.set(sessionId, (table = new Map()));
      const job: Job = { id: `job_${++counter}`, sessionId, command, run, cursor: 0 };
      table.set(job.id, job);
      void run.done.then(() => {
        prune(sessionId);
        changed(sessionId);
      });
      changed(sessionId);
      return job;
    },
    get,
    list: (sessionId) => [...(sessions.get(sessionId)?.values() ?? [])].map(viewOf),
    async kill(sessionId, jobId) {
      const job = get(sessionId, jobId);
      await job.run.stop("killed");
      return job;
    },
    async killSession(sessionId) {
      const table = sessions.get(sessionId);
      if (!table) return;
      await Promise.all([...table.values()].map((j) => j.run.stop("killed")));
      sessions.delete(sessionId);
      changed(sessionId);
    },
    unread(job) {
      const read = job.run.output.read(job.cursor);
      job.cursor = job.run.output.written;
      return read;
    },
    onChange(fn) {
      const entry = { fn };
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
  };
}

export const short = (command: string) => (command.length > 60 ? `${command.slice(0, 57)}…` : command).replaceAll("\n", " ");
