import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { openChildGroups, reapOrphans, recordChildGroups, useChildGroups, type ChildGroupRecord, type ChildGroups } from "../../src/core/child-groups.js";
import type { Log } from "../../src/core/log.js";
import { deathSignalWrapper, spawnChild } from "../../src/core/process.js";
import { bootId, readStat, startTimeOf } from "../../src/core/process-group.js";
import { createScope } from "../../src/core/scope.js";
import { isRunning, killGroups } from "../support/process.js";

const linux = process.platform === "linux";
const HOST_DIR = fileURLToPath(new URL("../..", import.meta.url));
const SPAWNER = fileURLToPath(new URL("../fixture/host/spawner.ts", import.meta.url));

/** A child that exits when its stdin ends, so a scope stops it at once. */
const POLITE = ["-e", `process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`];

const groups = new Set<number>();
const dirs: string[] = [];
afterEach(() => {
  killGroups(groups);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "seam-groups-"));
  dirs.push(dir);
  return dir;
}

function quietLog(): Log & { lines: string[] } {
  const lines: string[] = [];
  const push = (message: string, data?: Record<string, unknown>) => lines.push(`${message} ${data ? JSON.stringify(data) : ""}`);
  return { lines, info: push, warn: push, error: push };
}

/** A process in its own group (optionally with a child, optionally ignoring SIGTERM), ready once it printed. */
async function group(opts: { child?: boolean; ignoreTerm?: boolean } = {}): Promise<{ leader: ChildProcess; pid: number; child?: number }> {
  const code = `
    ${opts.ignoreTerm ? `process.on("SIGTERM", () => {});` : ""}
    let child = "";
    if (${Boolean(opts.child)}) child = require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(`${opts.ignoreTerm ? `process.on("SIGTERM", () => {});` : ""} setInterval(() => {}, 1000)`)}], { stdio: "ignore" }).pid;
    console.log(String(child));
    setInterval(() => {}, 1000);`;
  const leader = spawn(process.execPath, ["-e", code], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
  groups.add(leader.pid!);
  const line = await firstLine(leader.stdout!);
  return { leader, pid: leader.pid!, child: line ? Number(line) : undefined };
}

function firstLine(stream: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`no line within 15 s: ${JSON.stringify(text)}`)), 15_000);
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      text += chunk;
      const i = text.indexOf("\n");
      if (i >= 0) {
        clearTimeout(timer);
        resolve(text.slice(0, i));
      }
    });
  });
}

/** Writes a record as a host other than this process would have (a dead one unless `host` says otherwise). */
function record(dir: string, pid: number, patch: Partial<ChildGroupRecord> = {}) {
  const r: ChildGroupRecord = {
    pgid: pid, pid, startTime: startTimeOf(pid)!, label: `test:${pid}`, command: "node",
    hostPid: 999_999_999, hostStartTime: "1", bootId: bootId()!, recordedAt: new Date().toISOString(), ...patch,
  };
  writeFileSync(join(dir, `${pid}.json`), JSON.stringify(r));
}

async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

