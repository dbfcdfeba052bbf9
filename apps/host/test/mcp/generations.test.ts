import { afterEach, describe, expect, it, vi } from "vitest";
import { createScope } from "../../src/core/scope.js";
import { createToolRegistry, type ToolChange } from "../../src/agent/registry.js";
import type { ToolDef } from "../../src/agent/tool.js";
import { createMcpHub } from "../../src/mcp/hub.js";
import { fixture, invoker, memoryLog } from "./helpers.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A hub on the fixture, plus a way to change its tool list and announce it with tools/list_changed. */
async function setup(initial: string[] = ["echo", "fixture"]) {
  const scope = createScope("test");
  const registry = createToolRegistry();
  const log = memoryLog();
  const hub = createMcpHub(scope, { registry, log });
  const f = fixture("fx", { tools: initial });
  cleanups.push(f.cleanup);
  await hub.start(f.config);
  const call = invoker(registry);
  const names = () => registry.visible().filter((t) => t.capability === "mcp").map((t) => t.name);
  /** Changes the fixture's state through its own tool and sends tools/list_changed. */
  const announce = async (set: Record<string, unknown>) => {
    const outcome = await call("mcp__fx__fixture", { set, notify: true });
    expect(outcome.status).toBe("ok");
  };
  return { scope, registry, log, hub, f, call, names, announce };
}

describe("generation sync through tools/list_changed (MCP-4)", () => {
  it("swaps whole generations: the old one goes entirely, the new one comes entirely", async () => {
    const { scope, registry, hub, names, announce } = await setup();
    await using _ = scope;
    const changes: ToolChange[] = [];
    registry.onChange((c) => void changes.push(c));

    await announce({ tools: ["echo", "fixture", "a", "b", "c"], pageSize: 2 });
    await vi.waitFor(() => expect(hub.get("fx")?.generation).toBe(2), { timeout: 10_000, interval: 10 });
    expect(names()).toEqual(["mcp__fx__a", "mcp__fx__b", "mcp__fx__c", "mcp__fx__echo", "mcp__fx__fixture"]);
    // Unregister all of generation 1, then register all of generation 2 — never interleaved.
    expect(changes.map((c) => c.type)).toEqual(["unregistered", "unregistered", "registered", "registered", "registered", "registered", "registered"]);

    changes.length = 0;
    await announce({ tools: ["fixture", "d"], pageSize: 0 });
    await vi.waitFor(() => expect(hub.get("fx")?.generation).toBe(3), { timeout: 10_000, interval: 10 });
    expect(names()).toEqual(["mcp__fx__d", "mcp__fx__fixture"]);
    expect(changes.slice(0, 5).every((c) => c.type === "unregistered")).toBe(true);
    expect(changes.slice(5).map((c) => c.name)).toEqual(["mcp__fx__fixture", "mcp__fx__d"]);
    expect(hub.get("fx")?.tools.map((t) => t.rawName)).toEqual(["fixture", "d"]);
  });

  it("keeps the last known good generation when a page fails", async () => {
    const { scope, log, hub, names, announce, call } = await setup();
    await using _ = scope;
    await announce({ tools: ["echo", "fixture", "new"], pageSize: 1, failPage: 2 });
    await vi.waitFor(() => expect(log.lines.some((l) => l.includes("tool list refresh failed"))).toBe(true), { timeout: 10_000, interval: 10 });
    expect(hub.get("fx")).toMatchObject({ generation: 1, toolsRegistered: true, status: { state: "ready" } });
    expect(names()).toEqual(["mcp__fx__echo", "mcp__fx__fixture"]);
    expect((await call("mcp__fx__echo", { message: "still here" })).rendered).toBe("still here");
  });

  it("keeps the last known good generation when the listing has a duplicate or an invalid tool", async () => {
    const { scope, log, hub, names, announce } = await setup();
    await using _ = scope;
    await announce({ tools: ["echo", "fixture", "x"], duplicate: "x" });
    await vi.waitFor(() => expect(log.lines.filter((l) => l.includes("tool list refresh failed"))).toHaveLength(1), { timeout: 10_000, interval: 10 });
    expect(log.lines.at(-1)).toContain('\\"x\\" more than once');
    await announce({ duplicate: null, invalid: "broken" });
    await vi.waitFor(() => expect(log.lines.filter((l) => l.includes("tool list refresh failed"))).toHaveLength(2), { timeout: 10_000, interval: 10 });
    expect(hub.get("fx")?.generation).toBe(1);
    expect(names()).toEqual(["mcp__fx__echo", "mcp__fx__fixture"]);
  });

  it("fails closed to zero tools when a foreign registration holds one of the names, and recovers when it is gone", async () => {
    const { scope, registry, log, hub, names, announce, call } = await setup();
    await using _ = scope;
    const foreign: ToolDef = {
      name: "mcp__fx__taken", description: "someone else's", capability: "extensions", inputSchema: { type: "object" }, effect: "read",
      parse: (args) => ({ ok: true, value: args }),
      run: async () => ({ canonical: null, rendered: "foreign" }),
    };
    const unregisterForeign = registry.register(foreign);

    await announce({ tools: ["echo", "fixture", "taken", "z"] });
    await vi.waitFor(() => expect(log.lines.some((l) => l.startsWith("error") && l.includes("failed closed"))).toBe(true), { timeout: 10_000, interval: 10 });
    const view = hub.get("fx")!;
    expect(view.toolsRegistered).toBe(false);
    expect(view.generation).toBe(1);
    expect(view.status.state).toBe("ready");
    expect(view.tools.map((t) => t.rawName)).toEqual(["echo", "fixture", "taken", "z"]);
    expect(names()).toEqual([]);
    expect(registry.get("mcp__fx__taken")?.description).toBe("someone else's");

    // Nothing of the server is callable now; once the foreign tool is gone, a restart registers the whole generation.
    void unregisterForeign();
    await hub.restart("fx");
    expect(names()).toEqual(["mcp__fx__echo", "mcp__fx__fixture", "mcp__fx__taken", "mcp__fx__z"]);
    expect((await call("mcp__fx__taken", { message: "m" })).rendered).toBe("taken: m");
  });
});
