import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { SessionEvent, ToolCallItem } from "@seam/shared";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { isHostError } from "../../src/core/errors.js";
import { startTestHost } from "../support/host.js";
import { everythingStdio, HOST_DIR } from "./helpers.js";

/**
 * The MCP client surface in a real host (MCP-12, MCP-13): server-everything over stdio asks for input, reports progress,
 * logs and lists roots; answers go through the same tRPC-facing API the UI uses (`host.mcp.answerElicitation`).
 */

let scope: Scope;
let host: HostApi;
let ws: string;
let sessionId: string;

beforeAll(async () => {
  ({ scope, host } = await startTestHost());
  ws = mkdtempSync(join(tmpdir(), "seam-mcp-client-"));
  // The session exists before the server starts: its workspace is a root from the first roots/list on.
  const session = await host.sessions.create({ workspace: ws, title: "client surface" });
  sessionId = session.id;
  await host.sessions.setMode(sessionId, "auto");
  const view = await host.mcp.add(everythingStdio("everything", { callTimeoutMs: 60_000 }));
  if (view.status.state !== "ready") throw new Error(`server-everything is ${view.status.state}`);
  // The tools that depend on the client's capabilities come with a tools/list_changed after initialize.
  await vi.waitFor(() => {
    const names = host.mcp.list().find((v) => v.config.name === "everything")!.tools.map((t) => t.rawName);
    const missing = ["trigger-elicitation-request", "get-roots-list", "trigger-long-running-operation", "toggle-simulated-logging"].filter((n) => !names.includes(n));
    if (missing.length > 0) throw new Error(`server-everything does not list ${missing.join(", ")} yet`);
  }, { timeout: 20_000, interval: 50 });
}, 60_000);
afterAll(async () => {
  await scope?.dispose();
  rmSync(ws, { recursive: true, force: true });
});

async function finished(turnId: string): Promise<ToolCallItem> {
  return vi.waitFor(async () => {
    const detail = await host.sessions.detail(sessionId);
    const turn = detail.turns.find((t) => t.id === turnId);
    if (!turn || turn.status === "running") throw new Error("still running");
    return detail.items.filter((i): i is ToolCallItem => i.kind === "tool_call" && i.turnId === turnId)[0]!;
  }, { timeout: 30_000, interval: 20 });
}

const text = (call: ToolCallItem) => call.rendered ?? "";

async function pendingElicitation() {
  return vi.waitFor(() => {
    const [view] = host.mcp.elicitations();
    if (!view) throw new Error("no elicitation yet");
    return view;
  }, { timeout: 20_000, interval: 20 });
}

