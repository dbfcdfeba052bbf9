import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FactItem } from "@seam/shared";
import type { HostApi } from "../../src/host-api.js";
import type { Scope } from "../../src/core/scope.js";
import { startTestHost } from "../support/host.js";

/** Turns bracketed by checkpoints in a real host (CODE-5): direct tool calls, real files, real git. */
describe("turn checkpoints: Changed files, Undo this turn, Restore to here (CODE-5)", () => {
  let scope: Scope;
  let host: HostApi;
  let ws: string;
  let sessionId: string;

  beforeAll(async () => {
    ({ scope, host } = await startTestHost());
    ws = mkdtempSync(join(tmpdir(), "seam-turns-ws-"));
    writeFileSync(join(ws, "a.txt"), "one\n");
    // Auto mode: these tests are about checkpoints, not approvals.
    await host.permissions.settings.set({ defaultMode: "auto" });
    sessionId = (await host.sessions.create({ workspace: ws })).id;
  });
  afterAll(async () => {
    await scope.dispose();
    rmSync(ws, { recursive: true, force: true });
  });

  /** Runs one direct tool call as a turn and waits for it to end. */
  const turn = async (name: string, args: Record<string, unknown>) => {
    const { turnId } = await host.sessions.callTool({ sessionId, name, args });
    for (let i = 0; i < 2_000; i++) {
      const detail = await host.sessions.detail(sessionId);
      const t = detail.turns.find((x) => x.id === turnId);
      if (t && t.status !== "running") return { turnId, detail };
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`turn ${turnId} did not end`);
  };
  const facts = async (kind: string) => (await host.sessions.detail(sessionId)).items.filter((i): i is FactItem => i.kind === "fact" && i.factKind === kind);

  it("a turn that writes a file and a shell command's changes each get a Changed files card", async () => {
    const write = await turn("write_file", { path: "new.txt", content: "hello\n" });
    const [first] = await facts("changed_files");
    expect(first).toMatchObject({ turnId: write.turnId, text: expect.stringContaining("A new.txt (+1 −0)") });

    const shell = await turn("bash", { command: "echo made > by-shell.txt && rm a.txt" });
    const cards = await facts("changed_files");
    expect(cards).toHaveLength(2);
    const card = cards[1]!;
    expect(card.turnId).toBe(shell.turnId);
    const files = (card.payload as { files: { path: string; status: string }[] }).files.map((f) => `${f.status}:${f.path}`);
    expect(files).toEqual(["deleted:a.txt", "added:by-shell.txt"]);
  });

  it("a turn that only reads gets no card", async () => {
    const before = (await facts("changed_files")).length;
    await turn("read_file", { path: "new.txt" });
    await turn("bash", { command: "cat new.txt" });
    expect(await facts("changed_files")).toHaveLength(before);
  });

  it("Undo this turn restores the shell turn's files; a second undo is refused", async () => {
    const cards = await facts("changed_files");
    const shellTurn = cards[1]!.turnId!;
    const result = await host.checkpoints.undo(sessionId, shellTurn);
    expect(result).toMatchObject({ restored: ["a.txt"], removed: ["by-shell.txt"], conflicts: [] });
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("one\n");
    expect(existsSync(join(ws, "by-shell.txt"))).toBe(false);
    const [undone] = await facts("changes_undone");
    expect(undone!.text).toMatch(/undid the file changes/);
    await expect(host.checkpoints.undo(sessionId, shellTurn)).rejects.toMatchObject({ code: "conflict:checkpoints" });
  });

  it("a file changed after its turn is a conflict, shown and never overwritten", async () => {
    const edit = await turn("write_file", { path: "conflict.txt", content: "from the agent\n" });
    writeFileSync(join(ws, "conflict.txt"), "the user's own edit\n");
    const result = await host.checkpoints.undo(sessionId, edit.turnId);
    expect(result.conflicts.map((c) => c.path)).toEqual(["conflict.txt"]);
    expect(readFileSync(join(ws, "conflict.txt"), "utf8")).toBe("the user's own edit\n");
  });

  it("Restore to here rewinds the files to how they were before a user message", async () => {
    const { items } = await host.sessions.detail(sessionId);
    const firstMessage = items.find((i) => i.kind === "message" && i.role === "user")!;
    writeFileSync(join(ws, "conflict.txt"), "from the agent\n"); // back to the turn's end state, so nothing conflicts
    await host.checkpoints.restore(sessionId, firstMessage.id);
    expect(existsSync(join(ws, "new.txt"))).toBe(false);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("one\n");
    const [restored] = await facts("files_restored");
    expect(restored!.text).toMatch(/restored the workspace files/);
  });

  it("a restore can itself be undone, once: the files are back as they were just before it", async () => {
    const [restored] = await facts("files_restored");
    const result = await host.checkpoints.undoRestore(sessionId, restored!.id);
    expect(result.conflicts).toEqual([]);
    expect(readFileSync(join(ws, "new.txt"), "utf8")).toBe("hello\n");
    expect(existsSync(join(ws, "conflict.txt"))).toBe(true);
    const undone = (await facts("changes_undone")).at(-1)!;
    expect(undone.payload).toMatchObject({ turnId: null, restoreId: restored!.id });
    expect(undone.text).toMatch(/undid an earlier restore/);
    await expect(host.checkpoints.undoRestore(sessionId, restored!.id)).rejects.toMatchObject({ code: "conflict:checkpoints" });
  });

  it("bad requests: unknown turn, a message that is not the user's", async () => {
    await expect(host.checkpoints.undo(sessionId, "no-such-turn")).rejects.toMatchObject({ code: "not_found:checkpoints" });
    const { items } = await host.sessions.detail(sessionId);
    const fact = items.find((i) => i.kind === "fact")!;
    await expect(host.checkpoints.restore(sessionId, fact.id)).rejects.toMatchObject({ code: "not_found:checkpoints" });
    await expect(host.checkpoints.undoRestore(sessionId, fact.id)).rejects.toMatchObject({ code: "not_found:checkpoints" });
  });
});
