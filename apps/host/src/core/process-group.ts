import { readdirSync, readFileSync } from "node:fs";

/** Sends `signal` to every process in the group led by `pgid`; a group that is already gone is fine. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left to signal.
  }
}

/**
 * Whether any process of the group is still running. Zombies don't count: in containers whose init
 * does not reap orphans, a killed grandchild stays a zombie forever although it is gone.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  if (process.platform !== "linux") return true;
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return true;
  }
  return names.some((name) => /^\d+$/.test(name) && running(readStat(Number(name)), pgid));
}

/** What `/proc/<pid>/stat` says about a process (Linux only). */
export interface ProcStat {
  pid: number;
  /** R, S, D, Z, X… */
  state: string;
  pgrp: number;
  session: number;
  /**
   * Field 22: clock ticks after boot when the process started. It survives exec and differs between two
   * processes that got the same pid, so (pid, startTime) names one process for the life of the machine.
   */
  startTime: string;
}

/** The process's stat line, or undefined when there is no such process (or no /proc). */
export function readStat(pid: number): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp session … starttime(22) …" — comm may contain spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const startTime = fields[19];
  if (startTime === undefined) return undefined;
  return { pid, state: fields[0]!, pgrp: Number(fields[2]), session: Number(fields[3]), startTime };
}

/** The start time of a process that is running now (not a zombie), or undefined. */
export function startTimeOf(pid: number): string | undefined {
  const stat = readStat(pid);
  return stat && running(stat) ? stat.startTime : undefined;
}

/** Every running (non-zombie) member of the group, read from /proc. */
export function groupMembers(pgid: number): ProcStat[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const members: ProcStat[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (running(stat, pgid)) members.push(stat);
  }
  return members;
}

/** This boot's id: pids and start times from another boot mean nothing. */
export function bootId(): string | undefined {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
}

function running(stat: ProcStat | undefined, pgid?: number): stat is ProcStat {
  return stat !== undefined && (pgid === undefined || stat.pgrp === pgid) && stat.state !== "Z" && stat.state !== "X";
}

/** Resolves true once `done()` holds, polling every 25 ms, or false after `ms` (so its timer holds the process at most that long). */
export function until(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  return new Promise((resolve) => {
    const check = () => {
      if (done()) return resolve(true);
      if (Date.now() >= deadline) return resolve(false);
      setTimeout(check, 25);
    };
    check();
  });
}
