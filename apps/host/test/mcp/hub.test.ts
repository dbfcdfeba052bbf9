import { afterEach, describe, expect, it, vi } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { listChildren } from "../../src/core/process.js";
import { createScope } from "../../src/core/scope.js";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createMcpHub } from "../../src/mcp/hub.js";
import { fixture, invoker, isRunning, ManualClock, memoryLog, waitForState } from "./helpers.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
const fx = (...args: Parameters<typeof fixture>) => {
  const f = fixture(...args);
  cleanups.push(f.cleanup);
  return f;
};
const running = (label: string) => listChildren().filter((c) => c.label === label && c.state === "running");

describe("activation (MCP-3)", () => {
  it("waits for the connection and full discovery, then the tools are registered and callable", async () => {
    await using scope = createScope("test");
    const registry = createToolRegistry();
    const hub = createMcpHub(scope, { registry, log: memoryLog() });
    const f = fx("fx", { tools: ["echo", "fixture", "b", "c"], pageSize: 1, instructions: "Use echo to echo." });
    const changes: string[] = [];
    hub.onChange((name) => void changes.push(name));
    await hub.start(f.config);

    const view = hub.get("fx")!;
    expect(view.status.state).toBe("ready");
    expect(view.generation).toBe(1);
    expect(view.toolsRegistered).toBe(true);
    expect(view.tools.map((t) => [t.publicName, t.rawName])).toEqual([
      ["mcp__fx__echo", "echo"], ["mcp__fx__fixture", "fixture"], ["mcp__fx__b", "b"], ["mcp__fx__c", "c"],
    ]);
    expect(view.tools[0]).toMatchObject({ description: "Echoes the message.", inputSchema: { type: "object", required: ["message"] }, outputSchema: null });
    expect(view.instructions).toBe("Use echo to echo.");
    expect(view.serverInfo).toEqual({ name: "seam-fixture", version: "1.0.0", protocolVersion: "2025-11-25" });
    expect(view.stderrTail).toMatch(/fixture \d+ starting/);
    expect(changes.every((n) => n === "fx")).toBe(true);
    expect(changes.length).toBeGreaterThan(0);
    expect(hub.list().map((v) => v.config.name)).toEqual(["fx"]);

    const def = registry.get("mcp__fx__echo")!;
    expect(def).toMatchObject({ capability: "mcp", effect: "external", timeoutMs: 120_000, description: "Echoes the message." });
    const call = invoker(registry);
    const ok = await call("mcp__fx__echo", { message: "hello" });
    expect(ok).toMatchObject({ status: "ok", rendered: "hello" });
    expect(ok.canonical).toMatchObject({ type: "mcp", server: "fx", tool: "echo", content: [{ type: "text", text: "hello" }] });
  });

  it("validates arguments against the input schema with a message the model can act on", async () => {
    await using scope = createScope("test");
    const registry = createToolRegistry();
    const hub = createMcpHub(scope, { registry, log: memoryLog() });
    await hub.start(fx("fx").config);
    const call = invoker(registry);
    const bad = await call("mcp__fx__echo", { message: 5 });
    expect(bad.status).toBe("error");
    expect(bad.error?.code).toBe("invalid_arguments");
    expect(bad.rendered).toContain("message: must be string");
    const missing = await call("mcp__fx__echo", {});
    expect(missing.rendered).toContain("must have required property 'message'");
    expect((await call("mcp__fx__echo", [1])).error?.code).toBe("invalid_arguments");
  });

  it("refuses a duplicate live name before connecting", async () => {
    await using scope = createScope("test");
    const hub = createMcpHub(scope, { registry: createToolRegistry(), log: memoryLog() });
    const first = fx("fx");
    await hub.start(first.config);
    const second = fx("fx");
    const error = await hub.start(second.config).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).code).toBe("conflict:mcp");
    expect(second.read().starts).toBeUndefined(); // never spawned
    expect(running("mcp:fx")).toHaveLength(1);
  });

  it("refuses a duplicate name even while the first is still connecting", async () => {
    await using scope = createScope("test");
    const hub = createMcpHub(scope, { registry: createToolRegistry(), log: memoryLog() });
    const first = hub.start(fx("fx").config);
    await expect(hub.start(fx("fx").config)).rejects.toMatchObject({ code: "conflict:mcp" });
    await first;
  });

  it("rolls back with failOnStartupError: rejects, forgets the server, leaves no process or tool", async () => {
    await using scope = createScope("test");
    const registry = createToolRegistry();
    const hub = createMcpHub(scope, { registry, log: memoryLog() });
    const f = fx("strict", { startup: "exit" }, { failOnStartupError: true });
    await expect(hub.start(f.config)).rejects.toThrow(HostError);
    expect(hub.get("strict")).toBeUndefined();
    expect(hub.list()).toEqual([]);
    expect(registry.visible()).toEqual([]);
    expect(running("mcp:strict")).toHaveLength(0);
    // The name is free again.
    f.write({ startup: "ok" });
    await hub.start(f.config);
    expect(hub.get("strict")?.status.state).toBe("ready");
  });

  it("without failOnStartupError resolves with zero tools and keeps retrying in the background", async () => {
    await using scope = createScope("test");
    const clock = new ManualClock();
    const registry = createToolRegistry();
    const hub = createMcpHub(scope, { registry, log: memoryLog(), clock });
    const f = fx("lenient", { startup: "exit" });
    await hub.start(f.config);
    const view = hub.get("lenient")!;
    expect(view.status).toMatchObject({ state: "retrying", attempt: 1, maxAttempts: 10 });
    expect(view.status.state === "retrying" && view.status.lastError).toBeTruthy();
    expect(view.stderrTail).toContain("exiting at startup as told");
    expect(view.generation).toBe(0);
    expect(registry.visible()).toEqual([]);
    f.write({ startup: "ok" });
    expect(clock.fire("retry")).toBe(500);
    await waitForState(hub, "lenient", "ready");
    expect(registry.visible().map((t) => t.name)).toEqual(["mcp__lenient__echo", "mcp__lenient__fixture"]);
  });

  it("honours startupTimeoutMs against a server that never answers initialize", async () => {
    await using scope = createScope("test");
    const hub = createMcpHub(scope, { registry: createToolRegistry(), log: memoryLog() });
    const f = fx("mute", { startup: "hang" }, { failOnStartupError: true, startupTimeoutMs: 1_000 });
    const error = (await hub.start(f.config).catch((e: unknown) => e)) as HostError;
    expect(error).toBeInstanceOf(HostError);
    expect(error.code).toBe("timeout:mcp");
    expect(error.message).toContain("1000 ms");
    expect(hub.get("mute")).toBeUndefined();
    expect(running("mcp:mute")).toHaveLength(0);
  });

  it("records a disabled server without connecting", async () => {
    await using scope = createScope("test");
    const hub = createMcpHub(scope, { registry: createToolRegistry(), log: memoryLog() });
    const f = fx("off", {}, { enabled: false });
    await hub.start(f.config);
    expect(hub.get("off")).toMatchObject({ status: { state: "disabled" }, generation: 0, tools: [], toolsRegistered: false });
    expect(f.read().starts).toBeUndefined();
    await expect(hub.start(f.config)).rejects.toMatchObject({ code: "conflict:mcp" });
  });

  it("rejects an invalid config with bad_input", async () => {
    await using scope = createScope("test");
    const hub = createMcpHub(scope, { registry: createToolRegistry(), log: memoryLog() });
    await expect(hub.start({ name: "bad name!", transport: { type: "stdio", command: "x" } })).rejects.toMatchObject({ code: "bad_input:mcp" });
  });

  it("stop() unregisters, kills the process and forgets; restart() comes back with a fresh process", async () => {
    await using scope = createScope("test");
    const registry = createToolRegistry();
    const hub = createMcpHub(scope, { registry, log: memoryLog() });
    const f = fx("fx");
    await hub.start(f.config);
    const [child] = running("mcp:fx");
    await hub.restart("fx");
    expect(isRunning(child!.pid)).toBe(false);
    expect(hub.get("fx")?.status.state).toBe("ready");
    expect(f.read().starts).toBe(2);
    const [next] = running("mcp:fx");
    await hub.stop("fx");
    await hub.stop("fx"); // no-op
    await hub.stop("unknown");
    expect(isRunning(next!.pid)).toBe(false);
    expect(hub.get("fx")).toBeUndefined();
    expect(registry.visible()).toEqual([]);
    await expect(hub.restart("fx")).rejects.toMatchObject({ code: "not_found:mcp" });
  });
});

