import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { McpServerView, ToolCallItem } from "@seam/shared";
import { TRPCError } from "@trpc/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createHost } from "../../src/host.js";
import type { HostApi } from "../../src/host-api.js";
import { appRouter } from "../../src/trpc/root.js";
import { everythingStdio, HOST_DIR } from "./helpers.js";
import { storedText } from "../support/db-url.js";

/** The real host: Prisma-backed service, real hub, real server-everything over stdio (MCP-10). */
let open: { scope: Scope; host: HostApi; home: string }[] = [];
const homes: string[] = [];
const start = async (home = mkdtempSync(join(tmpdir(), "seam-mcp-host-"))) => {
  if (!homes.includes(home)) homes.push(home);
  const scope = createScope("test-host");
  const host = await createHost(scope, { home, env: { SEAM_MODEL_PROVIDER: "none" }, version: "test" });
  const h = { scope, host, home };
  open.push(h);
  return h;
};
afterEach(async () => {
  for (const h of open.reverse()) await h.scope.dispose();
  open = [];
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const trpcCode = (code: string) => (e: unknown) => e instanceof TRPCError && e.code === code;
const state = (host: HostApi, name: string) => host.mcp.list().find((v) => v.config.name === name)?.status.state;

describe("MCP service with the real hub and server-everything", () => {
  it("adds through tRPC, goes ready, registers mcp__everything__echo, and a call returns the echo", async () => {
    const { host } = await start();
    const caller = appRouter.createCaller({ host });
    const view = await caller.mcp.add(everythingStdio());
    expect(view.status.state).toBe("ready");
    expect(view.generation).toBeGreaterThan(0);
    expect(view.tools.map((t) => t.publicName)).toContain("mcp__everything__echo");
    expect((await host.tools.list()).map((t) => t.name)).toContain("mcp__everything__echo");

    const caps = await host.capabilities.list();
    expect(caps.find((c) => c.id === "mcp")).toMatchObject({ codePresent: true, configured: true, visible: true, ready: true });

    const session = await host.sessions.create({ workspace: HOST_DIR, title: "mcp" });
    await host.sessions.callTool({ sessionId: session.id, name: "mcp__everything__echo", args: { message: "hello seam" } });
    await vi.waitFor(async () => {
      const call = (await host.sessions.detail(session.id)).items.find((i): i is ToolCallItem => i.kind === "tool_call");
      expect(call).toMatchObject({ status: "ok", rendered: expect.stringContaining("hello seam") });
      expect(call?.canonical).toMatchObject({ type: "mcp", server: "everything", tool: "echo" });
    }, { timeout: 15_000 });

    await caller.mcp.setEnabled({ name: "everything", enabled: false });
    expect((await host.tools.list()).map((t) => t.name)).not.toContain("mcp__everything__echo");
    expect(state(host, "everything")).toBe("disabled");
    await caller.mcp.remove({ name: "everything" });
    expect(await caller.mcp.list()).toEqual([]);
  });

  it("refuses bad input, duplicates and failed activations, and saves nothing (SEC-5)", async () => {
    const { host } = await start();
    const caller = appRouter.createCaller({ host });
    await expect(caller.mcp.add({ name: "x", transport: { type: "stdio", command: "" } } as never)).rejects.toSatisfy(trpcCode("BAD_REQUEST"));
    await expect(caller.mcp.add({ name: "h", transport: { type: "http", url: "nope" } } as never)).rejects.toSatisfy(trpcCode("BAD_REQUEST"));
    await expect(caller.mcp.add({ name: "s", transport: { type: "stdio", command: "x", env: { GITHUB_TOKEN: { value: "ghp_x" } } } } as never))
      .rejects.toSatisfy(trpcCode("BAD_REQUEST"));
    const missing = caller.mcp.add({ name: "missing", failOnStartupError: true, startupTimeoutMs: 5_000, transport: { type: "stdio", command: join(HOST_DIR, "no-such-binary") } });
    await expect(missing).rejects.toThrow(/The command '.*no-such-binary' was not found \(ENOENT\)/);
    expect(await caller.mcp.list()).toEqual([]);

    await caller.mcp.add(everythingStdio("dup"));
    await expect(caller.mcp.add(everythingStdio("dup"))).rejects.toSatisfy(trpcCode("CONFLICT"));
    await expect(caller.mcp.remove({ name: "ghost" })).rejects.toSatisfy(trpcCode("NOT_FOUND"));
    expect((await caller.mcp.list()).map((v) => v.config.name)).toEqual(["dup"]);
  });

  it("pushes snapshots over the events subscription as a server connects", async () => {
    const { host } = await start();
    const ac = new AbortController();
    const seen: string[] = [];
    const done = (async () => {
      for await (const list of host.live.mcp(ac.signal)) {
        const s = (list as McpServerView[]).find((v) => v.config.name === "everything")?.status.state ?? "none";
        if (seen.at(-1) !== s) seen.push(s);
        if (s === "ready") ac.abort();
      }
    })();
    await host.mcp.add(everythingStdio());
    await done;
    expect(seen[0]).toBe("none");
    expect(seen.at(-1)).toBe("ready");
  });

  it("starts saved servers again after a host restart, in the background", async () => {
    const first = await start();
    await first.host.mcp.add(everythingStdio());
    await first.host.mcp.add(everythingStdio("off", { enabled: false }));
    await first.scope.dispose();
    open = open.filter((h) => h !== first);

    const again = await start(first.home);
    expect(["connecting", "ready"]).toContain(state(again.host, "everything"));
    expect(state(again.host, "off")).toBe("disabled");
    await vi.waitFor(() => expect(state(again.host, "everything")).toBe("ready"), { timeout: 20_000 });
  });

  it("an import with pasted secrets leaves no secret in the database files (SEC-2)", async () => {
    const { host, home } = await start();
    const doc = JSON.stringify({
      mcpServers: {
        gh: { command: "npx", args: ["-y", "x"], env: { GITHUB_TOKEN: "ghp_PastedSecretValue001" }, disabled: true },
        api: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer PastedBearer002", "X-Api-Key": "PastedKey003" }, disabled: true },
      },
    });
    const result = await host.mcp.importApply(doc);
    expect(result.applied.map((a) => a.name).sort()).toEqual(["api", "gh"]);
    const bytes = await storedText(home);
    expect(bytes).toContain("GITHUB_TOKEN");
    for (const secret of ["ghp_PastedSecretValue001", "PastedBearer002", "PastedKey003"]) expect(bytes).not.toContain(secret);
  });
});
