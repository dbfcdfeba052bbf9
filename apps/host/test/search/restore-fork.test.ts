import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FactItem, MessageItem, TimelineItem } from "@seam/shared";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { HostError } from "../../src/core/errors.js";
import { restoreAndFork, type RestoreForkDeps } from "../../src/checkpoints/restore-fork.js";
import { appRouter } from "../../src/trpc/root.js";
import { startTestHost } from "../support/host.js";

/** "Restore to here" rewinds the files AND forks the conversation before the message (CODE-5, CTX-5): real host, real files, real git. */
describe("Restore to here: files rewound and a fork before the message (CTX-5)", () => {
  let scope: Scope;
  let host: HostApi;
  let ws: string;
  let sessionId: string;

  beforeEach(async () => {
    ({ scope, host } = await startTestHost());
    ws = mkdtempSync(join(tmpdir(), "seam-restore-fork-"));
    writeFileSync(join(ws, "a.txt"), "one\n");
    await host.permissions.settings.set({ defaultMode: "auto" });
    sessionId = (await host.sessions.create({ workspace: ws, title: "Work" })).id;
  });
  afterEach(async () => {
    await scope.dispose();
    rmSync(ws, { recursive: true, force: true });
  });

  const turn = async (name: string, args: Record<string, unknown>) => {
    const { turnId } = await host.sessions.callTool({ sessionId, name, args });
    for (let i = 0; i < 2_000; i++) {
      const t = (await host.sessions.detail(sessionId)).turns.find((x) => x.id === turnId);
      if (t && t.status !== "running") return turnId;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`turn ${turnId} did not end`);
  };
  const userMessages = (items: TimelineItem[]) => items.filter((i): i is MessageItem => i.kind === "message" && i.role === "user");
  const shape = (items: TimelineItem[]) => items.map((i) => `${i.seq}:${i.kind}:${i.kind === "message" ? i.text : i.kind === "fact" ? i.factKind : i.name}`);
  const sessionCount = async () => (await host.sessions.list()).length;

  /** Three turns: write b.txt, then (the message restored to) change a.txt, then write c.txt. */
  const history = async () => {
    await turn("write_file", { path: "b.txt", content: "bee\n" });
    await turn("bash", { command: "echo two > a.txt" });
    await turn("write_file", { path: "c.txt", content: "sea\n" });
    const before = await host.sessions.detail(sessionId);
    const target = userMessages(before.items)[1]!;
    return { before, target };
  };

  it("rewinds the files, forks with exactly the prefix, returns the message text, and leaves the original's history whole", async () => {
    const { before, target } = await history();
    const sessionsBefore = await sessionCount();

    const out = await host.checkpoints.restoreAndFork({ sessionId, messageId: target.id });
    if (out.outcome !== "forked") throw new Error(`expected a fork, got ${out.outcome}`);
    expect(out.text).toBe(target.text);
    expect(out.session.title).toBe("Work (fork)");
    expect(out.result.conflicts).toEqual([]);

    // Files: as before the target message.
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("one\n");
    expect(readFileSync(join(ws, "b.txt"), "utf8")).toBe("bee\n");
    expect(existsSync(join(ws, "c.txt"))).toBe(false);

    // The fork: exactly the items before the message, same seqs and kinds.
    const fork = await host.sessions.detail(out.session.id);
    expect(shape(fork.items)).toEqual(shape(before.items.filter((i) => i.seq < target.seq)));
    expect(fork.session.workspace).toBe(before.session.workspace);
    expect(await sessionCount()).toBe(sessionsBefore + 1);

    // The original: every item kept, plus the Files restored fact naming the fork.
    const after = await host.sessions.detail(sessionId);
    expect(shape(after.items.slice(0, before.items.length))).toEqual(shape(before.items));
    const added = after.items.slice(before.items.length);
    expect(added).toHaveLength(1);
    const fact = added[0] as FactItem;
    expect(fact).toMatchObject({ kind: "fact", factKind: "files_restored" });
    expect(fact.payload).toMatchObject({ messageId: target.id, forkId: out.session.id });
    expect(fact.text).toMatch(/continued in a fork; this session's history is unchanged/);

    // Undoable as before: the files come back as they were just before the restore.
    const undone = await host.checkpoints.undoRestore(sessionId, fact.id);
    expect(undone.conflicts).toEqual([]);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("two\n");
    expect(readFileSync(join(ws, "c.txt"), "utf8")).toBe("sea\n");
  });

  it("conflicts: previewed without writing, no fork, nothing recorded — until the user accepts them", async () => {
    const { before, target } = await history();
    // a.txt is now outside snapshots (ignored) and present: the restore cannot set it back.
    writeFileSync(join(ws, ".gitignore"), "a.txt\n");
    writeFileSync(join(ws, "a.txt"), "mine, ignored\n");
    const sessionsBefore = await sessionCount();

    const out = await host.checkpoints.restoreAndFork({ sessionId, messageId: target.id });
    expect(out).toEqual({ outcome: "conflicts", conflicts: [{ path: "a.txt", reason: expect.stringMatching(/not in snapshots/) }] });
    // Nothing changed: the files as they were (c.txt and .gitignore still there), no fork, no fact.
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("mine, ignored\n");
    expect(readFileSync(join(ws, "c.txt"), "utf8")).toBe("sea\n");
    expect(existsSync(join(ws, ".gitignore"))).toBe(true);
    expect(await sessionCount()).toBe(sessionsBefore);
    expect(shape((await host.sessions.detail(sessionId)).items)).toEqual(shape(before.items));

    const accepted = await host.checkpoints.restoreAndFork({ sessionId, messageId: target.id, acceptConflicts: true });
    if (accepted.outcome !== "forked") throw new Error("expected a fork");
    expect(accepted.result.conflicts.map((c) => c.path)).toEqual(["a.txt"]);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("mine, ignored\n");
    expect(existsSync(join(ws, "c.txt"))).toBe(false);
    expect(await sessionCount()).toBe(sessionsBefore + 1);
    const fact = (await host.sessions.detail(sessionId)).items.at(-1) as FactItem;
    expect(fact.text).toMatch(/Left as they are: a\.txt/);
  });

  it("refuses bad requests with nothing changed: a non-user item, nothing to restore, unknown ids, bad input", async () => {
    await turn("write_file", { path: "b.txt", content: "bee\n" });
    const { items } = await host.sessions.detail(sessionId);
    const last = userMessages(items).at(-1)!;
    const fact = items.find((i) => i.kind === "fact")!;
    const sessionsBefore = await sessionCount();
    await expect(host.checkpoints.restoreAndFork({ sessionId, messageId: fact.id })).rejects.toMatchObject({ code: "not_found:checkpoints" });
    // The last message's own turn changed b.txt: restorable. A new message after it has nothing after it.
    await turn("read_file", { path: "b.txt" });
    const latest = userMessages((await host.sessions.detail(sessionId)).items).at(-1)!;
    expect(latest.id).not.toBe(last.id);
    await expect(host.checkpoints.restoreAndFork({ sessionId, messageId: latest.id })).rejects.toMatchObject({ code: "bad_input:checkpoints", data: { reason: "no_changes" } });
    await expect(host.checkpoints.restoreAndFork({ sessionId: "nope", messageId: last.id })).rejects.toMatchObject({ code: "not_found:session" });
    await expect(host.checkpoints.restoreAndFork({ sessionId, messageId: "" })).rejects.toMatchObject({ code: "bad_input:checkpoints" });
    expect(await sessionCount()).toBe(sessionsBefore);
    expect(readFileSync(join(ws, "b.txt"), "utf8")).toBe("bee\n");
  });
});

describe("session.search through the host (CTX-5)", () => {
  it("validates the query and finds messages of any session", async () => {
    const { scope, host } = await startTestHost();
    const ws = mkdtempSync(join(tmpdir(), "seam-search-host-"));
    try {
      const s = await host.sessions.create({ workspace: ws, title: "Searchable" });
      await host.sessions.callTool({ sessionId: s.id, name: "list_dir", args: { path: "." } });
      for (let i = 0; i < 200 && (await host.sessions.detail(s.id)).turns.some((t) => t.status === "running"); i++) await new Promise((r) => setTimeout(r, 10));
      const hits = await host.sessions.search({ query: "list_dir" });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.sessionId === s.id && h.sessionTitle === "Searchable")).toBe(true);
      expect(await host.sessions.search({ query: "list_dir", sessionId: s.id, limit: 1 })).toHaveLength(1);
      for (const bad of [{ query: "" }, { query: "   " }, { query: "x".repeat(201) }, { query: "x", limit: 51 }, { query: "x", limit: 0 }, { query: "x", extra: 1 }]) {
        await expect(host.sessions.search(bad as never), JSON.stringify(bad).slice(0, 40)).rejects.toMatchObject({ code: "bad_input:session" });
      }
      await expect(host.sessions.search({ query: "x", sessionId: "nope" })).rejects.toMatchObject({ code: "not_found:session" });
      // Through tRPC (`session.search`): zod refuses bad input before the host; FTS syntax is plain text.
      const caller = appRouter.createCaller({ host });
      await expect(caller.session.search({ query: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(caller.session.search({ query: "x", limit: 500 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      for (const query of ['"', "AND", "-", "*", "list_dir*", "NEAR(", "ünïcödé ✓"]) await expect(caller.session.search({ query })).resolves.toBeInstanceOf(Array);
      expect((await caller.session.search({ query: "list_di" })).length).toBeGreaterThan(0);
    } finally {
      await scope.dispose();
      rmSync(ws, { recursive: true, force: true });
    }
  });
});

describe("restoreAndFork when a step fails (fakes)", () => {
  const message: TimelineItem = { kind: "message", id: "m1", seq: 3, turnId: null, createdAt: new Date(0).toISOString(), role: "user", text: "do it again", state: "complete" };
  const result = { restored: ["a"], removed: [], conflicts: [], before: "b".repeat(40) };
  const fakes = (over: Partial<RestoreForkDeps> = {}) => {
    const log: string[] = [];
    const deps: RestoreForkDeps = {
      engine: {
        previewRestore: async () => { log.push("preview"); return { restored: ["a"], removed: [], conflicts: [] }; },
        restore: async () => { log.push("restore"); return result; },
      },
      forks: {
        forkBefore: async () => { log.push("fork"); return { id: "f1", title: "t (fork)", workspace: "/w", createdAt: "", updatedAt: "", running: false, mode: null, waiting: 0 }; },
        remove: async (id) => { log.push(`remove ${id}`); },
      },
      idle: () => {},
      restoreTarget: async () => ({ message, workspace: "/w", target: "t".repeat(40) }),
      recordRestore: async (_s, r) => { log.push(`record ${r.forkId}`); return { kind: "fact", id: "x", seq: 9, turnId: null, createdAt: "", factKind: "files_restored", text: "", payload: null }; },
      warn: (m) => log.push(`warn ${m}`),
      ...over,
    };
    return { deps, log };
  };

  it("previews, forks, restores, records — in that order", async () => {
    const { deps, log } = fakes();
    expect(await restoreAndFork(deps, { sessionId: "s", messageId: "m1" })).toMatchObject({ outcome: "forked", text: "do it again", session: { id: "f1" } });
    expect(log).toEqual(["preview", "fork", "restore", "record f1"]);
  });

  it("a restore that fails removes the fork; no fork when the fork fails; the files untouched either way", async () => {
    const failing = fakes({ engine: { previewRestore: async () => ({ restored: [], removed: [], conflicts: [] }), restore: async () => { throw new HostError("timeout:checkpoints", "git took too long"); } } });
    await expect(restoreAndFork(failing.deps, { sessionId: "s", messageId: "m1" })).rejects.toMatchObject({ code: "timeout:checkpoints" });
    expect(failing.log).toEqual(["fork", "remove f1"]);

    const noFork = fakes({ forks: { forkBefore: async () => { throw new HostError("internal:db", "disk full"); }, remove: async () => {} } });
    await expect(restoreAndFork(noFork.deps, { sessionId: "s", messageId: "m1" })).rejects.toMatchObject({ code: "internal:db" });
    expect(noFork.log).toEqual(["preview"]);
  });

  it("a restore that cannot be recorded removes the fork and says the files were restored", async () => {
    const { deps, log } = fakes({ recordRestore: async () => { throw new HostError("internal:db", "disk full"); } });
    await expect(restoreAndFork(deps, { sessionId: "s", messageId: "m1" })).rejects.toMatchObject({ code: "internal:checkpoints", data: { reason: "record_failed" }, message: expect.stringMatching(/files were restored/) });
    expect(log).toEqual(["preview", "fork", "restore", "remove f1"]);
  });
});