describe("elicitation (MCP-12)", () => {
  it("a form request becomes a pending request of the calling session; accepted, empty fields take the schema's defaults", async () => {
    const { turnId } = await host.sessions.callTool({ sessionId, name: "mcp__everything__trigger-elicitation-request", args: {} });
    const view = await pendingElicitation();
    expect(view).toMatchObject({ kind: "mcp_elicitation", sessionId, server: "everything", tool: "mcp__everything__trigger-elicitation-request", mode: "form" });
    expect(view.callId).toMatch(/^direct-/);
    expect(Object.keys((view.requestedSchema as { properties: object }).properties)).toContain("name");

    // A bad answer is refused with what to fix, and the request stays open.
    let refusal: unknown;
    try {
      host.mcp.answerElicitation({ id: view.id, action: "accept", content: { name: "Ada", integer: 500 } });
    } catch (error) {
      refusal = error;
    }
    expect(isHostError(refusal) && refusal.code).toBe("bad_input:mcp");
    expect((refusal as Error).message).toMatch(/integer: Must be at most 100/);
    // Missing the required field: refused too.
    expect(() => host.mcp.answerElicitation({ id: view.id, action: "accept", content: {} })).toThrow(/name: Required/);
    expect(host.mcp.elicitations().map((v) => v.id)).toEqual([view.id]);

    host.mcp.answerElicitation({ id: view.id, action: "accept", content: { name: "Ada", check: true } });
    const call = await finished(turnId);
    expect(call.status).toBe("ok");
    expect(text(call)).toContain("- Name: Ada");
    const raw = JSON.parse(text(call).slice(text(call).indexOf("Raw result:") + "Raw result:".length)) as { action: string; content: Record<string, unknown> };
    expect(raw.action).toBe("accept");
    // Defaults for string, integer, number, enum (plain, titled, legacy), multi-select; booleans as answered.
    expect(raw.content).toMatchObject({
      name: "Ada", check: true, firstLine: "It was a dark and stormy night.", integer: 42, number: 3.14, untitledSingleSelectEnum: "Monica",
      titledSingleSelectEnum: "hero-1", legacyTitledEnum: "pet-1", untitledMultipleSelectEnum: ["Guitar"], titledMultipleSelectEnum: ["fish-1"],
    });
    expect(host.mcp.elicitations()).toEqual([]);
    // A second answer is refused: it was already answered.
    expect(() => host.mcp.answerElicitation({ id: view.id, action: "decline" })).toThrow(/already answered/);
  });

  it("decline and cancel reach the server as such", async () => {
    for (const [action, expected] of [["decline", "User declined"], ["cancel", "User cancelled"]] as const) {
      const { turnId } = await host.sessions.callTool({ sessionId, name: "mcp__everything__trigger-elicitation-request", args: {} });
      const view = await pendingElicitation();
      host.mcp.answerElicitation({ id: view.id, action });
      const call = await finished(turnId);
      expect(text(call)).toContain(expected);
    }
  });

  it("stopping the turn withdraws a pending request (cancelled), and a late answer is refused", async () => {
    const { turnId } = await host.sessions.callTool({ sessionId, name: "mcp__everything__trigger-elicitation-request", args: {} });
    const view = await pendingElicitation();
    await host.sessions.stop(sessionId);
    const call = await finished(turnId);
    expect(call.status).toBe("cancelled");
    expect(host.mcp.elicitations()).toEqual([]);
    expect(() => host.mcp.answerElicitation({ id: view.id, action: "accept", content: { name: "late" } })).toThrow(/withdrawn/);
  });

  it("the server going away withdraws a pending request; the call reports the lost connection", async () => {
    const { turnId } = await host.sessions.callTool({ sessionId, name: "mcp__everything__trigger-elicitation-request", args: {} });
    const view = await pendingElicitation();
    await host.mcp.restart("everything");
    const call = await finished(turnId);
    expect(call.status).toBe("error");
    expect(host.mcp.elicitations()).toEqual([]);
    expect(() => host.mcp.answerElicitation({ id: view.id, action: "decline" })).toThrow(/withdrawn/);
    // The restarted server offers its tools again (they come with list_changed after initialize).
    await vi.waitFor(() => {
      const names = host.mcp.list().find((v) => v.config.name === "everything")!.tools.map((t) => t.rawName);
      if (!names.includes("trigger-elicitation-request")) throw new Error("not listed yet");
    }, { timeout: 20_000, interval: 50 });
  });

  it("a URL request shows the URL and why; accepted (opened), the server hears accept", async () => {
    const { turnId } = await host.sessions.callTool({
      sessionId, name: "mcp__everything__trigger-url-elicitation", args: { url: "https://example.com/authorize?state=1", message: "Sign in to continue" },
    });
    const view = await pendingElicitation();
    expect(view).toMatchObject({ mode: "url", url: "https://example.com/authorize?state=1", message: "Sign in to continue", requestedSchema: null });
    expect(view.elicitationId).toBeTruthy();
    host.mcp.answerElicitation({ id: view.id, action: "accept", content: {} });
    const call = await finished(turnId);
    expect(call.status).toBe("ok");
    expect(text(call).toLowerCase()).toContain("accept");
  });

  it("bad answers are refused: unknown id, unknown action", () => {
    expect(() => host.mcp.answerElicitation({ id: "nope", action: "decline" })).toThrow(/No such request for input/);
    expect(() => host.mcp.answerElicitation({ id: "x", action: "maybe" })).toThrow(/Invalid answer/);
  });
});

