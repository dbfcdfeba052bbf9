import type { McpServerConfigInput } from "@seam/shared";
import { describe, expect, it, vi } from "vitest";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createToolRegistry } from "../../src/agent/registry.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Transport } from "@modelcontextprotocol/client";
import { createMcpHub } from "../../src/mcp/hub.js";
import { createTransport, type TransportFactory } from "../../src/mcp/transport.js";
import type { McpCanonicalResult } from "../../src/mcp/results.js";
import { everythingStdio, invoker, ManualClock, memoryLog, recordingTransport, startEverythingHttp, waitForState } from "./helpers.js";

async function hubOn(scope: Scope, config: McpServerConfigInput, clock?: ManualClock) {
  const registry = createToolRegistry();
  const hub = createMcpHub(scope, { registry, log: memoryLog(), clock });
  await hub.start(config);
  return { hub, registry };
}

describe("against @modelcontextprotocol/server-everything", () => {
  // What both transports must show against the real reference server.
  it.each([
    { transport: "stdio", config: async () => everythingStdio() },
    {
      transport: "Streamable HTTP",
      config: async (scope: Scope): Promise<McpServerConfigInput> => {
        const server = await startEverythingHttp(scope.child("server"));
        return { name: "everything", transport: { type: "http", url: server.url } };
      },
    },
  ])("over $transport", async ({ config }) => {
    await using scope = createScope("test");
    const { hub, registry } = await hubOn(scope, await config(scope));
    const view = hub.get("everything")!;
    expect(view.status.state).toBe("ready");
    expect(view.serverInfo).toEqual({ name: "mcp-servers/everything", version: expect.any(String), protocolVersion: "2025-11-25" });
    expect(view.instructions).toContain("Everything");
    const names = registry.visible().map((t) => t.name);
    expect(names).toContain("mcp__everything__echo");
    expect(names).toContain("mcp__everything__get-sum");
    expect(names).toContain("mcp__everything__get-tiny-image");
    expect(names.every((n) => n.startsWith("mcp__everything__"))).toBe(true);
    expect(view.tools.map((t) => t.publicName)).toEqual(view.tools.map((t) => `mcp__everything__${t.rawName}`));

    const call = invoker(registry);
    const echo = await call("mcp__everything__echo", { message: "hello bridge" });
    expect(echo.status).toBe("ok");
    expect(echo.rendered).toBe("Echo: hello bridge");

    const sum = await call("mcp__everything__get-sum", { a: 2, b: 3 });
    expect(sum.rendered).toContain("5");

    const image = await call("mcp__everything__get-tiny-image", {});
    expect(image.status).toBe("ok");
    const canonical = image.canonical as McpCanonicalResult;
    const block = canonical.content.find((b) => (b as { type: string }).type === "image") as { data: string; mimeType: string };
    expect(block.mimeType).toBe("image/png");
    expect(Buffer.from(block.data, "base64").subarray(1, 4).toString()).toBe("PNG");
    expect(image.rendered).toMatch(/\[image: image\/png, [\d.]+ (B|KB)\]/);
    expect(image.rendered).not.toContain(block.data.slice(0, 32));

    const structured = await call("mcp__everything__get-structured-content", { location: "Chicago" });
    expect(structured.status).toBe("ok");
    expect(structured.canonical).toMatchObject({ structured: "valid", structuredContent: { temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) } });

    const bad = await call("mcp__everything__get-sum", { a: "two" });
    expect(bad.error?.code).toBe("invalid_arguments");

    const task = await call("mcp__everything__simulate-research-query", { topic: "x" });
    expect(task.error?.code).toBe("mcp_task_required");
  });

  it("supervises Streamable HTTP servers: a dropped server is an outage, and the bridge reconnects", async () => {
    await using scope = createScope("test");
    const clock = new ManualClock();
    const first = scope.child("server-1");
    const server = await startEverythingHttp(first);
    const { hub, registry } = await hubOn(scope, { name: "everything", transport: { type: "http", url: server.url } }, clock);
    const call = invoker(registry);
    expect((await call("mcp__everything__echo", { message: "one" })).rendered).toBe("Echo: one");

    await first.dispose();
    // The next call fails on the transport: it is reported to the model and starts recovery.
    const during = await call("mcp__everything__echo", { message: "two" });
    expect(during.status).toBe("error");
    expect(during.error?.code).toBe("generation_unavailable");
    await vi.waitFor(() => expect(clock.pending("retry")).toHaveLength(1), { timeout: 15_000, interval: 10 });
    expect(hub.get("everything")?.status).toMatchObject({ state: "retrying", attempt: 1 });
    expect(registry.get("mcp__everything__echo")).toBeDefined();

    await startEverythingHttp(scope.child("server-2"), server.port);
    clock.fire("retry");
    await waitForState(hub, "everything", "ready");
    expect(hub.get("everything")?.generation).toBe(2);
    expect((await call("mcp__everything__echo", { message: "three" })).rendered).toBe("Echo: three");
  });

  it("notices a dropped HTTP server without any call, through its health ping", async () => {
    await using scope = createScope("test");
    const clock = new ManualClock();
    const first = scope.child("server-1");
    const server = await startEverythingHttp(first);
    // Hide transport errors (the dropped event stream) so that only the periodic ping can find out.
    const transport: TransportFactory = (s, config) => {
      const handle = createTransport(s, config);
      return { ...handle, kind: handle.kind, transport: withoutErrors(handle.transport), terminate: handle.terminate };
    };
    const registry = createToolRegistry();
    const hub = createMcpHub(scope, { registry, log: memoryLog(), clock, transport });
    await hub.start({ name: "everything", transport: { type: "http", url: server.url } });
    expect(clock.pending("ping").map((t) => t.ms)).toEqual([15_000]);
    clock.fire("ping");
    await vi.waitFor(() => expect(clock.pending("ping")).toHaveLength(1), { timeout: 10_000, interval: 10 }); // healthy: scheduled again
    expect(hub.get("everything")?.status.state).toBe("ready");

    await first.dispose();
    expect(hub.get("everything")?.status.state).toBe("ready");
    clock.fire("ping");
    await vi.waitFor(() => expect(clock.pending("retry")).toHaveLength(1), { timeout: 15_000, interval: 10 });
    expect(hub.get("everything")?.status).toMatchObject({ state: "retrying", attempt: 1, lastError: expect.stringContaining("ping failed") });
    expect(clock.pending("ping")).toHaveLength(0);
  });

  it("a session the server dropped is an outage too, and recovery opens a new session", async () => {
    await using scope = createScope("test");
    const clock = new ManualClock();
    const server = await startEverythingHttp(scope.child("server"));
    const { transport, handles } = recordingTransport();
    const registry = createToolRegistry();
    const hub = createMcpHub(scope, { registry, log: memoryLog(), clock, transport });
    await hub.start({ name: "everything", transport: { type: "http", url: server.url } });
    const call = invoker(registry);
    const http = handles[0]!.transport as StreamableHTTPClientTransport;
    const oldSession = http.sessionId;
    expect(oldSession).toBeTruthy();
    await http.terminateSession(); // the server forgets the session

    const during = await call("mcp__everything__echo", { message: "stale session" });
    expect(during.error?.code).toBe("generation_unavailable");
    await vi.waitFor(() => expect(clock.pending("retry")).toHaveLength(1), { timeout: 15_000, interval: 10 });
    clock.fire("retry");
    await waitForState(hub, "everything", "ready");
    expect((handles.at(-1)!.transport as StreamableHTTPClientTransport).sessionId).not.toBe(oldSession);
    expect((await call("mcp__everything__echo", { message: "fresh" })).rendered).toBe("Echo: fresh");
  });
});

describe("Streamable HTTP session lifecycle", () => {
  it("stop() ends the session on the server", async () => {
    await using scope = createScope("test");
    const server = await startEverythingHttp(scope.child("server"));
    const { transport, handles } = recordingTransport();
    const hub = createMcpHub(scope, { registry: createToolRegistry(), log: memoryLog(), transport });
    await hub.start({ name: "everything", transport: { type: "http", url: server.url } });
    const session = (handles[0]!.transport as StreamableHTTPClientTransport).sessionId!;
    const ping = () => fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect((await ping()).status).toBe(200);
    await hub.stop("everything");
    expect((await ping()).status).toBeGreaterThanOrEqual(400);
  });
});

/** A transport that forwards everything except error reports. */
function withoutErrors(inner: Transport): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    setProtocolVersion: (v) => inner.setProtocolVersion?.(v),
    get sessionId() {
      return inner.sessionId;
    },
  };
  inner.onmessage = (message, extra) => outer.onmessage?.(message, extra);
  inner.onclose = () => outer.onclose?.();
  return outer;
}
