import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolCallItem } from "@seam/shared";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import type { ScriptedModel } from "../../../../packages/testkit/src/index.js";
import { appRouter } from "../../src/trpc/root.js";
import { startScriptedHost } from "../support/host.js";
import { everythingStdio } from "./helpers.js";

/** The MCP policy plane in a real host (MCP-8): server-everything over stdio, the scripted model, the permissions gate. */
const scripts = [{ name: "mcp-policy", turns: [{ match: ".*", steps: [{ text: "ok" }] }] }];

let scope: Scope;
let host: HostApi;
let model: ScriptedModel;
let ws: string;

beforeAll(async () => {
  ({ scope, host, model } = await startScriptedHost(scripts, "mcp-policy"));
  ws = mkdtempSync(join(tmpdir(), "seam-mcp-policy-"));
  const view = await host.mcp.add(everythingStdio());
  if (view.status.state !== "ready") throw new Error(`server-everything is ${view.status.state}`);
}, 60_000);
afterAll(async () => {
  await scope?.dispose();
  rmSync(ws, { recursive: true, force: true });
});

interface WireRequest { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] }
/** Sends a message and returns the model request its (one-step) turn made. */
async function request(sessionId: string, text: string): Promise<{ system: string; tools: string[] }> {
  const before = model.requests().length;
  const { turnId } = await host.sessions.send({ sessionId, text });
  await vi.waitFor(async () => {
    const turn = (await host.sessions.detail(sessionId)).turns.find((t) => t.id === turnId);
    expect(turn?.status).toBe("completed");
  }, { timeout: 20_000, interval: 20 });
  const body = model.requests()[before]!.body as WireRequest;
  const system = body.messages.find((m) => m.role === "system")?.content;
  return { system: typeof system === "string" ? system : JSON.stringify(system), tools: (body.tools ?? []).map((t) => t.function.name) };
}

async function callAndWait(sessionId: string, name: string, args: Record<string, unknown>): Promise<ToolCallItem> {
  const { turnId } = await host.sessions.callTool({ sessionId, name, args });
  return vi.waitFor(async () => {
    const detail = await host.sessions.detail(sessionId);
    const turn = detail.turns.find((t) => t.id === turnId);
    if (!turn || turn.status === "running") throw new Error("still running");
    return detail.items.filter((i): i is ToolCallItem => i.kind === "tool_call" && i.turnId === turnId)[0]!;
  }, { timeout: 20_000, interval: 20 });
}

const toolView = (name: string) => host.mcp.list().find((v) => v.config.name === "everything")!.tools.find((t) => t.rawName === name)!;