describe("roots (MCP-13)", () => {
  it("roots/list answers the sessions' workspaces as file:// URIs with names", async () => {
    const { turnId } = await host.sessions.callTool({ sessionId, name: "mcp__everything__get-roots-list", args: {} });
    const call = await finished(turnId);
    expect(text(call)).toContain(pathToFileURL(ws).href);
    expect(text(call)).toContain(basename(ws));
  });

  it("a session in a new workspace changes the roots and the server is told (roots/list_changed → it lists again)", async () => {
    const other = mkdtempSync(join(tmpdir(), "seam-mcp-client-other-"));
    try {
      await host.sessions.create({ workspace: other, title: "other" });
      await vi.waitFor(async () => {
        const { turnId } = await host.sessions.callTool({ sessionId, name: "mcp__everything__get-roots-list", args: {} });
        expect(text(await finished(turnId))).toContain(pathToFileURL(other).href);
      }, { timeout: 20_000, interval: 200 });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe("progress (MCP-12)", () => {
  it("every call sends a progress token; reports reach the session's live stream in order, with the total", async () => {
    const ctl = new AbortController();
    const events: SessionEvent[] = [];
    const reading = (async () => {
      for await (const e of host.live.session(sessionId, ctl.signal)) events.push(e);
    })();
    try {
      const { turnId } = await host.sessions.callTool({ sessionId, name: "mcp__everything__trigger-long-running-operation", args: { duration: 0.4, steps: 4 } });
      const call = await finished(turnId);
      expect(call.status).toBe("ok");
      const progress = events.filter((e): e is Extract<SessionEvent, { type: "progress" }> => e.type === "progress");
      expect(progress.map((p) => [p.progress, p.total])).toEqual([[1, 4], [2, 4], [3, 4], [4, 4]]);
      expect(new Set(progress.map((p) => p.itemId)).size).toBe(1);
      expect(progress[0]!.itemId).toBe(call.id);
    } finally {
      ctl.abort();
      await reading.catch(() => {});
    }
  });
});

describe("server logs (MCP-12)", () => {
  it("a server that logs is asked for info; its messages are kept per server, filtered by level", async () => {
    const logs = await vi.waitFor(() => {
      const l = host.mcp.logs({ name: "everything" });
      expect(l.entries.some((e) => e.text.includes("Roots updated"))).toBe(true);
      return l;
    }, { timeout: 20_000, interval: 50 });
    expect(logs).toMatchObject({ server: "everything", supported: true, level: "info" });
    const entry = logs.entries.find((e) => e.text.includes("Roots updated"))!;
    expect(entry).toMatchObject({ level: "info", logger: "everything-server" });
    expect(host.mcp.logs({ name: "everything", minLevel: "error" }).entries.every((e) => ["error", "critical", "alert", "emergency"].includes(e.level))).toBe(true);
    expect(host.mcp.logs({ name: "everything", minLevel: "error" }).entries).not.toContainEqual(entry);
    expect(() => host.mcp.logs({ name: "everything", minLevel: "loud" })).toThrow(/Invalid logs query/);
    expect(host.mcp.logs({ name: "unknown" })).toEqual({ server: "unknown", level: null, supported: false, entries: [] });
  });

  it("the level asked of the server can be changed while it runs; bad input changes nothing", async () => {
    await expect(host.mcp.setLogLevel({ name: "everything", level: "loud" })).rejects.toThrow(/Invalid log level/);
    await expect(host.mcp.setLogLevel({ name: "nobody", level: "debug" })).rejects.toThrow(/not running/);
    expect(host.mcp.logs({ name: "everything" }).level).toBe("info");
    expect((await host.mcp.setLogLevel({ name: "everything", level: "debug" })).level).toBe("debug");
    expect(host.mcp.logs({ name: "everything" }).level).toBe("debug");
  });

  it("the ring is cleared when the server restarts", async () => {
    expect(host.mcp.logs({ name: "everything" }).entries.length).toBeGreaterThan(0);
    await host.mcp.restart("everything");
    const after = host.mcp.logs({ name: "everything" });
    expect(after.entries.every((e) => e.seq <= after.entries.length)).toBe(true);
    // A restart starts over at the default level.
    expect(after.level).toBe("info");
  });
});

describe("cancellation (MCP-12)", () => {
  const recorder = (name: string, log: string) => ({
    name,
    transport: { type: "stdio" as const, command: process.execPath, args: ["--import", "tsx", join(HOST_DIR, "test/fixture/mcp/recorder.ts")], cwd: HOST_DIR, env: { RECORDER_LOG: { value: log } } },
    callTimeoutMs: 60_000,
  });
  const received = (log: string) => readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as { method?: string; id?: number; params?: { requestId?: number; reason?: string }; sawCancel?: boolean });

  it("disconnecting sends no notifications/cancelled for finished requests (initialize is request 0)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "seam-mcp-recorder-"));
    const log = join(dir, "received.jsonl");
    try {
      await host.mcp.add(recorder("recorder", log));
      const { turnId } = await host.sessions.callTool({ sessionId, name: "mcp__recorder__quick", args: {} });
      expect(text(await finished(turnId))).toContain("quick done");
      await host.mcp.remove("recorder");
      const messages = received(log);
      expect(messages.find((m) => m.method === "initialize")?.id).toBe(0);
      expect(messages.filter((m) => m.method === "notifications/cancelled")).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stopping a turn cancels its tool call's request, with a reason, and only that one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "seam-mcp-recorder-"));
    const log = join(dir, "received.jsonl");
    try {
      await host.mcp.add(recorder("recorder2", log));
      const { turnId } = await host.sessions.callTool({ sessionId, name: "mcp__recorder2__slow", args: {} });
      const callId = await vi.waitFor(() => {
        const call = received(log).find((m) => m.method === "tools/call");
        if (!call) throw new Error("not called yet");
        return call.id!;
      }, { timeout: 20_000, interval: 20 });
      await host.sessions.stop(sessionId);
      expect((await finished(turnId)).status).toBe("cancelled");
      await vi.waitFor(() => expect(received(log).some((m) => m.sawCancel)).toBe(true), { timeout: 10_000, interval: 20 });
      const cancels = received(log).filter((m) => m.method === "notifications/cancelled");
      expect(cancels).toHaveLength(1);
      expect(cancels[0]!.params!.requestId).toBe(callId);
      expect(cancels[0]!.params!.reason).toBeTruthy();
      await host.mcp.remove("recorder2");
      expect(received(log).filter((m) => m.method === "notifications/cancelled")).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
