import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolApprovalView, ToolEffect } from "@seam/shared";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime, type ToolRuntime } from "../../src/agent/runtime.js";
import { defineTool } from "../../src/agent/tool.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { HostError } from "../../src/core/errors.js";
import { openDatabase, type Database } from "../../src/persistence/db.js";
import * as Permissions from "../../src/permissions/permissions.js";

/** A tool that records that it ran; its effect decides what the gate does with it. */
function probe(name: string, effect: ToolEffect, ran: string[], preview?: () => Promise<{ summary: string }>) {
  return defineTool({
    name,
    description: `probe ${name}`,
    capability: "test",
    effect,
    input: z.object({ path: z.string().optional() }),
    run: async (args) => {
      ran.push(`${name}:${args.path ?? ""}`);
      return { canonical: { ok: true }, rendered: "done" };
    },
    ...(preview ? { preview } : {}),
  });
}

/** Waits until the broker has a tool-call request for the session. */
async function nextRequest(p: Permissions.Interface, sessionId: string): Promise<ToolApprovalView> {
  for (let i = 0; i < 400; i++) {
    const found = p.api.approvals.pending().tools.find((t) => t.sessionId === sessionId);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error("no approval request appeared");
}

describe("the permission gate and approvals (PERM-1..4)", () => {
  let scope: Scope;
  let db: Database;
  let home: string;
  let workspace: string;
  let permissions: Permissions.Interface;
  let runtime: ToolRuntime;
  let ran: string[];
  let sessionId: string;

  beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), "seam-perm-"));
    workspace = mkdtempSync(join(tmpdir(), "seam-perm-ws-"));
    scope = createScope("perm-test");
    db = await openDatabase(scope.child("db"), { home });
    permissions = await Permissions.create(scope.child("permissions"), { db, sessionTitle: async (id) => (await db.store.sessions.get(id))?.title ?? null });
    const registry = createToolRegistry();
    ran = [];
    registry.register(probe("change_it", "write", ran, async () => ({ summary: "Change it" })));
    registry.register(probe("other_change", "write", ran));
    registry.register(probe("look", "read", ran));
    registry.register(probe("fails_early", "execute", ran, async () => {
      throw new HostError("bad_input:workspace", "That file was never read.", { reason: "file_not_read" });
    }));
    runtime = createToolRuntime({ registry, authorize: permissions.authorize });
    sessionId = (await db.store.sessions.create({ title: "Work", workspace })).id;
  });

  afterEach(async () => {
    await scope.dispose();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  const call = (name: string, args: unknown = {}, signal = new AbortController().signal) =>
    runtime.invoke({ sessionId, workspace, callId: `c-${Math.random()}`, name, args, signal });

  it("ask mode: a write waits for a person; allow once runs it and the audit log says who allowed it", async () => {
    const pending = call("change_it", { path: "a.txt" });
    const request = await nextRequest(permissions, sessionId);
    expect(request).toMatchObject({ tool: "change_it", effect: "write", summary: "Change it", sessionTitle: "Work", workspace });
    expect(ran).toEqual([]);
    expect(permissions.waiting(sessionId)).toBe(1);
    await permissions.api.approvals.answer({ id: request.id, decision: "allow", scope: "once" });
    expect((await pending).status).toBe("ok");
    expect(ran).toEqual(["change_it:a.txt"]);
    expect(permissions.waiting(sessionId)).toBe(0);
    const [entry] = await permissions.api.audit({});
    expect(entry).toMatchObject({ tool: "change_it", subject: "a.txt", decision: "allow", by: "user", answerScope: "once", sessionTitle: "Work", mode: "ask" });
  });

  it("a denied call returns permission_denied with the person's message to the model, and nothing runs", async () => {
    const pending = call("change_it", { path: "a.txt" });
    const request = await nextRequest(permissions, sessionId);
    await permissions.api.approvals.answer({ id: request.id, decision: "deny", message: "use the staging copy instead" });
    const outcome = await pending;
    expect(outcome.error?.code).toBe("permission_denied");
    expect(outcome.rendered).toContain("use the staging copy instead");
    expect(ran).toEqual([]);
    expect((await permissions.api.audit({ decision: "deny" }))[0]).toMatchObject({ by: "user", message: "use the staging copy instead" });
  });

  it("the first answer wins; a second answer is refused as already_answered and changes nothing", async () => {
    const pending = call("change_it");
    const request = await nextRequest(permissions, sessionId);
    await permissions.api.approvals.answer({ id: request.id, decision: "deny" });
    const late = await permissions.api.approvals.answer({ id: request.id, decision: "allow", scope: "always" }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(HostError);
    expect((late as HostError).publicCode).toBe("already_answered");
    expect((await pending).error?.code).toBe("permission_denied");
    expect(await permissions.api.rules.list()).toEqual([]);
  });

  it("stopping the turn withdraws its request: the call is cancelled, the log says withdrawn", async () => {
    const stop = new AbortController();
    const pending = call("change_it", {}, stop.signal);
    const request = await nextRequest(permissions, sessionId);
    stop.abort();
    expect((await pending).status).toBe("cancelled");
    expect(permissions.api.approvals.pending().tools).toEqual([]);
    const late = await permissions.api.approvals.answer({ id: request.id, decision: "allow", scope: "once" }).catch((e: unknown) => e);
    expect((late as HostError).publicCode).toBe("withdrawn");
    expect((await permissions.api.audit({}))[0]).toMatchObject({ decision: "withdrawn", by: "turn_ended" });
    expect(ran).toEqual([]);
  });

  it("plan mode refuses a write with a model-visible reason, while reads still run", async () => {
    await db.store.sessions.setMode(sessionId, "plan");
    const refused = await call("change_it");
    expect(refused.error?.code).toBe("permission_denied");
    expect(refused.rendered).toMatch(/plan mode/i);
    expect((await call("look")).status).toBe("ok");
    expect(ran).toEqual(["look:"]);
    expect(permissions.api.approvals.pending().tools).toEqual([]);
  });

  it("the default mode applies to sessions without their own; auto runs a write unasked and logs it by mode", async () => {
    await permissions.api.settings.set({ defaultMode: "auto" });
    expect((await call("change_it")).status).toBe("ok");
    expect((await permissions.api.audit({}))[0]).toMatchObject({ decision: "allow", by: "mode", mode: "auto" });
    await db.store.sessions.setMode(sessionId, "ask");
    const pending = call("change_it");
    await permissions.api.approvals.answer({ id: (await nextRequest(permissions, sessionId)).id, decision: "allow", scope: "once" });
    await pending;
  });

  it("an always-allow rule is stored at the chosen scope and applies to the next matching call, not to another tool", async () => {
    const first = call("change_it");
    const request = await nextRequest(permissions, sessionId);
    expect(request.suggestedRules.length).toBeGreaterThan(0);
    await permissions.api.approvals.answer({ id: request.id, decision: "allow", scope: "always", rules: ["change_it"], ruleScope: "workspace" });
    await first;
    const rules = await permissions.api.rules.list();
    expect(rules).toMatchObject([{ scope: "workspace", owner: workspace, action: "allow", pattern: "change_it" }]);

    expect((await call("change_it", { path: "b" })).status).toBe("ok");
    expect(permissions.api.approvals.pending().tools).toEqual([]);
    expect((await permissions.api.audit({ by: "rule" }))[0]).toMatchObject({ tool: "change_it", rulePattern: "change_it", ruleScope: "workspace" });

    const other = call("other_change");
    const asked = await nextRequest(permissions, sessionId);
    expect(asked.tool).toBe("other_change");
    await permissions.api.approvals.answer({ id: asked.id, decision: "deny" });
    await other;
  });

  it("allow for this session stores a session rule that goes with the session", async () => {
    const first = call("change_it");
    await permissions.api.approvals.answer({ id: (await nextRequest(permissions, sessionId)).id, decision: "allow", scope: "session", rules: ["change_it"] });
    await first;
    expect(await permissions.api.rules.list()).toMatchObject([{ scope: "session", owner: sessionId, ownerLabel: "Work", pattern: "change_it" }]);
    await permissions.forgetSession(sessionId);
    expect(await permissions.api.rules.list()).toEqual([]);
  });

  it("a call that would fail anyway fails with its own error and nobody is asked", async () => {
    const outcome = await call("fails_early");
    expect(outcome.error).toMatchObject({ code: "file_not_read" });
    expect(permissions.api.approvals.pending().tools).toEqual([]);
    expect(ran).toEqual([]);
  });

  it("an invalid pattern in an answer is refused before the request is settled, so the answer is not lost", async () => {
    const pending = call("change_it");
    const request = await nextRequest(permissions, sessionId);
    const bad = await permissions.api.approvals.answer({ id: request.id, decision: "allow", scope: "always", rules: ["bash(unclosed"] }).catch((e: unknown) => e);
    expect((bad as HostError).code).toBe("bad_input:permissions");
    expect(permissions.api.approvals.pending().tools).toHaveLength(1);
    await permissions.api.approvals.answer({ id: request.id, decision: "allow", scope: "once" });
    expect((await pending).status).toBe("ok");
  });

  it("rules: invalid patterns and duplicates are refused with a clear error and nothing is stored", async () => {
    await expect(permissions.api.rules.create({ scope: "global", action: "allow", pattern: "bash(unclosed" })).rejects.toMatchObject({ code: "bad_input:permissions" });
    await expect(permissions.api.rules.create({ scope: "workspace", action: "deny", pattern: "change_it" })).rejects.toMatchObject({ code: "bad_input:permissions" });
    const rule = await permissions.api.rules.create({ scope: "global", action: "deny", pattern: "change_it" });
    await expect(permissions.api.rules.create({ scope: "global", action: "allow", pattern: "change_it" })).rejects.toMatchObject({ code: "conflict:permissions" });
    expect(await permissions.api.rules.list()).toHaveLength(1);
    // A deny rule outranks the mode: even auto mode refuses.
    await db.store.sessions.setMode(sessionId, "auto");
    expect((await call("change_it")).error?.code).toBe("permission_denied");
    await permissions.api.rules.update({ id: rule.id, action: "allow" });
    await db.store.sessions.setMode(sessionId, "ask");
    expect((await call("change_it")).status).toBe("ok");
    await permissions.api.rules.remove(rule.id);
    await expect(permissions.api.rules.remove(rule.id)).rejects.toMatchObject({ code: "not_found:permissions" });
  });

  it("the approvals topic sends the pending list now and after each change", async () => {
    const stop = new AbortController();
    const seen: number[] = [];
    const reading = (async () => {
      for await (const snapshot of permissions.live.approvals(stop.signal)) {
        seen.push(snapshot.tools.length);
        if (seen.includes(1) && snapshot.tools.length === 0) break;
      }
    })();
    const pending = call("change_it");
    const request = await nextRequest(permissions, sessionId);
    while (!seen.includes(1)) await new Promise((r) => setTimeout(r, 5));
    await permissions.api.approvals.answer({ id: request.id, decision: "allow", scope: "once" });
    await pending;
    await reading;
    stop.abort();
    expect(seen).toEqual([0, 1, 0]);
  });
});