describe("calls (MCP-6)", () => {
  it("maps isError, task-required tools, cancellation and output validation to failed calls", async () => {
    await using scope = createScope("test");
    const registry = createToolRegistry();
    const hub = createMcpHub(scope, { registry, log: memoryLog() });
    const f = fx("fx", { tools: ["fail", "task", "slow", "structured", "unsupported", "media"] });
    await hub.start(f.config);
    const call = invoker(registry);

    const failed = await call("mcp__fx__fail");
    expect(failed).toMatchObject({ status: "error", error: { code: "mcp_tool_error", message: "it broke" } });
    expect(failed.canonical).toMatchObject({ isError: true, content: [{ type: "text", text: "it broke" }] });

    const task = await call("mcp__fx__task");
    expect(task.error?.code).toBe("mcp_task_required");
    expect(task.rendered).toMatch(/requires task-based/);

    const controller = new AbortController();
    const slow = call("mcp__fx__slow", {}, controller.signal);
    await vi.waitFor(() => expect(f.read().slowStarted).toBe(true), { timeout: 5_000, interval: 10 });
    controller.abort();
    expect((await slow).status).toBe("cancelled");
    await vi.waitFor(() => expect(f.read().cancelled).toBe(true), { timeout: 5_000, interval: 20 });

    expect((await call("mcp__fx__structured", { n: 2 })).canonical).toMatchObject({ structured: "valid", structuredContent: { n: 2 } });
    expect((await call("mcp__fx__structured", { n: "two" })).error?.code).toBe("mcp_output_invalid");
    expect((await call("mcp__fx__structured", { omit: true })).error?.code).toBe("mcp_output_invalid");
    const unsupported = await call("mcp__fx__unsupported");
    expect(unsupported.status).toBe("ok");
    expect(unsupported.canonical).toMatchObject({ structured: "unvalidated" });

    const media = await call("mcp__fx__media");
    expect(media.rendered).toBe("here you go\n[image: image/png, 70 B]\n[audio: audio/wav, 3 B]\n[resource: file:///x (text/plain, 5 B)]\n[resource link: y.md, file:///y.md (text/markdown)]");
    expect(media.canonical).toMatchObject({ content: [{ type: "text" }, { type: "image", mimeType: "image/png", data: expect.any(String) }, { type: "audio" }, { type: "resource" }, { type: "resource_link" }] });
  });
});
