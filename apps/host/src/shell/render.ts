/** The text the model reads for bash, job_output and job_kill. */
import type { ShellSandboxMode } from "@seam/shared";
import type { Job } from "./jobs.js";
import { elideMiddle, type ElideLimits } from "./output.js";
import type { CommandExit } from "./run.js";

export interface SandboxLabel { mode: ShellSandboxMode; network: boolean }

export function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** `exit code 3`, `killed by SIGTERM`, … */
export function outcome(exit: CommandExit): string {
  if (exit.stoppedBy === "timeout") return `timed out and was killed${exit.signal ? ` (${exit.signal})` : ""}`;
  if (exit.stoppedBy === "killed") return `was killed${exit.signal ? ` (${exit.signal})` : exit.exitCode !== null ? ` (exit code ${exit.exitCode})` : ""}`;
  if (exit.stoppedBy) return `was stopped (${exit.stoppedBy})${exit.signal ? ` by ${exit.signal}` : ""}`;
  if (exit.signal) return `killed by signal ${exit.signal}`;
  return `exit code ${exit.exitCode ?? "unknown"}`;
}

const sandboxNote = (s: SandboxLabel) => (s.mode === "off" ? "" : ` · sandbox ${s.mode}, network ${s.network ? "on" : "off"}`);

/** Output shown to the model: middle elided with a note, or "(no output)". */
export function shown(text: string, limits: ElideLimits, empty = "(no output)"): string {
  if (!text) return empty;
  return elideMiddle(text, limits).text.replace(/\n$/, "");
}

export function renderBash(exit: CommandExit, output: string, sandbox: SandboxLabel, limits: ElideLimits, timeoutMs: number): string {
  const head = exit.stoppedBy === "timeout"
    ? `Timed out after ${seconds(timeoutMs)}: the command and everything it started were killed. Output so far:`
    : `${capital(outcome(exit))} · ${seconds(exit.durationMs)}${sandboxNote(sandbox)}`;
  return `${head}\n${shown(output, limits)}`;
}

export function renderStarted(job: Job, cwd: string, sandbox: SandboxLabel): string {
  return [
    `Started background job ${job.id} (pid ${job.run.pid}) in ${cwd}${sandboxNote(sandbox)}.`,
    `Read its output with job_output({"job_id": "${job.id}"}); stop it with job_kill({"job_id": "${job.id}"}). It is stopped when the session ends.`,
  ].join("\n");
}

export function jobState(job: Job, now = Date.now()): string {
  const exit = job.run.exit();
  if (!exit) return `running for ${seconds(now - job.run.startedAt.getTime())}`;
  if (exit.stoppedBy) return `${outcome(exit)} after ${seconds(exit.durationMs)}`;
  return `${exit.signal ? `was killed by signal ${exit.signal}` : `exited with code ${exit.exitCode}`} after ${seconds(exit.durationMs)}`;
}

export function renderJobOutput(job: Job, fresh: string, limits: ElideLimits): string {
  return `${job.id} (${oneLine(job.command)}): ${jobState(job)}.\n${shown(fresh, limits, "(no new output since the last job_output)")}`;
}

export function renderJobKill(job: Job, wasRunning: boolean, fresh: string, limits: ElideLimits): string {
  const head = wasRunning
    ? `${job.id} (${oneLine(job.command)}) ${jobState(job)}; its process group is gone.`
    : `${job.id} (${oneLine(job.command)}) had already finished: ${jobState(job)}. Nothing was killed.`;
  return `${head}\nLast output:\n${shown(fresh, limits, "(no new output since the last job_output)")}`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const oneLine = (command: string) => {
  const line = command.replaceAll("\n", " ");
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
};
