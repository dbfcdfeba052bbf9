import { getEventListeners } from "node:events";
import { Client } from "@modelcontextprotocol/client";
import { McpServerConfig } from "@seam/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createToolRegistry, type ToolChange } from "../../src/agent/registry.js";
import type { ToolDef } from "../../src/agent/tool.js";
import { fetchTools, SerialChain, ToolGenerations, type FetchLimits, type McpTool } from "../../src/mcp/sync.js";
import { createTransport } from "../../src/mcp/transport.js";
import { fixture } from "./helpers.js";

describe("fetchTools: phase one of a sync (MCP-4)", () => {
  let scope: Scope;
  let client: Client;
  const fx = fixture("fx", { tools: ["a", "b", "c", "d", "e"] });
  const limits: FetchLimits = { maxPages: 100, maxTools: 100, timeoutMs: 10_000 };

  beforeAll(async () => {
    scope = createScope("test");
    client = new Client({ name: "t", version: "0" });
    await client.connect(createTransport(scope, McpServerConfig.parse(fx.config)).transport);
  });
  afterAll(async () => {
    await client.close();
    await scope.dispose();
    fx.cleanup();
  });

  const set = (state: Parameters<typeof fx.write>[0]) => fx.write({ pageSize: 0, failPage: undefined, duplicate: undefined, invalid: undefined, ...state });

  it("follows nextCursor through every page, in order", async () => {
    set({ pageSize: 2 });
    const tools = await fetchTools(client, "fx", limits);
    expect(tools.map((t) => t.rawName)).toEqual(["a", "b", "c", "d", "e"]);
    expect(tools.map((t) => t.publicName)).toEqual(["mcp__fx__a", "mcp__fx__b", "mcp__fx__c", "mcp__fx__d", "mcp__fx__e"]);
    expect(tools[0]).toMatchObject({ description: "Fixture tool a.", inputSchema: { type: "object" }, outputSchema: null, taskRequired: false });
  });

  it("leaves no abort listener behind on the caller's signal, however many pages", async () => {
    set({ pageSize: 1 });
    const controller = new AbortController();
    await fetchTools(client, "fx", { ...limits, signal: controller.signal });
    await fetchTools(client, "fx", { ...limits, signal: controller.signal });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("stops when the caller's signal aborts", async () => {
    set({});
    await expect(fetchTools(client, "fx", { ...limits, signal: AbortSignal.abort(new Error("stop")) })).rejects.toThrow(/stop/);
  });

  it("fails when any page fails", async () => {
    set({ pageSize: 2, failPage: 2 });
    await expect(fetchTools(client, "fx", limits)).rejects.toMatchObject({ message: expect.stringContaining("page 3 failed"), data: { reason: "tools_list_failed" } });
  });

  it("refuses a listing with a duplicate raw name, even across pages", async () => {
    set({ pageSize: 2, duplicate: "a" });
    await expect(fetchTools(client, "fx", limits)).rejects.toMatchObject({ message: expect.stringContaining('"a" more than once'), data: { reason: "invalid_tool_list" } });
  });

  it("refuses a listing with an invalid tool and names it", async () => {
    set({ invalid: "weird" });
    await expect(fetchTools(client, "fx", limits)).rejects.toThrow(/tool 6 "weird".*inputSchema.type/);
  });

  it("caps pages and tools", async () => {
    set({ pageSize: 1 });
    await expect(fetchTools(client, "fx", { ...limits, maxPages: 3 })).rejects.toThrow(/more than 3 pages/);
    await expect(fetchTools(client, "fx", { ...limits, maxTools: 4 })).rejects.toThrow(/more than 4 tools/);
  });

  it("marks task-required tools", async () => {
    fx.write({ tools: ["task", "echo"], pageSize: 0, failPage: undefined, duplicate: undefined, invalid: undefined });
    const tools = await fetchTools(client, "fx", limits);
    expect(tools.map((t) => [t.rawName, t.taskRequired])).toEqual([["task", true], ["echo", false]]);
    fx.write({ tools: ["a", "b", "c", "d", "e"] });
  });
});

describe("ToolGenerations: phase two, whole or nothing (MCP-4)", () => {
  const tool = (raw: string): McpTool => ({ publicName: `mcp__s__${raw}`, rawName: raw, description: raw, inputSchema: { type: "object" }, outputSchema: null, taskRequired: false, readOnlyHint: false });
  const def = (t: McpTool, generation: number): ToolDef => ({
    name: t.publicName, description: `${t.rawName}@${generation}`, capability: "mcp", inputSchema: t.inputSchema, effect: "external",
    parse: (args) => ({ ok: true, value: args }),
    run: async () => ({ canonical: generation, rendered: String(generation) }),
  });

  it("disposes the previous generation, then registers all of the next", () => {
    const registry = createToolRegistry();
    const changes: ToolChange[] = [];
    registry.onChange((c) => void changes.push(c));
    const gens = new ToolGenerations(registry, def);
    expect(gens.swap([tool("a"), tool("b")])).toBeUndefined();
    expect(gens.number).toBe(1);
    changes.length = 0;
    expect(gens.swap([tool("b"), tool("c")])).toBeUndefined();
    expect(gens.number).toBe(2);
    expect(changes.map((c) => `${c.type} ${c.name}`)).toEqual([
      "unregistered mcp__s__b", "unregistered mcp__s__a", "registered mcp__s__b", "registered mcp__s__c",
    ]);
    expect(registry.visible().map((t) => t.description)).toEqual(["b@2", "c@2"]);
    expect(gens.registered).toBe(true);
  });

  it("fails closed to zero tools when a foreign registration holds a name", () => {
    const registry = createToolRegistry();
    const gens = new ToolGenerations(registry, def);
    gens.swap([tool("a")]);
    const foreign = registry.register({ ...def(tool("c"), 0), description: "foreign" });
    const conflict = gens.swap([tool("a"), tool("b"), tool("c"), tool("d")]);
    expect(conflict?.code).toBe("conflict:mcp");
    expect(conflict?.publicCode).toBe("tool_name_conflict");
    expect(registry.visible().map((t) => t.description)).toEqual(["foreign"]);
    expect(gens.registered).toBe(false);
    expect(gens.number).toBe(1);
    expect(gens.tools.map((t) => t.rawName)).toEqual(["a", "b", "c", "d"]);
    void foreign();
    expect(gens.swap([tool("a"), tool("c")])).toBeUndefined();
    expect(registry.visible().map((t) => t.description)).toEqual(["a@2", "c@2"]);
  });

  it("unregister() removes the generation and keeps the listing for the view", () => {
    const registry = createToolRegistry();
    const gens = new ToolGenerations(registry, def);
    gens.swap([tool("a")]);
    gens.unregister();
    expect(registry.visible()).toEqual([]);
    expect(gens.registered).toBe(false);
    expect(gens.tools).toHaveLength(1);
  });
});

describe("SerialChain", () => {
  it("runs tasks one at a time, in order, past failures", async () => {
    const chain = new SerialChain();
    const log: string[] = [];
    let release!: () => void;
    const first = chain.run(async () => {
      log.push("1 start");
      await new Promise<void>((r) => (release = r));
      log.push("1 end");
    });
    const second = chain.run(async () => {
      log.push("2");
      throw new Error("boom");
    });
    const third = chain.run(async () => void log.push("3"));
    await Promise.resolve();
    expect(log).toEqual(["1 start"]);
    release();
    await first;
    await expect(second).rejects.toThrow("boom");
    await third;
    await chain.drain();
    expect(log).toEqual(["1 start", "1 end", "2", "3"]);
  });
});
