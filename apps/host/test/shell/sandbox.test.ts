/** The bubblewrap sandbox (CODE-4): real bwrap runs; "unavailable" is simulated with a missing or failing bwrap path. */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createScope } from "../../src/core/scope.js";
import type { BashResult } from "../../src/shell/shell.js";
import { cleanDirs, hasBwrap, marker, OFF, rig, survivors, tempDir } from "./helpers.js";

afterEach(cleanDirs);
const WRITE = { sandbox: "workspace-write", network: true } as const;
const output = (r: { canonical: unknown }) => (r.canonical as BashResult).output;

function secretHome(): string {
  const home = join(tempDir(), "seam-home");
  mkdirSync(home);
  writeFileSync(join(home, "secrets.json"), '{"OPENAI_API_KEY":"sk-very-secret"}', { mode: 0o600 });
  writeFileSync(join(home, "seam.db"), "database");
  return home;
}

async function loopback(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => res.end("hello from loopback"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe.skipIf(!hasBwrap)("sandbox with bwrap (CODE-4)", { timeout: 30_000 }, () => {
  it("CODE-4: workspace-write writes inside the workspace only; / is read-only; /tmp is private", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: WRITE });
    // Not under /tmp: there the sandbox's private /tmp would take the write.
    const outside = `/var/tmp/seam-outside-${process.pid}.txt`;
    const out = await r.call("bash", { command: `echo hi > inside.txt && echo ok-inside; (echo x > ${outside}) 2>&1 | grep -q 'Read-only' && echo refused-outside; touch /usr/seam-test 2>&1 | grep -q 'Read-only' && echo refused-usr; echo t > /tmp/private-${process.pid} && echo ok-tmp` });
    expect(output(out)).toBe("ok-inside\nrefused-outside\nrefused-usr\nok-tmp\n");
    expect(output(out)).not.toContain("Permission");
    expect(readFileSync(join(r.workspace, "inside.txt"), "utf8")).toBe("hi\n");
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(`/tmp/private-${process.pid}`)).toBe(false);
    expect(out.rendered).toMatch(/sandbox workspace-write, network on/);
    expect(out.canonical).toMatchObject({ sandbox: { mode: "workspace-write", network: true } });
  });

  it("CODE-4: the data directory and the secrets file cannot be read", async () => {
    await using scope = createScope("test");
    const home = secretHome();
    const outsideSecrets = join(tempDir(), "other-secrets.json");
    writeFileSync(outsideSecrets, "sk-other-secret");
    const r = await rig(scope, { settings: WRITE, home, deps: { secretsFile: outsideSecrets } });
    const out = await r.call("bash", { command: `ls -A ${home} | wc -l; cat ${home}/secrets.json; cat ${home}/seam.db; cat ${outsideSecrets}; echo end` });
    expect(output(out)).not.toContain("sk-very-secret");
    expect(output(out)).not.toContain("database");
    expect(output(out)).not.toContain("sk-other-secret");
    expect(output(out)).toMatch(/^0\n[\s\S]*No such file[\s\S]*end\n$/);
    // Unsandboxed the same command does read them (the test is meaningful).
    await r.shell.api.settings.set(OFF);
    expect(output(await r.call("bash", { command: `cat ${home}/secrets.json` }))).toContain("sk-very-secret");
  });

  it("CODE-4: a workspace inside the data directory works and the rest of it stays hidden; the data directory itself as workspace is refused", async () => {
    await using scope = createScope("test");
    const home = secretHome();
    const workspace = join(home, "workspaces", "w1");
    mkdirSync(workspace, { recursive: true });
    const r = await rig(scope, { settings: WRITE, home, workspace });
    const out = await r.call("bash", { command: `echo ok > f && cat f; cat ${home}/secrets.json; ls -A ${home}` });
    expect(output(out)).toMatch(/^ok\n.*No such file.*\nworkspaces\n$/s);
    expect(output(out)).not.toContain("sk-very-secret");
    await expect(r.call("bash", { command: "true" }, { workspace: home })).rejects.toMatchObject({ data: { reason: "workspace_is_data_dir" } });
  });

  it("CODE-4: a data directory inside the workspace is hidden after the workspace is bound", async () => {
    await using scope = createScope("test");
    const workspace = tempDir("seam-ws-");
    const home = join(workspace, ".seam");
    mkdirSync(home);
    writeFileSync(join(home, "secrets.json"), "sk-very-secret");
    const r = await rig(scope, { settings: WRITE, home, workspace });
    const out = await r.call("bash", { command: "echo ok > f && cat f; cat .seam/secrets.json; ls -A .seam | wc -l" });
    expect(output(out)).toMatch(/^ok\n.*No such file.*\n0\n$/s);
  });

  it("CODE-4: read-only cannot write the workspace either", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: { sandbox: "read-only", network: true } });
    writeFileSync(join(r.workspace, "existing.txt"), "keep");
    const out = await r.call("bash", { command: "cat existing.txt; echo; echo x > new.txt || echo refused; echo y >> existing.txt || echo refused" });
    expect(output(out)).toMatch(/^keep\n.*Read-only file system\nrefused\n.*Read-only file system\nrefused\n$/s);
    expect(existsSync(join(r.workspace, "new.txt"))).toBe(false);
    expect(readFileSync(join(r.workspace, "existing.txt"), "utf8")).toBe("keep");
  });

  it("CODE-4: with the network off a loopback server cannot be reached; with it on it can", async () => {
    await using scope = createScope("test");
    const { server, port } = await loopback();
    try {
      const r = await rig(scope, { settings: { sandbox: "workspace-write", network: false } });
      const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && tail -1 <&3 || echo unreachable`;
      const off = await r.call("bash", { command: probe });
      expect(output(off)).toMatch(/unreachable\n$/);
      expect(off.rendered).toMatch(/network off/);
      await r.shell.api.settings.set({ sandbox: "workspace-write", network: true });
      expect(output(await r.call("bash", { command: probe }))).toBe("hello from loopback");
    } finally {
      server.close();
    }
  });

  it("CODE-4/CODE-3: a sandboxed timeout and job_kill leave nothing behind; exit codes come through", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: WRITE });
    expect(output(await r.call("bash", { command: "echo a; echo b >&2; exit 5" }))).toBe("a\nb\n");
    expect((await r.call("bash", { command: "exit 5" })).canonical).toMatchObject({ exitCode: 5 });
    const m = marker();
    const out = await r.call("bash", { command: `sleep ${m} & bash -c 'sleep ${m}; :' & wait`, timeout_ms: 500 });
    expect(out.error?.code).toBe("timeout");
    expect(survivors(m)).toEqual([]);
    const job = await r.call("bash", { command: `sleep ${m} & wait`, background: true });
    const id = (job.canonical as { jobId: string }).jobId;
    await r.call("job_kill", { job_id: id });
    expect(survivors(m)).toEqual([]);
  });

  it("CODE-4: defaults to workspace-write with the network on where bwrap works, and stores it at first start", async () => {
    await using scope = createScope("test");
    const r = await rig(scope);
    expect(r.settings.values.get("shell")).toEqual(WRITE);
    const view = await r.shell.api.settings.get();
    expect(view).toMatchObject({ settings: WRITE, source: "saved", availability: { available: true, reason: null, version: expect.stringMatching(/^bubblewrap /) } });
    expect(r.shell.status()).toMatchObject({ id: "shell", ready: true, note: expect.stringContaining("workspace-write sandbox, network on") });
    expect(await r.shell.api.probe()).toMatchObject({ available: true });
  });

  it("CODE-4: invalid settings are refused with bad_input and nothing changes", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: WRITE });
    const writes = r.settings.writes;
    await expect(r.shell.api.settings.set({ sandbox: "everything" } as never)).rejects.toMatchObject({ code: "bad_input:shell", data: { reason: "invalid_settings" }, message: expect.stringContaining("sandbox") });
    await expect(r.shell.api.settings.set({ sandbox: "off", network: "yes" } as never)).rejects.toMatchObject({ code: "bad_input:shell" });
    expect(r.settings.writes).toBe(writes);
    expect((await r.shell.api.settings.get()).settings).toEqual(WRITE);
  });
});

describe("sandbox unavailable (CODE-4)", { timeout: 30_000 }, () => {
  it("CODE-4: without bwrap the default is off, a sandboxed mode cannot be chosen, and status says why", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { deps: { bwrap: "/nonexistent/bwrap" } });
    expect(r.settings.values.get("shell")).toEqual(OFF);
    const status = r.shell.status();
    expect(status.ready).toBe(true);
    expect(status.note).toContain("bwrap is not installed");
    expect(status.note).toContain("install the Debian package bubblewrap");
    const writes = r.settings.writes;
    await expect(r.shell.api.settings.set(WRITE)).rejects.toMatchObject({
      code: "bad_input:shell", data: { reason: "sandbox_unavailable" }, message: expect.stringContaining("bwrap is not installed"),
    });
    expect(r.settings.writes).toBe(writes);
    expect((await r.shell.api.settings.get()).settings).toEqual(OFF);
    expect((await r.call("bash", { command: "echo unsandboxed" })).canonical).toMatchObject({ output: "unsandboxed\n", sandbox: { mode: "off" } });
  });

  it("CODE-4: settings that still ask for a sandbox make bash refuse with sandbox_unavailable — never a silent fallback", async () => {
    await using scope = createScope("test");
    const r = await rig(scope, { settings: WRITE, deps: { bwrap: "/nonexistent/bwrap" } });
    const m = marker();
    await expect(r.call("bash", { command: `sleep ${m}` })).rejects.toMatchObject({ code: "unavailable:shell", data: { reason: "sandbox_unavailable" }, message: expect.stringMatching(/does not run commands unsandboxed/) });
    await expect(r.call("bash", { command: `sleep ${m}`, background: true })).rejects.toMatchObject({ data: { reason: "sandbox_unavailable" } });
    expect(survivors(m)).toEqual([]);
    expect(r.shell.status()).toMatchObject({ ready: false, note: expect.stringContaining("bash refuses every command") });
    // Choosing off is allowed, and then commands run.
    await r.shell.api.settings.set(OFF);
    expect((await r.call("bash", { command: "echo ok" })).canonical).toMatchObject({ output: "ok\n" });
  });

  it("CODE-4: a bwrap that cannot create namespaces is reported with its stderr", async () => {
    await using scope = createScope("test");
    const fake = join(tempDir(), "bwrap");
    writeFileSync(fake, "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'bubblewrap 0.0.0'; exit 0; }\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n");
    chmodSync(fake, 0o755);
    const r = await rig(scope, { deps: { bwrap: fake } });
    const view = await r.shell.api.settings.get();
    expect(view.settings.sandbox).toBe("off");
    expect(view.availability).toMatchObject({ available: false, version: "bubblewrap 0.0.0", reason: "bwrap cannot create namespaces here: bwrap: No permissions to creating new namespace" });
    expect(r.shell.status().note).toContain("bwrap cannot create namespaces here");
  });
});