describe.skipIf(!linux)("child group records (hardening #12 item 5)", () => {
  it("writes one 0600 file per group atomically, lists them, removes them, and skips unreadable files", () => {
    const dir = join(tempDir(), "children");
    const log = quietLog();
    const records = openChildGroups(dir, log)!;
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    records.add({ pgid: 4242, pid: 4242, startTime: "123", label: "mcp:x", command: "/bin/x" });
    expect(readdirSync(dir)).toEqual(["4242.json"]);
    expect(statSync(join(dir, "4242.json")).mode & 0o777).toBe(0o600);
    writeFileSync(join(dir, "77.json"), "{ half a rec");
    writeFileSync(join(dir, "notes.txt"), "ignored");
    expect(records.list()).toEqual([{
      pgid: 4242, pid: 4242, startTime: "123", label: "mcp:x", command: "/bin/x",
      hostPid: process.pid, hostStartTime: startTimeOf(process.pid), bootId: bootId(), recordedAt: expect.any(String),
    }]);
    expect(log.lines.join("\n")).toMatch(/unreadable process group record .*77\.json/);
    records.remove(4242);
    records.remove(4242);
    expect(records.list()).toEqual([]);
  });

  it("reaps a dead host's group (leader and its child) and drops the record", async () => {
    const dir = tempDir();
    const g = await group({ child: true });
    record(dir, g.pid);
    const log = quietLog();
    const report = await reapOrphans(openChildGroups(dir, log)!, { log });
    expect(report.reaped.map((r) => r.pgid)).toEqual([g.pid]);
    expect(await waitUntil(() => !isRunning(g.pid) && !isRunning(g.child!), 2_000)).toBe(true);
    expect(existsSync(join(dir, `${g.pid}.json`))).toBe(false);
    expect(log.lines.join("\n")).toMatch(/reaped 1 process group\(s\)/);
  });

  it("SIGKILLs a group that ignores SIGTERM after the grace period", async () => {
    const dir = tempDir();
    const g = await group({ child: true, ignoreTerm: true });
    record(dir, g.pid);
    const t0 = Date.now();
    const report = await reapOrphans(openChildGroups(dir, quietLog())!, { graceMs: 300, log: quietLog() });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    expect(report.reaped.map((r) => r.pgid)).toEqual([g.pid]);
    expect(isRunning(g.pid)).toBe(false);
    expect(isRunning(g.child!)).toBe(false);
  });

  it("reaps what is left of a group whose leader already exited", async () => {
    const dir = tempDir();
    const g = await group({ child: true });
    record(dir, g.pid);
    g.leader.kill("SIGKILL");
    await new Promise((resolve) => g.leader.once("exit", resolve));
    expect(isRunning(g.child!)).toBe(true);
    const report = await reapOrphans(openChildGroups(dir, quietLog())!, { log: quietLog() });
    expect(report.reaped.map((r) => r.pgid)).toEqual([g.pid]);
    expect(await waitUntil(() => !isRunning(g.child!), 2_000)).toBe(true);
  });

  it("never signals a pid that was reused (other start time) or a record from another boot; drops both records", async () => {
    const dir = tempDir();
    const reused = await group();
    const otherBoot = await group();
    record(dir, reused.pid, { startTime: String(Number(startTimeOf(reused.pid)) + 1) });
    record(dir, otherBoot.pid, { bootId: "00000000-0000-0000-0000-000000000000" });
    const report = await reapOrphans(openChildGroups(dir, quietLog())!, { graceMs: 200, log: quietLog() });
    expect(report.reaped).toEqual([]);
    expect(report.dropped.map((r) => r.pgid).sort()).toEqual([reused.pid, otherBoot.pid].sort());
    expect(isRunning(reused.pid)).toBe(true);
    expect(isRunning(otherBoot.pid)).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("leaves the groups of a host that is still running alone, and keeps their records", async () => {
    const dir = tempDir();
    const otherHost = await group();
    const g = await group({ child: true });
    record(dir, g.pid, { hostPid: otherHost.pid, hostStartTime: startTimeOf(otherHost.pid)! });
    const mine = await group();
    record(dir, mine.pid, { hostPid: process.pid, hostStartTime: startTimeOf(process.pid)! });
    const log = quietLog();
    const report = await reapOrphans(openChildGroups(dir, log)!, { graceMs: 200, log });
    expect(report.reaped).toEqual([]);
    expect(report.liveHost.map((r) => r.pgid).sort()).toEqual([g.pid, mine.pid].sort());
    expect(isRunning(g.pid)).toBe(true);
    expect(isRunning(g.child!)).toBe(true);
    expect(isRunning(mine.pid)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual([`${g.pid}.json`, `${mine.pid}.json`].sort());
    expect(log.lines.join("\n")).toMatch(new RegExp(`left 2 process group\\(s\\) alone: host pid ${otherHost.pid} is still running`));

    // Once that host is gone (its pid may even be reused: the start time no longer matches), its groups are orphans.
    otherHost.leader.kill("SIGKILL");
    await new Promise((resolve) => otherHost.leader.once("exit", resolve));
    const after = await reapOrphans(openChildGroups(dir, quietLog())!, { log: quietLog() });
    expect(after.reaped.map((r) => r.pgid)).toEqual([g.pid]);
    expect(isRunning(mine.pid)).toBe(true);
  });
});

describe.skipIf(!linux)("spawnChild records its groups (hardening #12 item 5)", () => {
  it("records a group while it runs and drops the record once it is gone", async () => {
    const dir = join(tempDir(), "children");
    const records: ChildGroups = openChildGroups(dir, quietLog())!;
    const stopRecording = useChildGroups(records);
    try {
      const scope = createScope("test");
      const child = spawnChild(scope, { label: "recorded", command: process.execPath, args: POLITE });
      groups.add(child.pid);
      expect(records.list()).toEqual([expect.objectContaining({
        pgid: child.pid, pid: child.pid, startTime: startTimeOf(child.pid), label: "recorded", command: process.execPath, hostPid: process.pid,
      })]);
      await scope.dispose();
      expect(records.list()).toEqual([]);

      // A child that exits by itself is forgotten too.
      await using short = createScope("test");
      const quick = spawnChild(short, { label: "quick", command: process.execPath, args: ["-e", ""] });
      await quick.exited;
      expect(records.list()).toEqual([]);
    } finally {
      stopRecording();
    }
    // After the records are uninstalled, nothing is recorded.
    await using scope = createScope("test");
    const child = spawnChild(scope, { label: "unrecorded", command: process.execPath, args: POLITE });
    groups.add(child.pid);
    expect(records.list()).toEqual([]);
  });

  it("recordChildGroups reaps first, then records until its scope ends", async () => {
    const home = tempDir();
    const dir = join(home, "children");
    const orphan = await group();
    openChildGroups(dir, quietLog());
    record(dir, orphan.pid);
    const scope = createScope("test");
    const report = await recordChildGroups(scope.child("children"), { home, log: quietLog() });
    expect(report?.reaped.map((r) => r.pgid)).toEqual([orphan.pid]);
    expect(await waitUntil(() => !isRunning(orphan.pid), 2_000)).toBe(true);
    const child = spawnChild(scope.child("work"), { label: "after", command: process.execPath, args: POLITE });
    groups.add(child.pid);
    expect(readdirSync(dir)).toEqual([`${child.pid}.json`]);
    await scope.dispose();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe.skipIf(!deathSignalWrapper())("spawnChild: children die with the host (PR_SET_PDEATHSIG via setpriv)", { timeout: 60_000 }, () => {
  const startSpawner = async (mode: "on" | "off") => {
    const spawner = spawn(process.execPath, ["--import", "tsx", SPAWNER, mode], { cwd: HOST_DIR, detached: true, stdio: ["ignore", "pipe", "inherit"] });
    groups.add(spawner.pid!);
    const child = Number(await firstLine(spawner.stdout!));
    groups.add(child);
    return { spawner, child };
  };

  it("runs the command itself behind the wrapper: same pid, same argv, its own group", async () => {
    await using scope = createScope("test");
    const child = spawnChild(scope, { label: "argv", command: process.execPath, args: ["-e", `console.log(JSON.stringify(process.argv.slice(1))); ${POLITE[1]}`, "a b"] });
    groups.add(child.pid);
    expect(await firstLine(child.stdout)).toBe(JSON.stringify(["a b"]));
    expect(readFileSync(`/proc/${child.pid}/status`, "utf8")).toMatch(/^Name:\s+node$/m);
    expect(readStat(child.pid)).toMatchObject({ pgrp: child.pid, session: child.pid });
  });

  it("kills the child when its host is killed with SIGKILL", async () => {
    const { spawner, child } = await startSpawner("on");
    expect(isRunning(child)).toBe(true);
    spawner.kill("SIGKILL");
    expect(await waitUntil(() => !isRunning(child), 3_000)).toBe(true);
  });

  it("leaves the child running when dieWithHost is false", async () => {
    const { spawner, child } = await startSpawner("off");
    spawner.kill("SIGKILL");
    await new Promise((resolve) => spawner.once("exit", resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isRunning(child)).toBe(true);
  });
});
