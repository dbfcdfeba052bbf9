import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolCallItem } from "@seam/shared";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HostApi } from "../../src/host-api.js";
import type { Scope } from "../../src/core/scope.js";
import { appRouter } from "../../src/trpc/root.js";
import { startTestHost } from "../support/host.js";

const HOST = `let n = 0;
api.tools.register({ name: "counter_increment", description: "Adds one" }, () => { n += 1; api.send({ n }); return { n }; });
api.handle("get", () => ({ n }));`;

/** The whole host: tools through the session's direct mode, the page's side through tRPC (EXT-1, EXT-5, EXT-6). */
describe("extensions through the host and tRPC", () => {
  let scope: Scope;
  let host: HostApi;
  let workspace: string;
  beforeAll(async () => {
    ({ scope, host } = await startTestHost());
    workspace = mkdtempSync(join(tmpdir(), "seam-ext-ws-"));
  });
  afterAll(() => scope.dispose());

  const idle = async (sessionId: string) => {
    for (let i = 0; i < 500; i++) {
      const detail = await host.sessions.detail(sessionId);
      if (!detail.session.running) return detail;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("the turn did not finish");
  };
  const lastCall = async (sessionId: string) => {
    const calls = (await idle(sessionId)).items.filter((i): i is ToolCallItem => i.kind === "tool_call");
    return calls.at(-1)!;
  };

  it("defines, asks every page, runs on approval, and the session's tool list follows the run", async () => {
    const caller = appRouter.createCaller({ host });
    const session = await host.sessions.create({ workspace, title: "ext" });
    expect((await caller.capabilities.list()).find((r) => r.id === "extensions")).toMatchObject({ ready: true });

    await host.sessions.callTool({ sessionId: session.id, name: "extension_define", args: { name: "counter", purpose: "counts", host: "let x = ;" } });
    const refused = await lastCall(session.id);
    expect(refused).toMatchObject({ status: "error", error: { code: "syntax_error" } });
    expect((await caller.extensions.snapshot()).packages).toEqual([]);

    await host.sessions.callTool({ sessionId: session.id, name: "extension_define", args: { name: "counter", purpose: "counts", host: HOST } });
    expect(await lastCall(session.id)).toMatchObject({ status: "ok", canonical: { name: "counter", version: 1, created: true } });

    await host.sessions.callTool({ sessionId: session.id, name: "extension_run", args: { name: "counter" } });
    let request;
    for (let i = 0; i < 200 && !request; i++) {
      request = (await caller.extensions.snapshot()).approvals[0];
      if (!request) await new Promise((r) => setTimeout(r, 10));
    }
    expect(request).toBeDefined();
    // A bad answer changes nothing; the request stays pending.
    await expect(caller.extensions.answer({ id: request!.id, decision: "maybe" } as never)).rejects.toBeInstanceOf(TRPCError);
    expect((await caller.extensions.snapshot()).approvals).toHaveLength(1);
    await caller.extensions.answer({ id: request!.id, decision: "allow" });
    await expect(caller.extensions.answer({ id: request!.id, decision: "deny" })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await lastCall(session.id)).toMatchObject({ status: "ok", canonical: { name: "counter", state: "running", tools: ["counter_increment"] } });
    expect((await caller.tools.list({ sessionId: session.id })).map((t) => t.name)).toContain("counter_increment");

    const snap = await caller.extensions.snapshot();
    const run = snap.runs.find((r) => r.state === "running")!;
    expect(run.tools).toEqual(["counter_increment"]);
    await caller.extensions.stop({ runId: run.runId });
    expect((await caller.tools.list({ sessionId: session.id })).map((t) => t.name)).not.toContain("counter_increment");
  });

  it("inspect shows the API and only this session's packages", async () => {
    const a = await host.sessions.create({ workspace, title: "a" });
    const b = await host.sessions.create({ workspace, title: "b" });
    await host.sessions.callTool({ sessionId: a.id, name: "extension_define", args: { name: "only-in-a", purpose: "p", host: "api.log(1)" } });
    await idle(a.id);
    await host.sessions.callTool({ sessionId: b.id, name: "extension_inspect", args: {} });
    const inspect = await lastCall(b.id);
    expect(inspect.status).toBe("ok");
    expect(inspect.rendered).toContain("api.tools.register");
    expect(inspect.rendered).toContain("seam.call");
    expect(inspect.rendered).not.toContain("only-in-a");
    await host.sessions.callTool({ sessionId: b.id, name: "extension_run", args: { name: "only-in-a" } });
    expect(await lastCall(b.id)).toMatchObject({ status: "error", error: { code: "definition_missing" } });
  });

  it("a deleted session's packages go with it", async () => {
    const caller = appRouter.createCaller({ host });
    const gone = await host.sessions.create({ workspace, title: "gone" });
    await host.sessions.callTool({ sessionId: gone.id, name: "extension_define", args: { name: "temp", purpose: "p", host: "api.log(1)" } });
    await idle(gone.id);
    expect((await caller.extensions.snapshot()).packages.some((p) => p.sessionId === gone.id)).toBe(true);
    await host.sessions.remove(gone.id);
    expect((await caller.extensions.snapshot()).packages.some((p) => p.sessionId === gone.id)).toBe(false);
  });
});
