import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
/** bash (CODE-3), unsandboxed: real processes in temp workspaces; survivors are looked for in /proc. */
import { afterEach, describe, expect, it } from "vitest";
import { createToolRuntime } from "../../src/agent/runtime.js";
import { createScope } from "../../src/core/scope.js";
import type { BashResult } from "../../src/shell/shell.js";
import { cleanDirs, marker, OFF, rig, survivors, waitFor } from "./helpers.js";

afterEach(cleanDirs);
const linux = process.platform === "linux";

describe.skipIf(!linux)("bash (CODE-3)", { timeout: 30_000 }, () => {
  it("CODE-3: reports the exit code, runs in the workspace and says how long it took", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const out = await r.call("bash", { command: "pwd; exit 3" });
    const c = out.canonical as BashResult;
    expect(c).toMatchObject({ exitCode: 3, signal: null, timedOut: false, cwd: r.workspace, output: `${r.workspace}\n`, truncated: false, sandbox: { mode: "off" } });
    expect(out.rendered).toMatch(/^Exit code 3 · \d+ ms\n/);
    expect(out.error).toBeUndefined();
  });

  it("CODE-3: reports a command killed by a signal", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const out = await r.call("bash", { command: "kill -TERM $$" });
    expect(out.canonical).toMatchObject({ exitCode: null, signal: "SIGTERM" });
    expect(out.rendered).toMatch(/^Killed by signal SIGTERM/);
    expect(out.rendered).toContain("(no output)");
  });

  it("CODE-3: interleaves stdout and stderr in the order they were written, and streams them live", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const out = await r.call("bash", { command: "echo a; echo b >&2; echo c; echo d >&2" });
    expect((out.canonical as BashResult).output).toBe("a\nb\nc\nd\n");
    expect(out.live).toBe("a\nb\nc\nd\n");
  });

  it("CODE-3: decodes UTF-8 split across chunks", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const out = await r.call("bash", { command: "printf '\\xc3'; sleep 0.1; printf '\\xa9\\n'" });
    expect((out.canonical as BashResult).output).toBe("é\n");
    expect(out.live).toBe("é\n");
  });

  it("CODE-3: stdin is closed — cat sees end-of-file and read fails at once", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const started = Date.now();
    const cat = await r.call("bash", { command: "cat; echo cat-done" });
    expect((cat.canonical as BashResult).output).toBe("cat-done\n");
    const read = await r.call("bash", { command: "read x; echo \"read=$?\"" });
    expect((read.canonical as BashResult).output).toBe("read=1\n");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("CODE-3: bash runs as a plain command, never sourcing the user's ~/.bashrc (stdin is not a socket)", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const home = mkdtempSync(join(tmpdir(), "seam-bashrc-"));
    writeFileSync(join(home, ".bashrc"), "echo BASHRC-WAS-SOURCED\n");
    const saved = { HOME: process.env.HOME, SHLVL: process.env.SHLVL };
    // A host started from a service (SHLVL unset) is where bash's "started by sshd" guess used to fire.
    process.env.HOME = home;
    delete process.env.SHLVL;
    try {
      const out = await r.call("bash", { command: "echo plain; [ -t 0 ] || [ -S /dev/stdin ] || echo stdin-not-a-socket" });
      expect((out.canonical as BashResult).output).toBe("plain\nstdin-not-a-socket\n");
    } finally {
      process.env.HOME = saved.HOME;
      if (saved.SHLVL === undefined) delete process.env.SHLVL;
      else process.env.SHLVL = saved.SHLVL;
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("CODE-3: a timeout kills the whole process group (grandchildren too) and returns the output so far as a timeout error", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const m = marker();
    const out = await r.call("bash", { command: `echo started; sleep ${m} & bash -c 'sleep ${m}; :' & wait`, timeout_ms: 800 });
    expect(out.error).toMatchObject({ code: "timeout" });
    expect((out.canonical as BashResult).timedOut).toBe(true);
    expect(out.rendered).toMatch(/^Error \[timeout\]: The command did not finish within 800 ms/);
    expect(out.rendered).toContain("started");
    expect(survivors(m)).toEqual([]);
  });

  it("CODE-3: the tool's own timeout wins over the runtime's backstop, through the runtime", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    expect(r.registry.get("bash")!.timeoutMs).toBeGreaterThan(600_000);
    const runtime = createToolRuntime({ registry: r.registry });
    const outcome = await runtime.invoke({ sessionId: "s1", workspace: r.workspace, callId: "c1", name: "bash", args: { command: "echo so-far; sleep 30", timeout_ms: 500 }, signal: new AbortController().signal });
    expect(outcome.status).toBe("error");
    expect(outcome.error?.code).toBe("timeout");
    expect(outcome.rendered).toContain("so-far");
  });

  it("CODE-3: aborting the call (stop) kills the process group", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const m = marker();
    const abort = new AbortController();
    const call = r.call("bash", { command: `sleep ${m} & bash -c 'sleep ${m}; :' & wait` }, { signal: abort.signal });
    await waitFor("the command runs", () => survivors(m).length >= 2);
    abort.abort();
    const out = await call;
    expect(out.canonical).toMatchObject({ timedOut: false, signal: "SIGTERM" });
    expect(out.rendered).toMatch(/stopped \(cancelled\)/);
    expect(survivors(m)).toEqual([]);
  });

  it("CODE-3: whatever a command leaves running in the background is stopped when it exits", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const m = marker();
    const out = await r.call("bash", { command: `sleep ${m} & echo left` });
    expect(out.canonical).toMatchObject({ exitCode: 0, output: "left\n" });
    await waitFor("the leftover is gone", () => survivors(m).length === 0, 5_000);
  });

  it("CODE-3: a long output is elided in the middle for the model, with the number of lines and bytes cut; the canonical output is whole", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const out = await r.call("bash", { command: "seq 1 200000" });
    const c = out.canonical as BashResult;
    expect(c.output.length).toBe(1_288_895);
    expect(c.outputBytes).toBe(1_288_895);
    expect(c.truncated).toBe(false);
    const lines = out.rendered.split("\n");
    expect(lines.length).toBeLessThanOrEqual(403);
    expect(out.rendered.length).toBeLessThan(31_000);
    expect(lines[1]).toBe("1");
    expect(lines.at(-1)).toBe("200000");
    expect(out.rendered).toMatch(/\[… 199,600 line\(s\), 1\.2 MB, elided from the middle of the output …\]/);
  });

  it("CODE-3: the kept output is bounded (head and tail) with a marker where the middle was dropped", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF, deps: { limits: { outputLimit: 10_000 } } });
    const out = await r.call("bash", { command: "seq 1 100000" });
    const c = out.canonical as BashResult;
    expect(c.truncated).toBe(true);
    expect(c.outputBytes).toBe(588_895);
    expect(c.output.startsWith("1\n2\n")).toBe(true);
    expect(c.output.endsWith("99999\n100000\n")).toBe(true);
    expect(c.output).toMatch(/characters of output were not kept here/);
    expect(c.output.length).toBeLessThan(10_200);
  });

  it("CODE-3: refuses bad arguments with a clear message, and a missing workspace with spawn_failed", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const bash = r.registry.get("bash")!;
    const tooLong = bash.parse({ command: "true", timeout_ms: 600_001 });
    expect(tooLong).toMatchObject({ ok: false });
    expect(!tooLong.ok && tooLong.message).toMatch(/timeout_ms/);
    expect(bash.parse({ command: "   " })).toMatchObject({ ok: false, message: expect.stringMatching(/empty/) });
    expect(bash.parse({})).toMatchObject({ ok: false });
    await expect(r.call("bash", { command: "true" }, { workspace: `${r.workspace}/missing` })).rejects.toMatchObject({ data: { reason: "spawn_failed" } });
  });

  it("CODE-3: declares the execute effect and a description", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    expect(r.registry.get("bash")).toMatchObject({ effect: "execute", capability: "shell" });
    expect(r.registry.get("job_output")!.effect).toBe("read");
    expect(r.registry.get("job_kill")!.effect).toBe("read");
    expect(r.registry.get("bash")!.description).toMatch(/background: true/);
  });

  it("CODE-3: disposing the capability kills a running command", async () => {
    const scope = createScope("test");
    const r = await rig(scope, { settings: OFF });
    const m = marker();
    const call = r.call("bash", { command: `sleep ${m}` });
    await waitFor("the command runs", () => survivors(m).length === 1);
    await scope.dispose();
    const out = await call;
    expect(out.rendered).toMatch(/stopped \(shutdown\)/);
    expect(survivors(m)).toEqual([]);
  });
});
