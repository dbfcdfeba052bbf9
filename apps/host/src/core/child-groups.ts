/**
 * The process groups this host started, recorded in the data directory so that a host killed without
 * a chance to dispose (kill -9, OOM, power cut of the process) leaves a trail: the next host on the same
 * data directory reaps the survivors before it starts anything (SEC-4, hardening #12 item 5).
 *
 * One file per group, `<home>/children/<pgid>.json`, written atomically (temp file + rename) and removed
 * once the group is gone. A record names its leader by (pid, start time from /proc/<pid>/stat field 22),
 * so a pid the kernel handed to someone else is never mistaken for ours, and the host by (pid, start time),
 * so the children of another host that is still running on the same data directory are left alone.
 * Linux only: elsewhere there is no /proc to prove a pid is still ours, so nothing is recorded or reaped.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { messageOf } from "./errors.js";
import { createLog, type Log } from "./log.js";
import { bootId, groupAlive, groupMembers, signalGroup, startTimeOf, until } from "./process-group.js";
import type { Disposer, Scope } from "./scope.js";

export interface ChildGroupRecord {
  /** The process group id, which is the leader's pid (children are spawned detached). */
  pgid: number;
  /** The leader's pid and its start time in clock ticks after boot. */
  pid: number;
  startTime: string;
  label: string;
  command: string;
  /** The host that started it, named the same way. */
  hostPid: number;
  hostStartTime: string;
  bootId: string;
  recordedAt: string;
}

export type NewChildGroup = Pick<ChildGroupRecord, "pgid" | "pid" | "startTime" | "label" | "command">;

export interface ChildGroups {
  readonly dir: string;
  /** Records a group this host just started. Never throws: a record that cannot be written is logged. */
  add(group: NewChildGroup): void;
  /** Forgets a group that is gone. */
  remove(pgid: number): void;
  /** Every readable record; unreadable files are skipped (and logged). */
  list(): ChildGroupRecord[];
}

export interface ReapReport {
  /** Groups of a dead host that were still running and are gone now. */
  reaped: ChildGroupRecord[];
  /** Groups that were signalled but could not be proven gone (their records are kept for the next start). */
  survivors: ChildGroupRecord[];
  /** Groups of a host that is still running (possibly this one): left alone. */
  liveHost: ChildGroupRecord[];
  /** Records whose group is gone, or whose pid now belongs to another process: dropped, nothing signalled. */
  dropped: ChildGroupRecord[];
}

/** How long reaped groups get between SIGTERM and SIGKILL, and after SIGKILL. */
export const REAP_GRACE_MS = 2_000;
const KILL_WAIT_MS = 1_000;
const RECORD = /^(\d+)\.json$/;

/** The records in `dir` (created 0700 when missing); undefined off Linux, where they cannot be verified. */
export function openChildGroups(dir: string, log: Log = createLog("children")): ChildGroups | undefined {
  const host = hostIdentity();
  if (!host) return undefined;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = (pgid: number) => join(dir, `${pgid}.json`);
  return {
    dir,
    add(group) {
      const record: ChildGroupRecord = { ...group, ...host, recordedAt: new Date().toISOString() };
      const tmp = join(dir, `.${group.pgid}.json.${process.pid}.tmp`);
      try {
        writeFileSync(tmp, `${JSON.stringify(record)}\n`, { mode: 0o600 });
        renameSync(tmp, file(group.pgid));
      } catch (error) {
        rmSync(tmp, { force: true });
        log.warn(`could not record process group ${group.pgid} (${group.label}); it will not be reaped after a crash: ${messageOf(error)}`);
      }
    },
    remove(pgid) {
      try {
        rmSync(file(pgid), { force: true });
      } catch (error) {
        log.warn(`could not remove the record of process group ${pgid}: ${messageOf(error)}`);
      }
    },
    list() {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return [];
      }
      const records: ChildGroupRecord[] = [];
      for (const name of names) {
        const pgid = Number(RECORD.exec(name)?.[1]);
        if (!pgid) continue;
        const record = parseRecord(readText(join(dir, name)));
        if (record?.pgid === pgid) records.push(record);
        else log.warn(`skipped an unreadable process group record ${join(dir, name)}`);
      }
      return records;
    },
  };
}

/**
 * Signals the groups a dead host left behind: SIGTERM to the group, up to `graceMs` for it to go, then
 * SIGKILL. A group is ours only while its leader is the very process we started (same start time), or,
 * when the leader is gone, while every remaining member lives in the session the leader opened and started
 * after it. Groups of a live host, this one included, are left alone.
 */
