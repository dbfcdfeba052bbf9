import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ToolCallItem } from "@seam/shared";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { startTestHost } from "../support/host.js";

/** Processes whose command line holds `marker` (a unique argument), from /proc. */
function survivors(marker: string): number[] {
  return readdirSync("/proc").filter((d) => /^\d+$/.test(d)).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
    } catch {
      return false;
    }
  }).map(Number);
}

/** The coding agent inside a real host: one machinery for every tool and for extension runs (PERM-1..4, CODE-6). */
describe("the coding agent in the host", () => {
  let scope: Scope;
  let host: HostApi;
  let ws: string;

  beforeAll(async () => {
    ({ scope, host } = await startTestHost());
    ws = mkdtempSync(join(tmpdir(), "seam-coding-ws-"));
  });
  afterAll(async () => {
    await scope.dispose();
    rmSync(ws, { recursive: true, force: true });
  });

  const callAndWait = async (sessionId: string, name: string, args: Record<string, unknown>) => {
    const { turnId } = await host.sessions.callTool({ sessionId, name, args });
    return vi.waitFor(async () => {
      const detail = await host.sessions.detail(sessionId);
      const turn = detail.turns.find((t) => t.id === turnId);
      if (!turn || turn.status === "running") throw new Error("still running");
      return detail.items.filter((i): i is ToolCallItem => i.kind === "tool_call" && i.turnId === turnId)[0]!;
    }, { timeout: 30_000, interval: 20 });
  };

  it("every tool declares an effect, and no tool can create or change a rule or a mode (PERM-1, PERM-2)", async () => {
    const tools = await host.tools.list();
    expect(tools.length).toBeGreaterThan(10);
    const effects = Object.fromEntries(tools.map((t) => [t.name, t.effect]));
    expect(effects).toMatchObject({
      read_file: "read", list_dir: "read", grep: "read", glob: "read", skill: "read", web_fetch: "network", web_search: "network",
      write_file: "write", edit_file: "write", bash: "execute", extension_run: "extension", tool_search: "read",
    });
    // Rules and modes are changed only through the host API a person's page calls; none of the model's tools touches them.
    expect(tools.filter((t) => t.capability === "permissions" || /rule|permission|mode/i.test(t.name))).toEqual([]);
  });

  it("a write into a skill root invalidates the skills cache at once (CODE-6, SKL-4)", async () => {
    const session = await host.sessions.create({ workspace: ws, title: "skills" });
    await host.sessions.setMode(session.id, "auto-edit");
    mkdirSync(join(ws, ".agents", "skills"), { recursive: true });
    const before = await host.skills.inspect({ workspace: ws });
    expect(before.candidates.map((c) => c.name)).not.toContain("fresh-skill");
    const call = await callAndWait(session.id, "write_file", {
      path: ".agents/skills/fresh-skill/SKILL.md",
      content: "---\nname: fresh-skill\ndescription: Written by the agent a moment ago.\n---\nDo the fresh thing.\n",
    });
    expect(call.status).toBe("ok");
    // No waiting for a file watcher: the write itself told the skills cache.
    const after = await host.skills.inspect({ workspace: ws });
    expect(after.candidates.map((c) => c.name)).toContain("fresh-skill");
  });

  it("an extension run request travels the same machinery and lands in the same audit log (PERM-4, EXT-5)", async () => {
    const session = await host.sessions.create({ workspace: ws, title: "ext" });
    const define = await callAndWait(session.id, "extension_define", { name: "hello-ext", purpose: "Says hello.", host: "api.log('hi');" });
    expect(define.status).toBe("ok");
    const { turnId } = await host.sessions.callTool({ sessionId: session.id, name: "extension_run", args: { name: "hello-ext" } });
    const request = await vi.waitFor(() => {
      const [run] = host.permissions.approvals.pending().runs;
      if (!run) throw new Error("no run request yet");
      return run;
    }, { timeout: 10_000, interval: 20 });
    expect((await host.sessions.list()).find((s) => s.id === session.id)?.waiting).toBe(1);
    await host.extensions.answer({ id: request.id, decision: "deny" });
    await vi.waitFor(async () => expect((await host.sessions.detail(session.id)).turns.find((t) => t.id === turnId)?.status).not.toBe("running"));
    const [entry] = await host.permissions.audit({ sessionId: session.id });
    expect(entry).toMatchObject({ kind: "extension_run", tool: "extension_run", subject: "hello-ext v1", decision: "deny", by: "user", sessionTitle: "ext", workspace: ws });
  });

  it("deleting a session kills its background jobs and drops its own rules (CODE-3, PERM-2)", async () => {
    const session = await host.sessions.create({ workspace: ws, title: "doomed" });
    await host.sessions.setMode(session.id, "auto");
    const marker = `seam-doomed-${process.pid}-${Date.now()}`;
    const started = await callAndWait(session.id, "bash", { command: `sh -c "sleep 300; true" ${marker}`, background: true });
    expect(started.status).toBe("ok");
    await vi.waitFor(() => expect(survivors(marker).length).toBeGreaterThan(0));
    await host.permissions.rules.create({ scope: "session", owner: session.id, action: "allow", pattern: "bash(ls:*)" });
    expect((await host.permissions.rules.list()).filter((r) => r.owner === session.id)).toHaveLength(1);

    await host.sessions.remove(session.id);
    await vi.waitFor(() => expect(survivors(marker)).toEqual([]), { timeout: 10_000 });
    expect((await host.permissions.rules.list()).filter((r) => r.owner === session.id)).toEqual([]);
  });

  it("plan mode refuses the shell and leaves the workspace untouched (PERM-1)", async () => {
    const session = await host.sessions.create({ workspace: ws, title: "plan" });
    await host.sessions.setMode(session.id, "plan");
    writeFileSync(join(ws, "keep.txt"), "kept\n");
    const call = await callAndWait(session.id, "bash", { command: "rm keep.txt" });
    expect(call).toMatchObject({ status: "error", error: { code: "permission_denied" } });
    expect(call.rendered).toMatch(/Plan mode/);
    expect(readFileSync(join(ws, "keep.txt"), "utf8")).toBe("kept\n");
  });
});
