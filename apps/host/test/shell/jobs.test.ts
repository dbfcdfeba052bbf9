/** Background jobs (CODE-3): job_output, job_kill, the 8-job limit, the jobs API and killSessionJobs. */
import { afterEach, describe, expect, it } from "vitest";
import { createScope } from "../../src/core/scope.js";
import type { BashStarted, JobResult } from "../../src/shell/shell.js";
import { cleanDirs, marker, OFF, rig, survivors, waitFor } from "./helpers.js";

afterEach(cleanDirs);
const linux = process.platform === "linux";

describe.skipIf(!linux)("background jobs (CODE-3)", { timeout: 30_000 }, () => {
  it("CODE-3: background returns a job id at once; job_output returns only the new output and the state", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const m = marker();
    const started = Date.now();
    const out = await r.call("bash", { command: `echo one; while [ ! -e go ]; do sleep 0.02; done; echo two; sleep ${m}`, background: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    const { jobId } = out.canonical as BashStarted;
    expect(jobId).toMatch(/^job_\d+$/);
    expect(out.rendered).toContain(`job_output({"job_id": "${jobId}"})`);

    await waitFor("one is written", async () => (await r.shell.api.jobs.output("s1", jobId)).output.includes("one"));
    const first = await r.call("job_output", { job_id: jobId });
    expect((first.canonical as JobResult).output).toBe("one\n");
    expect(first.rendered).toMatch(new RegExp(`^${jobId} \\(.*\\): running for [\\d.]+ m?s\\.\\none$`));

    const empty = await r.call("job_output", { job_id: jobId });
    expect((empty.canonical as JobResult).output).toBe("");
    expect(empty.rendered).toContain("(no new output since the last job_output)");

    await r.call("bash", { command: "touch go" });
    await waitFor("two is written", async () => (await r.shell.api.jobs.output("s1", jobId)).output.includes("two"));
    const second = await r.call("job_output", { job_id: jobId });
    expect((second.canonical as JobResult).output).toBe("two\n");

    const killed = await r.call("job_kill", { job_id: jobId });
    expect((killed.canonical as JobResult).job).toMatchObject({ id: jobId, state: "killed", signal: "SIGTERM" });
    expect(killed.rendered).toMatch(/was killed \(SIGTERM\) after .*; its process group is gone\.\nLast output:\n\(no new output/);
    expect(survivors(m)).toEqual([]);

    const after = await r.call("job_output", { job_id: jobId });
    expect(after.rendered).toMatch(/was killed \(SIGTERM\)/);
  });

  it("CODE-3: a job that exits on its own reports its exit code; job_kill on it changes nothing", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const { jobId } = (await r.call("bash", { command: "echo bye; exit 4", background: true })).canonical as BashStarted;
    await waitFor("the job exits", async () => (await r.shell.api.jobs.list("s1"))[0]?.state === "exited");
    const out = await r.call("job_output", { job_id: jobId });
    expect(out.rendered).toMatch(/exited with code 4 after .*\nbye$/);
    expect((await r.shell.api.jobs.list("s1"))[0]).toMatchObject({ id: jobId, sessionId: "s1", state: "exited", exitCode: 4, signal: null, endedAt: expect.any(String) });
    const kill = await r.call("job_kill", { job_id: jobId });
    expect(kill.rendered).toMatch(/had already finished: exited with code 4.*Nothing was killed/);
  });

  it("CODE-3: an unknown id or another session's job is job_not_found", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const { jobId } = (await r.call("bash", { command: `sleep ${marker()}`, background: true })).canonical as BashStarted;
    await expect(r.call("job_output", { job_id: "job_999" })).rejects.toMatchObject({ data: { reason: "job_not_found" }, message: expect.stringContaining(jobId) });
    await expect(r.call("job_output", { job_id: jobId }, { sessionId: "s2" })).rejects.toMatchObject({ data: { reason: "job_not_found" } });
    await expect(r.call("job_kill", { job_id: jobId }, { sessionId: "s2" })).rejects.toMatchObject({ data: { reason: "job_not_found" } });
    await expect(r.shell.api.jobs.kill("s2", jobId)).rejects.toMatchObject({ code: "not_found:shell" });
    expect((await r.shell.api.jobs.list("s1"))[0]!.state).toBe("running");
    expect(r.registry.get("job_output")!.parse({ job_id: "" })).toMatchObject({ ok: false });
  });

  it("CODE-3: at most 8 jobs run per session; too_many_jobs says to kill one; other sessions are not affected", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const m = marker();
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push(((await r.call("bash", { command: `sleep ${m}`, background: true })).canonical as BashStarted).jobId);
    await expect(r.call("bash", { command: `sleep ${m}`, background: true })).rejects.toMatchObject({
      data: { reason: "too_many_jobs" }, message: expect.stringMatching(/already runs 8 background jobs.*job_kill/),
    });
    await waitFor("eight sleepers", () => survivors(m).length === 8);
    const other = await r.call("bash", { command: "true", background: true }, { sessionId: "s2" });
    expect((other.canonical as BashStarted).jobId).toMatch(/^job_/);
    await r.call("job_kill", { job_id: ids[0] });
    const ninth = await r.call("bash", { command: `sleep ${m}`, background: true });
    expect((ninth.canonical as BashStarted).jobId).toMatch(/^job_/);
    await r.shell.killSessionJobs("s1");
    expect(survivors(m)).toEqual([]);
  });

  it("CODE-3: killSessionJobs stops every job of the session and forgets them; the jobs API lists, kills and notifies", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const events: string[] = [];
    const off = r.shell.onChange((sessionId) => events.push(sessionId));
    const m = marker();
    const a = ((await r.call("bash", { command: `sleep ${m} & bash -c 'sleep ${m}; :' & wait`, background: true })).canonical as BashStarted).jobId;
    await r.call("bash", { command: `sleep ${m}`, background: true });
    const keep = marker();
    await r.call("bash", { command: `sleep ${keep}`, background: true }, { sessionId: "s2" });
    await waitFor("all run", () => survivors(m).length >= 5 && survivors(keep).length >= 1);
    const list = await r.shell.api.jobs.list("s1");
    expect(list.map((j) => j.state)).toEqual(["running", "running"]);
    expect(list[0]).toMatchObject({ id: a, sessionId: "s1", command: expect.stringContaining("wait"), startedAt: expect.any(String), exitCode: null, signal: null, endedAt: null });

    const killed = await r.shell.api.jobs.kill("s1", a);
    expect(killed).toMatchObject({ id: a, state: "killed" });
    await r.shell.killSessionJobs("s1");
    expect(survivors(m)).toEqual([]);
    expect(survivors(keep).length).toBeGreaterThanOrEqual(1);
    expect(await r.shell.api.jobs.list("s1")).toEqual([]);
    expect(events.filter((s) => s === "s1").length).toBeGreaterThanOrEqual(4);
    expect(events).toContain("s2");
    off();
  });

  it("CODE-3: jobs die with the capability's scope (host shutdown)", async () => {
    const scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const m = marker();
    await r.call("bash", { command: `sleep ${m} & bash -c 'sleep ${m}; :' & wait`, background: true });
    await waitFor("the job runs", () => survivors(m).length >= 4);
    const started = Date.now();
    await scope.dispose();
    expect(survivors(m)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
