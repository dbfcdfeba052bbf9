import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LiveEvent } from "@seam/shared";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { mergeTopics } from "../../src/trpc/routers/live.js";
import { appRouter } from "../../src/trpc/root.js";
import { startTestHost } from "../support/host.js";

describe("live.stream: one stream for every topic a page watches", () => {
  let scope: Scope;
  let host: HostApi;
  beforeAll(async () => ({ scope, host } = await startTestHost()));
  afterAll(() => scope.dispose());

  const take = async (it: AsyncIterator<LiveEvent>, until: (e: LiveEvent) => boolean) => {
    const seen: LiveEvent[] = [];
    for (let i = 0; i < 50; i++) {
      const { value, done } = await it.next();
      if (done) break;
      seen.push(value);
      if (until(value)) return seen;
    }
    throw new Error(`not seen; got ${JSON.stringify(seen).slice(0, 500)}`);
  };

  it("subscribes every topic before `started`, then carries each topic's data tagged with it", async () => {
    const page = new AbortController();
    const session = await host.sessions.create({ workspace: mkdtempSync(join(tmpdir(), "seam-live-")), title: "live" });
    const it = mergeTopics(host.live, ["sessions", `session:${session.id}`, "extensions", "mcp"], page.signal)[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ kind: "started" });
    // Snapshot topics send their state first.
    const seenTopics = new Set<string>();
    await take(it, (e) => {
      if (e.kind === "data") seenTopics.add(e.topic);
      return seenTopics.has("mcp") && seenTopics.has("extensions");
    });
    // A change right after `started` is not lost.
    await host.sessions.rename(session.id, "renamed");
    const renamed = await take(it, (e) => e.kind === "data" && e.topic === "sessions");
    const list = (renamed.at(-1) as { data: { title: string }[] }).data;
    expect(list.map((s) => s.title)).toContain("renamed");
    await host.sessions.callTool({ sessionId: session.id, name: "list_dir", args: {} });
    await take(it, (e) => e.kind === "data" && e.topic === `session:${session.id}`);
    page.abort();
    expect((await it.next()).done).toBe(true);
  });

  it("carries topic jobs: a session's background jobs after each change", async () => {
    const page = new AbortController();
    const session = await host.sessions.create({ workspace: mkdtempSync(join(tmpdir(), "seam-live-jobs-")), title: "jobs" });
    const it = mergeTopics(host.live, ["jobs"], page.signal)[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ kind: "started" });
    expect(await host.shell.jobs.list(session.id)).toEqual([]);
    // Auto mode: the command runs without an approval.
    await host.sessions.setMode(session.id, "auto");
    await host.sessions.callTool({ sessionId: session.id, name: "bash", args: { command: "sleep 30", background: true } });
    const seen = await take(it, (e) => e.kind === "data" && e.topic === "jobs" && e.data.sessionId === session.id && e.data.jobs.length === 1);
    const change = seen.at(-1) as { data: { jobs: { id: string; state: string }[] } };
    expect(change.data.jobs[0]?.state).toBe("running");
    await host.shell.jobs.kill(session.id, change.data.jobs[0]!.id);
    await take(it, (e) => e.kind === "data" && e.topic === "jobs" && e.data.jobs[0]?.state === "killed");
    page.abort();
  });

  it("refuses unknown topics before opening anything", async () => {
    const caller = appRouter.createCaller({ host });
    await expect(caller.live.stream({ topics: ["everything" as never] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
