/**
 * A host killed with SIGKILL cannot stop its children; the next host on the same data directory reaps them
 * (hardening #12 item 5). Real processes throughout: a host in its own process (test/fixture/host/driver.ts),
 * an MCP stdio server that ignores the end of stdin and SIGTERM and has a child of its own
 * (test/fixture/mcp/stubborn-server.mjs), and /proc to tell who is alive.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerConfigInput } from "@seam/shared";
import { afterEach, describe, expect, it } from "vitest";
import { isRunning, killGroups } from "../support/process.js";

const HOST_DIR = fileURLToPath(new URL("../..", import.meta.url));
const DRIVER = fileURLToPath(new URL("../fixture/host/driver.ts", import.meta.url));
const STUBBORN = fileURLToPath(new URL("../fixture/mcp/stubborn-server.mjs", import.meta.url));
const linux = process.platform === "linux";

/** Process groups and temp dirs this file started, killed and removed after each test. */
const groups = new Set<number>();
const dirs: string[] = [];
const hosts: ChildProcess[] = [];
afterEach(() => {
  for (const host of hosts.splice(0)) if (host.pid) groups.add(host.pid);
  for (const dir of dirs) for (const s of servers(join(dir, "pids"))) groups.add(s.pid);
  killGroups(groups);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): { home: string; pids: string } {
  const dir = mkdtempSync(join(tmpdir(), "seam-orphans-"));
  dirs.push(dir);
  const pids = join(dir, "pids");
  mkdirSync(pids);
  return { home: join(dir, "home"), pids };
}

/** The stubborn server as an MCP config; it reports `{ pid, child }` into `pids`. */
const stubborn = (pids: string): McpServerConfigInput => ({
  name: "stubborn",
  transport: { type: "stdio", command: process.execPath, args: [STUBBORN], env: { FIXTURE_PID_DIR: { value: pids }, FIXTURE_IGNORE_TERM: { value: "1" } } },
  failOnStartupError: true,
});

function servers(pids: string): { pid: number; child: number }[] {
  if (!existsSync(pids)) return [];
  return readdirSync(pids).filter((n) => n.endsWith(".json")).map((n) => JSON.parse(readFileSync(join(pids, n), "utf8")) as { pid: number; child: number });
}

type Host = { proc: ChildProcess; stderr: () => string; exited: Promise<void>; ready: boolean };
const START_MS = 45_000;

/**
 * Starts a host process on `home` and resolves once it printed its ready line (bounded). With
 * `mayFail`, a host that exits before it is ready resolves too (`ready: false`).
 */
async function startHost(home: string, server?: McpServerConfigInput, mayFail = false): Promise<Host> {
  const proc = spawn(process.execPath, ["--import", "tsx", DRIVER, home, ...(server ? [JSON.stringify(server)] : [])], {
    cwd: HOST_DIR, detached: true, stdio: ["ignore", "pipe", "pipe"],
  });
  hosts.push(proc);
  let stderr = "";
  let stdout = "";
  proc.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const ready = await new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start within ${START_MS} ms; stderr:\n${stderr}`)), START_MS);
    proc.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('"ready":true')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    proc.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (mayFail) resolve(false);
      else reject(new Error(`host exited (${code ?? signal}) before it was ready; stderr:\n${stderr}`));
    });
  });
  return { proc, stderr: () => stderr, exited, ready };
}

async function waitFor(what: string, done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot. */
function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
}

function groupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

describe.skipIf(!linux)("orphans after a host crash (hardening #12 item 5)", { timeout: 150_000 }, () => {
  it("a restarted host reaps the MCP server a killed host left running, and the server's child, but not a pid that was reused", async () => {
    const { home, pids } = tempDir();
    const first = await startHost(home, stubborn(pids));
    const [server] = servers(pids);
    expect(server).toBeDefined();
    const { pid, child } = server!;
    groups.add(pid);
    // The server leads its own process group, and its child is in it.
    expect(groupOf(pid)).toBe(pid);
    expect(groupOf(child)).toBe(pid);

    // A live process of ours whose pid the record claims, but with another start time: a reused pid.
    const bystander = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore" });
    groups.add(bystander.pid!);
    mkdirSync(join(home, "children"), { recursive: true });
    writeFileSync(join(home, "children", `${bystander.pid}.json`), JSON.stringify({
      pgid: bystander.pid, pid: bystander.pid, startTime: String(Number(startTime(bystander.pid!)) - 1), label: "mcp:ghost", command: "ghost",
      hostPid: first.proc.pid, hostStartTime: startTime(first.proc.pid!), bootId: readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(), recordedAt: new Date().toISOString(),
    }));

    first.proc.kill("SIGKILL");
    await first.exited;
    // Today's bug: the server's group outlives its host (the child at least; the leader too without PDEATHSIG).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isRunning(child)).toBe(true);

    const second = await startHost(home);
    await waitFor("the orphaned server and its child are gone", () => !isRunning(pid) && !isRunning(child), 5_000);
    expect(isRunning(bystander.pid!)).toBe(true);
    expect(existsSync(join(home, "children", `${bystander.pid}.json`))).toBe(false);
    expect(existsSync(join(home, "children", `${pid}.json`))).toBe(false);
    expect(second.stderr()).toMatch(/reaped 1 process group\(s\).*"pgid":\d+,"label":"mcp:stubborn"/);

    // The second host started the saved server again and recorded its group.
    await waitFor("the restarted server reported", () => servers(pids).length === 2, 15_000);
    const restarted = servers(pids).find((s) => s.pid !== pid)!;
    groups.add(restarted.pid);
    const record = JSON.parse(readFileSync(join(home, "children", `${restarted.pid}.json`), "utf8")) as Record<string, unknown>;
    expect(record).toMatchObject({ pgid: restarted.pid, pid: restarted.pid, startTime: startTime(restarted.pid), label: "mcp:stubborn", hostPid: second.proc.pid });

    // A clean shutdown stops the group and drops its record.
    second.proc.kill("SIGTERM");
    await Promise.race([second.exited, new Promise((_, reject) => setTimeout(() => reject(new Error("host did not shut down within 15 s")), 15_000))]);
    expect(isRunning(restarted.pid)).toBe(false);
    expect(isRunning(restarted.child)).toBe(false);
    expect(existsSync(join(home, "children", `${restarted.pid}.json`))).toBe(false);
  });

  it("leaves the children of another host that is still running on the same data directory alone", async () => {
    const { home, pids } = tempDir();
    const first = await startHost(home, stubborn(pids));
    const [server] = servers(pids);
    groups.add(server!.pid);

    // The second host reaps before it opens the database. Today SQLite may refuse it a second migration run
    // while the first host holds the database, so it may fail to start after that; either way it must
    // leave the first host's children alone.
    const second = await startHost(home, undefined, true);
    if (second.ready) {
      // It starts the saved server too; wait for that so a late reap would have happened by now.
      await waitFor("the second host's server reported", () => servers(pids).length === 2, 15_000);
    }
    for (const s of servers(pids)) groups.add(s.pid);
    expect(second.stderr()).toMatch(new RegExp(`left 1 process group\\(s\\) alone: host pid ${first.proc.pid} is still running`));
    expect(second.stderr()).not.toMatch(/reaped/);
    expect(isRunning(server!.pid)).toBe(true);
    expect(isRunning(server!.child)).toBe(true);
    expect(existsSync(join(home, "children", `${server!.pid}.json`))).toBe(true);
  });
});