export async function reapOrphans(groups: ChildGroups, opts: { graceMs?: number; log?: Log } = {}): Promise<ReapReport> {
  const log = opts.log ?? createLog("children");
  const graceMs = opts.graceMs ?? REAP_GRACE_MS;
  const report: ReapReport = { reaped: [], survivors: [], liveHost: [], dropped: [] };
  const boot = bootId();
  const orphans: ChildGroupRecord[] = [];
  for (const record of groups.list()) {
    if (record.bootId === boot && startTimeOf(record.hostPid) === record.hostStartTime) report.liveHost.push(record);
    else if (record.bootId === boot && ours(record)) orphans.push(record);
    else report.dropped.push(record);
  }
  for (const record of report.dropped) groups.remove(record.pgid);
  if (report.liveHost.length > 0) {
    const hosts = [...new Set(report.liveHost.map((r) => r.hostPid))].filter((pid) => pid !== process.pid);
    if (hosts.length > 0) log.info(`left ${report.liveHost.length} process group(s) alone: host pid ${hosts.join(", ")} is still running on this data directory`);
  }
  if (orphans.length === 0) return report;

  for (const record of orphans) signalGroup(record.pgid, "SIGTERM");
  await until(() => orphans.every((r) => !groupAlive(r.pgid)), graceMs);
  const stubborn = orphans.filter((r) => groupAlive(r.pgid));
  for (const record of stubborn) signalGroup(record.pgid, "SIGKILL");
  if (stubborn.length > 0) await until(() => stubborn.every((r) => !groupAlive(r.pgid)), KILL_WAIT_MS);
  for (const record of orphans) {
    if (groupAlive(record.pgid)) {
      report.survivors.push(record);
    } else {
      report.reaped.push(record);
      groups.remove(record.pgid);
    }
  }
  const describe = (r: ChildGroupRecord) => ({ pgid: r.pgid, label: r.label, command: r.command, hostPid: r.hostPid, recordedAt: r.recordedAt });
  if (report.reaped.length > 0) {
    log.warn(`reaped ${report.reaped.length} process group(s) left running by a host that exited without stopping them`, {
      groups: report.reaped.map(describe),
      killed: stubborn.filter((r) => report.reaped.includes(r)).map((r) => r.pgid),
    });
  }
  if (report.survivors.length > 0) {
    log.error(`${report.survivors.length} orphaned process group(s) survived SIGKILL; kept on record for the next start`, { groups: report.survivors.map(describe) });
  }
  return report;
}

/**
 * Reaps what a crashed host left in `<home>/children`, then records every group `spawnChild` starts
 * until `scope` ends. Call it before anything spawns. Off Linux it does nothing.
 */
export async function recordChildGroups(scope: Scope, opts: { home: string; log?: Log; graceMs?: number }): Promise<ReapReport | undefined> {
  const log = opts.log ?? createLog("children");
  const groups = openChildGroups(join(opts.home, "children"), log);
  if (!groups) return undefined;
  const report = await reapOrphans(groups, { log, graceMs: opts.graceMs });
  scope.add(useChildGroups(groups), "children:record");
  return report;
}

const active: ChildGroups[] = [];

/**
 * Where `spawnChild` records the groups it starts: the most recently installed records, until their
 * disposer runs. One host per process is the real case; a second one in the same process (tests) takes
 * over for the children started after it.
 */
export function useChildGroups(groups: ChildGroups): Disposer {
  active.push(groups);
  return () => {
    const i = active.lastIndexOf(groups);
    if (i >= 0) active.splice(i, 1);
  };
}

export function currentChildGroups(): ChildGroups | undefined {
  return active.at(-1);
}

function ours(record: ChildGroupRecord): boolean {
  const leader = startTimeOf(record.pid);
  // The leader's pid is in use: by our leader, or (start time differs) by a process that is none of ours.
  if (leader !== undefined) return leader === record.startTime;
  // The leader is gone. While a group has members its id cannot be handed out as a new pid, but it may
  // have been reused before the group was re-formed by someone else: accept only members of the session
  // our detached leader opened, started no earlier than it.
  const members = groupMembers(record.pgid);
  return members.length > 0 && members.every((m) => m.session === record.pgid && Number(m.startTime) >= Number(record.startTime));
}

function hostIdentity(): Pick<ChildGroupRecord, "hostPid" | "hostStartTime" | "bootId"> | undefined {
  if (process.platform !== "linux") return undefined;
  const hostStartTime = startTimeOf(process.pid);
  const boot = bootId();
  return hostStartTime && boot ? { hostPid: process.pid, hostStartTime, bootId: boot } : undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function parseRecord(text: string | undefined): ChildGroupRecord | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = value as Partial<ChildGroupRecord> | null;
  const int = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && n > 0;
  const ticks = (s: unknown) => typeof s === "string" && /^\d+$/.test(s);
  if (!r || !int(r.pgid) || r.pid !== r.pgid || !int(r.hostPid) || !ticks(r.startTime) || !ticks(r.hostStartTime) || typeof r.bootId !== "string") return undefined;
  return { label: "", command: "", recordedAt: "", ...r } as ChildGroupRecord;
}