describe("MCP policy plane with server-everything (MCP-8)", () => {
  it("readOnlyHint makes a tool a read; others stay external", async () => {
    const tools = await host.tools.list();
    expect(tools.find((t) => t.name === "mcp__everything__echo")?.effect).toBe("read");
    expect(toolView("echo")).toMatchObject({ enabled: true, approval: "auto", readOnly: true });
    const external = host.mcp.list()[0]!.tools.find((t) => !t.readOnly)!;
    expect(tools.find((t) => t.name === external.publicName)?.effect).toBe("external");
  });

  it("a disabled tool is gone from the model's tools and tool_search, without reconnecting; re-enabled it is back", async () => {
    const session = await host.sessions.create({ workspace: ws, title: "disable" });
    const pid = host.mcp.list()[0]!.generation;
    const before = await request(session.id, "hello");
    const echoVisible = (tools: string[]) => tools.includes("mcp__everything__echo") || tools.includes("tool_search");
    expect(echoVisible(before.tools)).toBe(true);

    const view = await host.mcp.setTool({ name: "everything", tool: "echo", enabled: false });
    expect(view.config.disabledTools).toEqual(["echo"]);
    expect(view.status.state).toBe("ready");
    expect(view.generation).toBe(pid); // no reconnect, no new generation
    expect(view.tools.find((t) => t.rawName === "echo")).toMatchObject({ enabled: false });
    expect((await host.tools.list()).map((t) => t.name)).not.toContain("mcp__everything__echo");
    const after = await request(session.id, "hello again");
    expect(after.tools).not.toContain("mcp__everything__echo");
    if (after.tools.includes("tool_search")) {
      const search = await callAndWait(session.id, "tool_search", { query: "echo" });
      expect(search.rendered).not.toContain("mcp__everything__echo");
    }
    const refused = await callAndWait(session.id, "mcp__everything__echo", { message: "x" });
    expect(refused.status).toBe("error");

    await host.mcp.setTool({ name: "everything", tool: "echo", enabled: true });
    expect((await host.tools.list()).map((t) => t.name)).toContain("mcp__everything__echo");
    const call = await callAndWait(session.id, "mcp__everything__echo", { message: "back again" });
    expect(call).toMatchObject({ status: "ok", rendered: expect.stringContaining("back again") });
    expect(host.mcp.list()[0]!.config.disabledTools).toEqual([]);
  }, 60_000);

  it("`ask` puts the call in front of a person even in auto mode: approve runs it, deny tells the model, both audited", async () => {
    const session = await host.sessions.create({ workspace: ws, title: "ask" });
    await host.sessions.setMode(session.id, "auto");
    await host.mcp.setTool({ name: "everything", tool: "echo", approval: "ask" });
    expect(toolView("echo").approval).toBe("ask");

    const pending = async () => vi.waitFor(() => {
      const r = host.permissions.approvals.pending().tools.find((t) => t.sessionId === session.id);
      if (!r) throw new Error("no request yet");
      return r;
    }, { timeout: 10_000, interval: 20 });

    const first = host.sessions.callTool({ sessionId: session.id, name: "mcp__everything__echo", args: { message: "approved call" } });
    await first;
    const req1 = await pending();
    expect(req1).toMatchObject({ tool: "mcp__everything__echo", server: "everything" });
    await host.permissions.approvals.answer({ id: req1.id, decision: "allow", scope: "once" });
    await vi.waitFor(async () => {
      const items = (await host.sessions.detail(session.id)).items.filter((i): i is ToolCallItem => i.kind === "tool_call");
      expect(items.at(-1)).toMatchObject({ status: "ok", rendered: expect.stringContaining("approved call") });
    }, { timeout: 10_000 });

    await host.sessions.callTool({ sessionId: session.id, name: "mcp__everything__echo", args: { message: "denied call" } });
    const req2 = await pending();
    await host.permissions.approvals.answer({ id: req2.id, decision: "deny", message: "not now" });
    await vi.waitFor(async () => {
      const items = (await host.sessions.detail(session.id)).items.filter((i): i is ToolCallItem => i.kind === "tool_call");
      expect(items.at(-1)).toMatchObject({ status: "error", error: { code: "permission_denied" } });
      expect(items.at(-1)!.rendered).toMatch(/The user denied this mcp__everything__echo call\. They said: "not now"/);
    }, { timeout: 10_000 });

    const audit = await host.permissions.audit({ sessionId: session.id });
    expect(audit.map((e) => [e.tool, e.decision, e.by])).toEqual(expect.arrayContaining([
      ["mcp__everything__echo", "allow", "user"], ["mcp__everything__echo", "deny", "user"],
    ]));

    // "Always allow" stores the rule mcp__everything__echo: the next call runs without asking.
    const { turnId } = await host.sessions.callTool({ sessionId: session.id, name: "mcp__everything__echo", args: { message: "always" } });
    const req3 = await pending();
    await host.permissions.approvals.answer({ id: req3.id, decision: "allow", scope: "always" });
    await vi.waitFor(async () => expect((await host.sessions.detail(session.id)).turns.find((t) => t.id === turnId)?.status).toBe("completed"));
    expect((await host.permissions.rules.list()).map((r) => r.pattern)).toContain("mcp__everything__echo");
    const free = await callAndWait(session.id, "mcp__everything__echo", { message: "no card" });
    expect(free).toMatchObject({ status: "ok" });

    // Plan mode still refuses an `auto` external tool; `inherit` drops the override.
    await host.mcp.setTool({ name: "everything", tool: "echo", approval: "inherit" });
    expect(host.mcp.list()[0]!.config.toolApproval).toEqual({});
  }, 60_000);

  it("instructions go into the system prompt escaped, stable, counted, and leave with the server", async () => {
    const session = await host.sessions.create({ workspace: ws, title: "instructions" });
    const one = await request(session.id, "first");
    expect(one.system).toContain('<mcp_server_instructions server="everything">');
    expect(one.system).toContain("Constraints &amp; Limitations");
    expect(one.system.match(/<mcp_server_instructions/g)).toHaveLength(1);
    const two = await request(session.id, "second");
    expect(two.system).toBe(one.system);
    const withBlock = (await host.sessions.context(session.id)).system;

    await host.mcp.setEnabled("everything", false);
    const three = await request(session.id, "third");
    expect(three.system).not.toContain("mcp_server_instructions");
    expect((await host.sessions.context(session.id)).system).toBeLessThan(withBlock);
    await host.mcp.setEnabled("everything", true);
  }, 60_000);

  it("a Cline config imports with its policy, round-trips through export, and bad import input is words", async () => {
    const caller = appRouter.createCaller({ host });
    const json = JSON.stringify({ mcpServers: { cline: {
      command: process.execPath, args: ["-e", "0"], disabled: true, disabledTools: ["rm"], alwaysAllow: ["ls"], autoApprove: ["cat"],
    } } });
    const applied = await caller.mcp.importApply({ json });
    expect(applied.applied).toEqual([{ name: "cline", action: "add" }]);
    expect(host.mcp.list().find((v) => v.config.name === "cline")!.config).toMatchObject({
      enabled: false, disabledTools: ["rm"], approval: "ask", toolApproval: { ls: "auto", cat: "auto" },
    });
    const exported = await caller.mcp.export();
    expect(JSON.parse(exported.json).mcpServers.cline).toMatchObject({ disabled: true, disabledTools: ["rm"], alwaysAllow: ["ls", "cat"] });
    expect((await caller.mcp.importPreview({ json: exported.json })).entries.map((e) => e.action)).toEqual(["unchanged", "unchanged"]);
    await caller.mcp.remove({ name: "cline" });

    const huge = await caller.mcp.importPreview({ json: `{"mcpServers": {"x": {"command": "${"x".repeat(1_000_001)}"}}}` }).then(() => null, (e: unknown) => e as Error);
    // One sentence with the size and the limit, checked before parsing (MCP-10).
    expect(huge?.message).toBe("The pasted config is 977 KB; Seam imports at most 256 KB at a time. Paste only the mcpServers block, or import the servers in parts.");
    const bad = await caller.mcp.importPreview({ json: '{"mcpServers": {"x": {"command": "x", "disabledTools": "all"}}}' });
    expect(bad.entries[0]!.errors).toEqual([{ path: "disabledTools", message: "disabledTools must be a list of tool names" }]);
  }, 60_000);

  it("bad policy input is refused in words and nothing changes", async () => {
    await expect(host.mcp.update("everything", { ...host.mcp.list()[0]!.config, disabledTools: ["a", "a"] }))
      .rejects.toThrow(/Each tool may appear once in disabledTools/);
    await expect(host.mcp.setTool({ name: "ghost", tool: "echo", enabled: false })).rejects.toThrow(/No MCP server named "ghost"/);
    expect(host.mcp.list()[0]!.config.disabledTools).toEqual([]);
  });
});
