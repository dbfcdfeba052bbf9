import { readFileSync } from "node:fs";

/** Gone means ESRCH, or a zombie nobody reaps (this container's init does not reap orphans). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] !== "Z";
  } catch {
    return false;
  }
}

/** SIGKILLs every process group in `pgids` (test clean-up: a group already gone is fine) and forgets them. */
export function killGroups(pgids: Set<number>): void {
  for (const pgid of pgids) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  pgids.clear();
}
