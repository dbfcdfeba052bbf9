/**
 * Background jobs die with the host (CODE-3): a stand-in host process (test/fixture/shell/job-host.ts) starts a
 * job whose grandchildren carry a unique marker, then is stopped with SIGTERM or killed with SIGKILL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { openChildGroups, reapOrphans } from "../../src/core/child-groups.js";
import { isRunning, killGroups } from "../support/process.js";
import { cleanDirs, hasBwrap, marker, quietLog, survivors, tempDir, waitFor } from "./helpers.js";

const HOST_DIR = fileURLToPath(new URL("../..", import.meta.url));
const JOB_HOST = fileURLToPath(new URL("../fixture/shell/job-host.ts", import.meta.url));
const linux = process.platform === "linux";

const groups = new Set<number>();
afterEach(() => {
  killGroups(groups);
  cleanDirs();
});

async function startHost(sandbox: string, m: string): Promise<{ proc: ChildProcess; jobPid: number; home: string; exited: Promise<void> }> {
  const home = join(tempDir(), "home");
  mkdirSync(home);
  const workspace = tempDir("seam-ws-");
  const command = `sleep ${m} & bash -c 'sleep ${m}; :' & wait`;
  const proc = spawn(process.execPath, ["--import", "tsx", JOB_HOST, home, workspace, sandbox, command], { cwd: HOST_DIR, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  groups.add(proc.pid!);
  let stderr = "";
  proc.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const jobPid = await new Promise<number>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => reject(new Error(`the job host did not start within 30 s; stderr:\n${stderr}`)), 30_000);
    proc.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const line = stdout.split("\n").find((l) => l.includes('"ready":true'));
      if (!line) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { jobPid: number }).jobPid);
    });
    proc.once("exit", (code, signal) => reject(new Error(`the job host exited (${code ?? signal}); stderr:\n${stderr}`)));
  });
  groups.add(jobPid);
  await waitFor("the job's processes run", () => survivors(m).length >= 4);
  return { proc, jobPid, home, exited };
}

describe.skipIf(!linux)("jobs die with the host (CODE-3)", { timeout: 60_000 }, () => {
  it("CODE-3: a host stopped with SIGTERM stops its background jobs, grandchildren included", async () => {
    const m = marker();
    const host = await startHost("off", m);
    host.proc.kill("SIGTERM");
    await host.exited;
    expect(survivors(m)).toEqual([]);
  });

  it("CODE-3: after SIGKILL the job's leader dies with the host (PDEATHSIG) and the next start reaps the rest of its group", async () => {
    const m = marker();
    const host = await startHost("off", m);
    host.proc.kill("SIGKILL");
    await host.exited;
    await waitFor("the job's leader is gone", () => !isRunning(host.jobPid), 3_000);
    // What bash started is still there until a host on the same data directory starts.
    expect(survivors(m).length).toBeGreaterThan(0);
    const records = openChildGroups(join(host.home, "children"), quietLog())!;
    expect(records.list().map((r) => r.pgid)).toContain(host.jobPid);
    const report = await reapOrphans(records, { log: quietLog(), graceMs: 1_000 });
    expect(report.reaped.map((r) => r.pgid)).toContain(host.jobPid);
    expect(survivors(m)).toEqual([]);
  });

  it.skipIf(!hasBwrap)("CODE-3/CODE-4: after SIGKILL a sandboxed job dies whole at once (its pid namespace goes with bwrap)", async () => {
    const m = marker();
    const host = await startHost("workspace-write", m);
    host.proc.kill("SIGKILL");
    await host.exited;
    await waitFor("every process of the job is gone", () => survivors(m).length === 0, 3_000);
    expect(isRunning(host.jobPid)).toBe(false);
  });
});
