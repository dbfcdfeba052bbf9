import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createScope } from "../../src/core/scope.js";
import { create as createHub } from "../../src/mcp/hub.js";
import { invoker, memoryLog } from "./helpers.js";

const resolve = createRequire(import.meta.url).resolve;
const FILESYSTEM = resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
const MEMORY = resolve("@modelcontextprotocol/server-memory/dist/index.js");

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup() {
  const scope = createScope("test");
  cleanups.push(() => scope.dispose());
  const registry = createToolRegistry();
  const hub = createHub(scope, { registry, log: memoryLog() });
  return { hub, call: invoker(registry) };
}

/** The reference 2025 peers besides server-everything, through the v2 client with version negotiation (MCP-14). */
describe("the public 2025 peers: filesystem and memory", () => {
  it("filesystem: negotiates 2025-11-25, reads a real file and writes one, only inside its root", async () => {
    const root = mkdtempSync(join(tmpdir(), "seam-fs-peer-"));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    writeFileSync(join(root, "hello.txt"), "hello from disk\n");
    const { hub, call } = setup();
    await hub.start({ name: "fs", transport: { type: "stdio", command: process.execPath, args: [FILESYSTEM, root] } });
    expect(hub.list()[0]!.serverInfo?.protocolVersion).toBe("2025-11-25");
    expect((await call("mcp__fs__read_text_file", { path: join(root, "hello.txt") })).rendered).toContain("hello from disk");
    const wrote = await call("mcp__fs__write_file", { path: join(root, "new.txt"), content: "written by Seam" });
    expect(wrote.status).toBe("ok");
    expect(readFileSync(join(root, "new.txt"), "utf8")).toBe("written by Seam");
    const outside = await call("mcp__fs__read_text_file", { path: "/etc/hostname" });
    expect(outside.status).toBe("error");
    expect(outside.rendered).toMatch(/denied|outside|not allowed/i);
  });

  it("memory: negotiates 2025-11-25 and keeps what it is told between calls", async () => {
    const dir = mkdtempSync(join(tmpdir(), "seam-memory-peer-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { hub, call } = setup();
    await hub.start({ name: "memory", transport: { type: "stdio", command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: { value: join(dir, "memory.jsonl") } } } });
    expect(hub.list()[0]!.serverInfo?.protocolVersion).toBe("2025-11-25");
    const created = await call("mcp__memory__create_entities", { entities: [{ name: "Seam", entityType: "project", observations: ["speaks MCP 2026-07-28"] }] });
    expect(created.status).toBe("ok");
    const found = await call("mcp__memory__search_nodes", { query: "Seam" });
    expect(found.rendered).toContain("speaks MCP 2026-07-28");
  });
});
