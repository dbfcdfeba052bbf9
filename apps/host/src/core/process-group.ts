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
  return names.some((name) => /^\d+$/.test(name) && runningInGroup(name, pgid));
}

function runningInGroup(pid: string, pgid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  // "pid (comm) state ppid pgrp …" — comm may contain spaces and parentheses.
  const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(pgrp) === pgid && state !== "Z" && state !== "X";
}
