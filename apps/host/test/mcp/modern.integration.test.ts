import { spawn } from "node:child_process";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createScope } from "../../src/core/scope.js";
import { createClientHub } from "../../src/mcp/client-hub.js";
import { create as createHub } from "../../src/mcp/hub.js";
import { createApprovalBroker } from "../../src/permissions/broker.js";
import { everythingStdio, freePort, HOST_DIR, invoker, memoryLog } from "./helpers.js";

const MODERN = fileURLToPath(new URL("../fixture/mcp/modern.ts", import.meta.url));
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A hub whose elicitations land on a real broker, answered by `answer`. */
function setup(answer?: (view: { id: string; message: string }) => unknown) {
  const scope = createScope("test");
  cleanups.push(() => scope.dispose());
  const registry = createToolRegistry();
  const broker = createApprovalBroker();
  broker.onChange(() => {
    for (const p of broker.pending<{ id: string; message: string }>("mcp_elicitation")) if (answer) broker.answer(p.id, answer(p.view), { capability: "mcp", noun: "request for input" });
  });
  const clientHub = createClientHub({ broker, roots: async () => [], log: memoryLog() });
  const hub = createHub(scope, { registry, log: memoryLog(), clientHub });
  return { hub, registry, call: invoker(registry) };
}

describe("protocol versions (MCP-14)", () => {
  it("speaks 2026-07-28 to a v2 server over stdio, and 2025-11-25 to server-everything, each shown in the view", async () => {
    const { hub, call } = setup();
    await hub.start({ name: "modern", transport: { type: "stdio", command: process.execPath, args: ["--import", "tsx", MODERN, "stdio"], cwd: HOST_DIR } });
    await hub.start(everythingStdio("old"));
    const view = (name: string) => hub.list().find((v) => v.config.name === name)!;
    expect(view("modern").serverInfo).toEqual({ name: "seam-modern-fixture", version: "2.0.0", protocolVersion: "2026-07-28" });
    expect(view("modern").instructions).toBe("A 2026-07-28 peer.");
    expect(view("old").serverInfo?.protocolVersion).toBe("2025-11-25");
    expect((await call("mcp__modern__echo", { message: "hi" })).rendered).toBe("modern echo: hi");
    expect((await call("mcp__old__echo", { message: "hi" })).rendered).toContain("hi");
  });

  it("a multi-round-trip request for input (input_required) is asked like any elicitation, and the call completes", async () => {
    const asked: string[] = [];
    const { hub, registry } = setup((view) => {
      asked.push(view.message);
      return { action: "accept", content: { confirm: true } };
    });
    await hub.start({ name: "modern", transport: { type: "stdio", command: process.execPath, args: ["--import", "tsx", MODERN, "stdio"], cwd: HOST_DIR } });
    const def = registry.get("mcp__modern__deploy")!;
    const result = await def.run({ env: "staging" }, { signal: new AbortController().signal, sessionId: "s1", workspace: HOST_DIR, callId: "c1" });
    expect(asked).toEqual(["Deploy to staging?"]);
    expect(result.rendered).toBe("deployed to staging");
  });

  it("over HTTP: 2026-07-28 with a negotiating client; the same endpoint still serves 2025 traffic", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", MODERN, "http", String(port)], { cwd: HOST_DIR, stdio: ["ignore", "pipe", "inherit"] });
    cleanups.push(() => child.kill("SIGKILL"));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
      child.once("exit", (code) => reject(new Error(`the fixture exited (${code})`)));
    });
    const { hub, call } = setup();
    await hub.start({ name: "web", transport: { type: "http", url: `http://127.0.0.1:${port}/mcp` } });
    expect(hub.list()[0]!.serverInfo?.protocolVersion).toBe("2026-07-28");
    expect((await call("mcp__web__echo", { message: "over http" })).rendered).toBe("modern echo: over http");

    // A client that does not negotiate (2025-11-25 initialize) is still served by the same endpoint.
    const legacy = new Client({ name: "legacy", version: "1" });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    cleanups.push(() => legacy.close());
    expect(legacy.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(await legacy.callTool({ name: "echo", arguments: { message: "old" } })).toMatchObject({ content: [{ type: "text", text: "modern echo: old" }] });
  });
});

describe("URL elicitation by error (-32042, MCP-12)", () => {
  const start = async (answer?: (view: { id: string; message: string }) => unknown) => {
    const asked: string[] = [];
    const { hub, registry } = setup(answer && ((view) => {
      asked.push(view.message);
      return answer(view);
    }));
    // The 2025 revision, where a server asks for a browser step with the -32042 error.
    await hub.start({ name: "legacy", transport: { type: "stdio", command: process.execPath, args: ["--import", "tsx", MODERN, "stdio-2025"], cwd: HOST_DIR } });
    const run = (args: Record<string, unknown>) => registry.get("mcp__legacy__connect-account")!.run(args, { signal: new AbortController().signal, sessionId: "s1", workspace: HOST_DIR, callId: "c1" });
    return { hub, asked, run };
  };

  it("the browser step is asked like a request for input; once accepted the call goes again and succeeds", async () => {
    const { hub, asked, run } = await start(() => ({ action: "accept" }));
    expect(hub.list()[0]!.serverInfo?.protocolVersion).toBe("2025-11-25");
    expect((await run({})).rendered).toBe("account connected");
    expect(asked).toEqual(["Connect your Example account"]);
  });

  it("declined, the call fails and says which step was refused", async () => {
    const { run } = await start(() => ({ action: "decline" }));
    await expect(run({})).rejects.toMatchObject({ code: "denied:mcp", data: { reason: "elicitation_refused" }, message: expect.stringContaining("https://example.com/connect") });
  });

  it("the server's elicitation/complete answers the card by itself", async () => {
    const { asked, run } = await start();
    expect((await run({ complete: true })).rendered).toBe("account connected");
    expect(asked).toEqual([]);
  });
});
