import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createToolRegistry, type ToolChange } from "../../src/agent/registry.js";
import { defineTool, type ToolDef } from "../../src/agent/tool.js";
import { thrown } from "../support/errors.js";

const tool = (name: string, description = `${name} tool`): ToolDef =>
  defineTool({ name, description, capability: "test", input: z.object({}), run: async () => ({ canonical: null, rendered: name }) });

const names = (tools: ToolDef[]) => tools.map((t) => t.name);

describe("tool registry (CORE-11)", () => {
  it("shows a session the union of global tools and its own, sorted by code point", () => {
    const registry = createToolRegistry();
    registry.register(tool("read_file"));
    registry.register(tool("Zeta"));
    registry.register(tool("grep"));
    registry.register(tool("a-mine"), { sessionId: "s1" });
    registry.register(tool("theirs"), { sessionId: "s2" });
    expect(names(registry.visible())).toEqual(["Zeta", "grep", "read_file"]);
    expect(names(registry.visible("s1"))).toEqual(["Zeta", "a-mine", "grep", "read_file"]);
    expect(names(registry.visible("s2"))).toEqual(["Zeta", "grep", "read_file", "theirs"]);
    expect(registry.get("a-mine", "s1")?.name).toBe("a-mine");
    expect(registry.get("a-mine", "s2")).toBeUndefined();
    expect(registry.get("a-mine")).toBeUndefined();
    expect(registry.get("grep", "s2")?.name).toBe("grep");
  });

  it("lists the same tools in the same order regardless of registration order", () => {
    const a = createToolRegistry();
    const b = createToolRegistry();
    const defs = ["delta", "alpha", "charlie", "bravo"].map((n) => tool(n));
    for (const d of defs) a.register(d);
    for (const d of [...defs].reverse()) b.register(d);
    expect(JSON.stringify(a.visible())).toBe(JSON.stringify(b.visible()));
    expect(JSON.stringify(a.visible())).toBe(JSON.stringify(a.visible()));
  });

  it("refuses a session tool that shadows a global one, and registers nothing", () => {
    const registry = createToolRegistry();
    registry.register(tool("grep", "global grep"));
    const error = thrown(() => registry.register(tool("grep", "session grep"), { sessionId: "s1" }));
    expect(error.code).toBe("conflict:agent");
    expect(error.publicCode).toBe("duplicate_tool");
    expect(registry.get("grep", "s1")?.description).toBe("global grep");
    expect(names(registry.visible("s1"))).toEqual(["grep"]);
  });

  it("refuses a global tool whose name a session already uses", () => {
    const registry = createToolRegistry();
    registry.register(tool("mine"), { sessionId: "s1" });
    const error = thrown(() => registry.register(tool("mine")));
    expect(error.publicCode).toBe("duplicate_tool");
    expect(error.message).toContain("session s1");
    expect(names(registry.visible())).toEqual([]);
    // Two different sessions may use the same name.
    expect(() => registry.register(tool("mine"), { sessionId: "s2" })).not.toThrow();
  });

  it("refuses duplicate names within the same scope", () => {
    const registry = createToolRegistry();
    registry.register(tool("x"));
    expect(thrown(() => registry.register(tool("x"))).code).toBe("conflict:agent");
    registry.register(tool("y"), { sessionId: "s" });
    expect(thrown(() => registry.register(tool("y"), { sessionId: "s" })).publicCode).toBe("duplicate_tool");
  });

  it.each(["", "has space", "dot.ted", "x".repeat(65), "ünï"])("rejects the invalid name %j", (name) => {
    const registry = createToolRegistry();
    expect(thrown(() => registry.register(tool(name))).code).toBe("bad_input:agent");
    expect(registry.visible()).toEqual([]);
  });

  it("removes exactly one registration per disposer, idempotently", async () => {
    const registry = createToolRegistry();
    const offA = registry.register(tool("a"));
    registry.register(tool("b"));
    await offA();
    const again = registry.register(tool("a", "second a"));
    await offA();
    expect(registry.get("a")?.description).toBe("second a");
    await again();
    expect(names(registry.visible())).toEqual(["b"]);
  });

  it("frees a session name for a global tool once the session's tool is gone", async () => {
    const registry = createToolRegistry();
    const off = registry.register(tool("t"), { sessionId: "s1" });
    await off();
    expect(() => registry.register(tool("t"))).not.toThrow();
  });

  it("notifies after every register and unregister, and stops after its disposer", async () => {
    const registry = createToolRegistry();
    const seen: ToolChange[] = [];
    const presentDuringNotify: boolean[] = [];
    const off = registry.onChange((change) => {
      presentDuringNotify.push(registry.get(change.name, change.sessionId) !== undefined);
      seen.push(change);
    });
    const offA = registry.register(tool("a"), { sessionId: "s" });
    expect(() => registry.register(tool("a"))).toThrow(/already registered/);
    await offA();
    await offA();
    await off();
    registry.register(tool("c"));
    expect(seen).toEqual([
      { type: "registered", name: "a", sessionId: "s" },
      { type: "unregistered", name: "a", sessionId: "s" },
    ]);
    // Listeners observe the state after the change.
    expect(presentDuringNotify).toEqual([true, false]);
  });

  it("keeps notifying other listeners when one throws", () => {
    const errors: unknown[] = [];
    const registry = createToolRegistry({ onListenerError: (e) => errors.push(e) });
    let calls = 0;
    registry.onChange(() => { throw new Error("listener bug"); });
    registry.onChange(() => void calls++);
    registry.register(tool("a"));
    expect(calls).toBe(1);
    expect(errors).toHaveLength(1);
  });
});
