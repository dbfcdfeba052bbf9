import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolCallItem } from "@seam/shared";
import { TRPCError } from "@trpc/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createHost } from "../../src/host.js";
import type { HostApi } from "../../src/host-api.js";
import { appRouter } from "../../src/trpc/root.js";
import { copyFixture, FAKE_SERVER } from "./helpers.js";

/** The real host (Prisma-backed settings) through tRPC, with the lsp tool called in a session (LSP-3, LSP-7). */
let open: { scope: Scope; host: HostApi }[] = [];
const homes: string[] = [];
const start = async (home = mkdtempSync(join(tmpdir(), "seam-lsp-host-"))) => {
  if (!homes.includes(home)) homes.push(home);
  const scope = createScope("test-host", { slowDisposeMs: Infinity });
  const host = await createHost(scope, { home, env: { SEAM_MODEL_PROVIDER: "none" }, version: "test" });
  open.push({ scope, host });
  return { scope, host, home };
};
afterEach(async () => {
  for (const h of open.reverse()) await h.scope.dispose();
  open = [];
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const trpcError = (e: unknown) => (e instanceof TRPCError ? e : null);

describe("LSP in the host", () => {
  it("fresh install: TypeScript routed, the lsp tool visible, a session's call renders the definition", async () => {
    using fixture = copyFixture("ts-project");
    const { host } = await start();
    const caller = appRouter.createCaller({ host });
    expect((await caller.lsp.servers()).map((v) => [v.config.id, v.active])).toEqual([["typescript", true]]);
    expect((await host.tools.list()).map((t) => t.name)).toContain("lsp");
    expect((await host.capabilities.list()).find((c) => c.id === "lsp")).toMatchObject({ codePresent: true, configured: true, visible: true, ready: true, tools: ["lsp"] });

    const session = await host.sessions.create({ workspace: fixture.ws, title: "lsp" });
    await host.sessions.callTool({ sessionId: session.id, name: "lsp", args: { operation: "goToDefinition", filePath: "src/main.ts", line: 4, character: 22 } });
    await vi.waitFor(async () => {
      const call = (await host.sessions.detail(session.id)).items.find((i): i is ToolCallItem => i.kind === "tool_call");
      expect(call).toMatchObject({ status: "ok", rendered: expect.stringContaining("src/math.ts:1:17: export function add(") });
      expect(call?.canonical).toMatchObject({ operation: "goToDefinition", truncated: false, locations: [{ path: "src/math.ts", line: 1, character: 17 }] });
    }, { timeout: 60_000 });
    const [ts] = await caller.lsp.servers();
    expect(ts!.processes).toMatchObject([{ serverId: "typescript", workspace: fixture.ws, state: "ready", restarts: 0 }]);
    expect((await host.processes.list()).some((p) => p.label === "lsp:typescript" && p.state === "running")).toBe(true);
  }, 90_000);

  it("refusals map to tRPC codes with the host code; changes persist across a restart", async () => {
    const { host, scope, home } = await start();
    const caller = appRouter.createCaller({ host });
    const conflict = trpcError(await caller.lsp.add({ id: "deno", command: process.execPath, args: [FAKE_SERVER], extensions: [".ts"], enabled: true, idleTimeoutMs: 600_000 }).catch((e: unknown) => e));
    expect(conflict?.code).toBe("CONFLICT");
    expect(conflict?.message).toContain('.ts is claimed by both "typescript" and "deno"');
    // bash-language-server is installed (a devDependency): a missing one is an absolute path that does not exist.
    const missing = trpcError(await caller.lsp.add({ id: "bash", command: "/nonexistent/bin/bash-language-server", args: ["start"], extensions: [".sh"], enabled: true, idleTimeoutMs: 600_000 }).catch((e: unknown) => e));
    expect(missing?.code).toBe("BAD_REQUEST");
    expect(missing?.message).toMatch(/^command: /);
    const invalid = trpcError(await caller.lsp.add({ id: "x", command: "x", args: [], extensions: [], enabled: true, idleTimeoutMs: 600_000 }).catch((e: unknown) => e));
    expect(invalid?.code).toBe("BAD_REQUEST");
    expect((await caller.lsp.servers()).map((v) => v.config.id)).toEqual(["typescript"]);

    const python = (await caller.lsp.presets()).find((p) => p.id === "python")!;
    await caller.lsp.add(python.config);
    await caller.lsp.update({ id: "typescript", config: { ...(await caller.lsp.servers())[0]!.config, enabled: false } });
    await scope.dispose();
    open = open.filter((h) => h.scope !== scope);

    const again = await start(home);
    const views = await appRouter.createCaller({ host: again.host }).lsp.servers();
    expect(views.map((v) => [v.config.id, v.config.enabled, v.active])).toEqual([["typescript", false, false], ["python", true, true]]);
    expect((await again.host.tools.list()).find((t) => t.name === "lsp")?.description).toContain("Files handled now: .py .pyi.");
  }, 60_000);
});
