import { existsSync } from "node:fs";
import { readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { create } from "../../src/checkpoints/checkpoints.js";
import { createScope } from "../../src/core/scope.js";
import { rejection } from "../support/errors.js";
import { checkpointsFixture, fingerprint, gitDirOf, run, treePaths } from "./fixture.js";

const ZERO = "0".repeat(40);

describe("CODE-5 checkpoints capability", () => {
  it("CODE-5: reports git's version and a ready overview row", async () => {
    await using f = await checkpointsFixture();
    const git = await f.cp.available();
    expect(git.ok).toBe(true);
    expect(git.version).toMatch(/^\d+\.\d+/);
    expect(f.cp.status()).toMatchObject({ id: "checkpoints", codePresent: true, configured: true, visible: true, ready: true, tools: [] });
    expect(f.cp.api.snapshot).toBeTypeOf("function");
  });

  it("CODE-5: without git, available() says why, the row says it, and every call fails with unavailable:checkpoints", async () => {
    await using f = await checkpointsFixture({ git: "/nonexistent/bin/git" });
    await f.write("a.txt", "a\n");
    const git = await f.cp.available();
    expect(git).toEqual({ ok: false, reason: "git is not installed — install the Debian package git; file tools keep working without checkpoints." });
    expect(f.cp.status()).toMatchObject({ ready: false, note: git.reason });
    const calls = [() => f.cp.snapshot(f.ws, "a"), () => f.cp.changes(f.ws, ZERO, ZERO), () => f.cp.undo(f.ws, ZERO, ZERO), () => f.cp.restore(f.ws, ZERO), () => f.cp.prune(f.ws)];
    for (const call of calls) {
      const error = await rejection(call());
      expect(error.code).toBe("unavailable:checkpoints");
      expect(error.data?.reason).toBe("git_unavailable");
      expect(error.message).toContain("install the Debian package git");
    }
    expect(existsSync(join(f.home, "snapshots"))).toBe(false);
  });

  it("CODE-5: bad input is refused with a clear error and changes nothing", async () => {
    await using f = await checkpointsFixture();
    await f.write("a.txt", "a\n");
    const start = await f.cp.snapshot(f.ws, "start");
    await f.write("a.txt", "b\n");
    const before = await fingerprint(f.ws);
    const cases: [() => Promise<unknown>, string, string][] = [
      [() => f.cp.snapshot("relative/path", "x"), "bad_input:checkpoints", "absolute path"],
      [() => f.cp.snapshot(join(f.base, "missing"), "x"), "not_found:checkpoints", "does not exist"],
      [() => f.cp.snapshot(join(f.ws, "a.txt"), "x"), "bad_input:checkpoints", "not a folder"],
      [() => f.cp.snapshot(f.ws, "../escape"), "bad_input:checkpoints", "label"],
      [() => f.cp.snapshot(f.ws, "x.lock."), "bad_input:checkpoints", "label"],
      [() => f.cp.snapshot(f.ws, "turn.lock"), "bad_input:checkpoints", ".lock"],
      [() => f.cp.snapshot(f.ws, ""), "bad_input:checkpoints", "label"],
      [() => f.cp.changes(f.ws, "HEAD", start.tree), "bad_input:checkpoints", "from"],
      [() => f.cp.undo(f.ws, start.tree, "--help".padEnd(40, "0")), "bad_input:checkpoints", "end"],
      [() => f.cp.restore(f.ws, ZERO), "not_found:checkpoints", "not in this workspace's checkpoints"],
      [() => f.cp.undo(f.ws, ZERO, start.tree), "not_found:checkpoints", ZERO],
      [() => f.cp.release(f.ws, ["ok", "a b"]), "bad_input:checkpoints", "labels"],
      [() => f.cp.prune(f.ws, -1), "bad_input:checkpoints", "keep"],
    ];
    for (const [call, code, text] of cases) {
      const error = await rejection(call());
      expect(error.code, text).toBe(code);
      expect(error.message, code).toContain(text);
    }
    expect(await fingerprint(f.ws)).toEqual(before);
  });

  it("CODE-5: a snapshot of another workspace is not found in this one; two workspaces never interfere", async () => {
    await using f = await checkpointsFixture();
    const other = await f.another();
    await f.write("a.txt", "first\n");
    await writeFile(join(other, "b.txt"), "second\n");
    const [a, b] = await Promise.all([f.cp.snapshot(f.ws, "s"), f.cp.snapshot(other, "s")]);
    expect(await gitDirOf(f)).not.toBe(await gitDirOf(f, other));
    expect(await treePaths(f, a.tree)).toEqual(["a.txt"]);
    await writeFile(join(other, "b.txt"), "changed\n");
    await writeFile(join(other, "c.txt"), "new\n");
    const b2 = await f.cp.snapshot(other, "s2");
    expect((await f.cp.changes(other, b.tree, b2.tree)).map((c) => c.path)).toEqual(["b.txt", "c.txt"]);
    expect((await rejection(f.cp.changes(f.ws, b.tree, b2.tree))).data?.reason).toBe("snapshot_not_found");
    await f.cp.restore(other, b.tree);
    expect(await f.read("a.txt")).toBe("first\n");
    expect(await readFile(join(other, "b.txt"), "utf8")).toBe("second\n");
  });

  it("CODE-5: one workspace reached through a symlink shares its shadow repository", async () => {
    await using f = await checkpointsFixture();
    const alias = join(f.base, "alias");
    await symlink(f.ws, alias);
    await f.write("a.txt", "a\n");
    const a = await f.cp.snapshot(f.ws, "a");
    await f.write("a.txt", "b\n");
    const b = await f.cp.snapshot(alias, "b");
    expect(await f.cp.changes(f.ws, a.tree, b.tree)).toHaveLength(1);
  });

  it("CODE-5: concurrent snapshots of one workspace (two sessions) are serialised and all succeed", async () => {
    await using f = await checkpointsFixture();
    for (let i = 0; i < 50; i++) await f.write(`d${i % 5}/f${i}.txt`, `${i}\n`);
    const results = await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      await f.write(`session${i % 2}/note${i}.txt`, `${i}\n`);
      return f.cp.snapshot(f.ws, `c${i}`);
    }));
    const last = await f.cp.snapshot(f.ws, "last");
    expect(new Set(results.map((r) => r.tree)).size).toBeGreaterThan(0);
    expect((await treePaths(f, last.tree)).filter((p) => p.includes("note"))).toHaveLength(8);
    const gitDir = await gitDirOf(f);
    expect(existsSync(join(gitDir, "index.lock"))).toBe(false);
    const { stdout } = await run("git", [`--git-dir=${gitDir}`, "for-each-ref", "--format=%(objectname)", "refs/seam/"]);
    expect(stdout.trim().split("\n")).toHaveLength(9);
  });

  it("CODE-5: a lock file left by a crashed host does not block the next one", async () => {
    await using f = await checkpointsFixture();
    await f.write("a.txt", "a\n");
    await f.cp.snapshot(f.ws, "a");
    const gitDir = await gitDirOf(f);
    await writeFile(join(gitDir, "index.lock"), "");
    const scope = createScope("second-host");
    try {
      const second = await create(scope, { home: f.home });
      await f.write("a.txt", "b\n");
      expect((await second.snapshot(f.ws, "b")).tree).toMatch(/^[0-9a-f]{40}$/);
    } finally {
      await scope.dispose();
    }
  });

  it("CODE-5: refs keep snapshots alive; release drops a label, prune keeps the newest N, forgetWorkspace deletes everything", async () => {
    await using f = await checkpointsFixture({ keepSnapshots: 3, pruneEvery: 1000 });
    const trees: string[] = [];
    for (let i = 0; i < 6; i++) {
      await f.write("a.txt", `${i}\n`);
      trees.push((await f.cp.snapshot(f.ws, `t${i}`)).tree);
    }
    const gitDir = await gitDirOf(f);
    const refs = async () => (await run("git", [`--git-dir=${gitDir}`, "for-each-ref", "--format=%(refname)", "refs/seam/"])).stdout.trim().split("\n").filter(Boolean);
    expect((await refs()).map((r) => r.replace(/^refs\/seam\/\d{14}-/, ""))).toEqual(["t0", "t1", "t2", "t3", "t4", "t5"]);
    expect(await f.cp.release(f.ws, ["t1", "unknown"])).toBe(1);
    expect(await f.cp.prune(f.ws)).toBe(2);
    expect((await refs()).map((r) => r.replace(/^refs\/seam\/\d{14}-/, ""))).toEqual(["t3", "t4", "t5"]);
    await run("git", [`--git-dir=${gitDir}`, "-c", "gc.reflogExpire=now", "gc", "--prune=now", "--quiet"]);
    expect((await rejection(f.cp.restore(f.ws, trees[0]!))).data?.reason).toBe("snapshot_not_found");
    expect((await f.cp.changes(f.ws, trees[3]!, trees[5]!))[0]!.patch).toContain("-3\n+5\n");

    await f.cp.forgetWorkspace(f.ws);
    expect(existsSync(gitDir)).toBe(false);
    expect(await f.read("a.txt")).toBe("5\n");
    expect((await f.cp.snapshot(f.ws, "again")).tree).toBe(trees[5]);
    await rm(f.ws, { recursive: true });
    await f.cp.forgetWorkspace(f.ws);
    expect(existsSync(gitDir)).toBe(false);
  });

  it("CODE-5: the automatic prune keeps the newest refs every `pruneEvery` snapshots", async () => {
    await using f = await checkpointsFixture({ keepSnapshots: 2, pruneEvery: 4 });
    for (let i = 0; i < 4; i++) await f.cp.snapshot(f.ws, `p${i}`);
    await f.cp.snapshot(f.ws, "after"); // queued behind the prune
    const { stdout } = await run("git", [`--git-dir=${await gitDirOf(f)}`, "for-each-ref", "--format=%(refname)", "refs/seam/"]);
    expect(stdout.trim().split("\n").map((r) => r.replace(/^refs\/seam\/\d{14}-/, ""))).toEqual(["p2", "p3", "after"]);
  });

  it("CODE-5: the data directory inside the workspace is never captured", async () => {
    await using f = await checkpointsFixture({});
    const scope = createScope("inner");
    try {
      const cp = await create(scope, { home: join(f.ws, ".seam-data") });
      await f.write("a.txt", "a\n");
      const a = await cp.snapshot(f.ws, "a");
      await f.write("b.txt", "b\n");
      const b = await cp.snapshot(f.ws, "b");
      expect((await cp.changes(f.ws, a.tree, b.tree)).map((c) => c.path)).toEqual(["b.txt"]);
      expect(await cp.changes(f.ws, b.tree, (await cp.snapshot(f.ws, "c")).tree)).toEqual([]);
    } finally {
      await scope.dispose();
    }
  });

  it("CODE-5: GIT_* variables of the host do not leak in, and the workspace .gitattributes (eol=crlf) never converts bytes", async () => {
    await using f = await checkpointsFixture({
      env: { ...process.env, GIT_DIR: "/nonexistent", GIT_INDEX_FILE: "/nonexistent/index", GIT_WORK_TREE: "/", XDG_CONFIG_HOME: "/nonexistent" },
    });
    await f.write("a.txt", "a\r\n");
    await f.write(".gitattributes", "* text=auto eol=crlf\n");
    const a = await f.cp.snapshot(f.ws, "a");
    await f.write("a.txt", "b\r\n");
    const b = await f.cp.snapshot(f.ws, "b");
    await f.cp.restore(f.ws, a.tree);
    expect(await readFile(join(f.ws, "a.txt"))).toEqual(Buffer.from("a\r\n"));
    expect((await f.cp.changes(f.ws, a.tree, b.tree))[0]!.patch).toContain("-a\r\n+b\r\n");
  });

  it("CODE-5: after the scope is disposed, calls fail with closed:checkpoints", async () => {
    await using f = await checkpointsFixture();
    await f.scope.dispose();
    expect((await rejection(f.cp.snapshot(f.ws, "x"))).code).toBe("closed:checkpoints");
  });
});
