/**
 * A process tree's CPU time and memory from /proc (Linux), for the start-up benches (startup, web-server).
 */
import { readdirSync, readFileSync } from "node:fs";

const TICK = 100; // USER_HZ on Linux

function statOf(pid: number): { ppid: number; ticks: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
    // After "(comm) ": state ppid … utime(14) stime(15) cutime(16) cstime(17) → indices 11..14 here.
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return null;
  }
}

/** `rootPids` and every live descendant. */
export function tree(rootPids: number[]): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const s = statOf(pid);
    if (s) parent.set(pid, s.ppid);
  }
  const out = new Set(rootPids.filter((p) => parent.has(p)));
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, pp] of parent) if (!out.has(pid) && out.has(pp)) { out.add(pid); grew = true; }
  }
  return [...out];
}

/** utime + stime of the tree so far, reaped children included, in seconds. */
export const cpuSeconds = (pids: number[]) => tree(pids).reduce((sum, pid) => sum + (statOf(pid)?.ticks ?? 0), 0) / TICK;

/** RSS and PSS of the tree in MiB (`/proc/<pid>/smaps_rollup`). */
export function memory(pids: number[]): { rss: number; pss: number } {
  let rss = 0;
  let pss = 0;
  for (const pid of tree(pids)) {
    try {
      const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      rss += Number(/^Rss:\s+(\d+)/m.exec(text)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+)/m.exec(text)?.[1] ?? 0);
    } catch { /* gone */ }
  }
  return { rss: rss / 1024, pss: pss / 1024 };
}
