import { chmod, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkpointsFixture, fingerprint } from "./fixture.js";

describe("CODE-5 undo this turn", () => {
  it("CODE-5: removes created files, recreates deleted ones, reverts modified ones and keeps modes", async () => {
    await using f = await checkpointsFixture();
    await f.write("edit.txt", "before\n");
    await f.write("bin/tool.sh", "#!/bin/sh\necho 1\n", 0o755);
    await f.write("delete-me.txt", "precious\n");
    await f.write("chmod-me.sh", "echo\n", 0o644);
    await f.write("untouched.txt", "same\n");
    const start = await f.cp.snapshot(f.ws, "start");

    await f.write("edit.txt", "after\n");
    await f.write("bin/tool.sh", "#!/bin/sh\necho 2\n");
    await f.sh("rm delete-me.txt; mkdir -p made/deep && echo x > made/deep/new.txt; echo y > top-new.txt; chmod +x chmod-me.sh");
    const end = await f.cp.snapshot(f.ws, "end");

    const result = await f.cp.undo(f.ws, start.tree, end.tree);
    expect(result.conflicts).toEqual([]);
    expect(result.removed.sort()).toEqual(["made/deep/new.txt", "top-new.txt"]);
    expect(result.restored.sort()).toEqual(["bin/tool.sh", "chmod-me.sh", "delete-me.txt", "edit.txt"]);
    expect(await f.read("edit.txt")).toBe("before\n");
    expect(await f.read("bin/tool.sh")).toBe("#!/bin/sh\necho 1\n");
    expect(await f.mode("bin/tool.sh")).toBe(0o755);
    expect(await f.read("delete-me.txt")).toBe("precious\n");
    expect(await f.mode("chmod-me.sh")).toBe(0o644);
    expect(await f.exists("made")).toBe(false);
    expect(await f.exists("top-new.txt")).toBe(false);
    expect((await f.cp.snapshot(f.ws, "after-undo")).tree).toBe(start.tree);
    expect(result.before).toBe(end.tree);
  });

  it("CODE-5: a file changed after the turn ended is a conflict and left untouched; the others are restored", async () => {
    await using f = await checkpointsFixture();
    await f.write("a.txt", "a0\n");
    await f.write("b.txt", "b0\n");
    await f.write("c.txt", "c0\n");
    const start = await f.cp.snapshot(f.ws, "start");
    await f.write("a.txt", "a1 by the turn\n");
    await f.write("b.txt", "b1 by the turn\n");
    await f.write("created.txt", "by the turn\n");
    await f.sh("rm c.txt");
    const end = await f.cp.snapshot(f.ws, "end");
    await f.write("a.txt", "a2 by the user later\n");
    await f.write("created.txt", "edited by the user later\n");
    await f.write("c.txt", "recreated by the user\n");

    const result = await f.cp.undo(f.ws, start.tree, end.tree);
    expect(result.conflicts).toEqual([
      { path: "a.txt", reason: "it was changed after the turn ended" },
      { path: "c.txt", reason: "it was created again after the turn ended" },
      { path: "created.txt", reason: "it was changed after the turn ended" },
    ]);
    expect(result.restored).toEqual(["b.txt"]);
    expect(result.removed).toEqual([]);
    expect(await f.read("a.txt")).toBe("a2 by the user later\n");
    expect(await f.read("b.txt")).toBe("b0\n");
    expect(await f.read("c.txt")).toBe("recreated by the user\n");
    expect(await f.read("created.txt")).toBe("edited by the user later\n");
  });

  it("CODE-5: undo of a turn whose files are all conflicts changes nothing", async () => {
    await using f = await checkpointsFixture();
    await f.write("only.txt", "0\n");
    const start = await f.cp.snapshot(f.ws, "start");
    await f.write("only.txt", "1\n");
    await f.write("made.txt", "m\n");
    const end = await f.cp.snapshot(f.ws, "end");
    await f.write("only.txt", "2\n");
    await f.sh("rm made.txt");
    const before = await fingerprint(f.ws);
    const result = await f.cp.undo(f.ws, start.tree, end.tree);
    expect(result.conflicts.map((c) => c.path)).toEqual(["made.txt", "only.txt"]);
    expect(result.conflicts[0]!.reason).toBe("it was deleted after the turn ended");
    expect(result).toMatchObject({ restored: [], removed: [] });
    expect(await fingerprint(f.ws)).toEqual(before);
  });

  it("CODE-5: never removes what stands in the way — a folder where the turn's file was, or a file where a folder must be", async () => {
    await using f = await checkpointsFixture();
    await f.write("dir/inside.txt", "i\n");
    const start = await f.cp.snapshot(f.ws, "start");
    await f.sh("rm -r dir; echo file > dir; echo new > made.txt");
    const end = await f.cp.snapshot(f.ws, "end");
    // After the turn, the user turns made.txt into a folder holding their work.
    await rm(join(f.ws, "made.txt"));
    await mkdir(join(f.ws, "made.txt"));
    await f.write("made.txt/mine.txt", "mine\n");
    const result = await f.cp.undo(f.ws, start.tree, end.tree);
    expect(result.conflicts.map((c) => c.path)).toEqual(["made.txt"]);
    expect(result.removed).toEqual(["dir"]);
    expect(result.restored).toEqual(["dir/inside.txt"]);
    expect(await f.read("dir/inside.txt")).toBe("i\n");
    expect(await f.read("made.txt/mine.txt")).toBe("mine\n");
  });

  it("CODE-5: a file the turn changed that is now too large to snapshot is a conflict, not overwritten", async () => {
    await using f = await checkpointsFixture({ maxFileBytes: 100 });
    await f.write("log.txt", "0\n");
    const start = await f.cp.snapshot(f.ws, "start");
    await f.write("log.txt", "1\n");
    const end = await f.cp.snapshot(f.ws, "end");
    await f.write("log.txt", "x".repeat(500));
    const result = await f.cp.undo(f.ws, start.tree, end.tree);
    expect(result.conflicts).toEqual([{ path: "log.txt", reason: expect.stringContaining("no longer in snapshots") }]);
    expect(await f.read("log.txt")).toBe("x".repeat(500));
  });
});

describe("CODE-5 restore to here", () => {
  it("CODE-5: rewinds across two turns, removes files added since, and can itself be undone via its `before` tree", async () => {
    await using f = await checkpointsFixture();
    await f.write("a.txt", "a0\n");
    await f.write("b.txt", "b0\n");
    await f.write(".gitignore", "*.log\n");
    const here = await f.cp.snapshot(f.ws, "turn1-start");
    await f.write("a.txt", "a1\n");
    await f.write("t1.txt", "t1\n");
    await f.cp.snapshot(f.ws, "turn1-end");
    await f.cp.snapshot(f.ws, "turn2-start");
    await f.sh("rm b.txt; echo t2 > t2.txt; echo a2 > a.txt; echo log > debug.log; chmod +x t1.txt");
    const last = await f.cp.snapshot(f.ws, "turn2-end");

    const result = await f.cp.restore(f.ws, here.tree);
    expect(result.restored.sort()).toEqual(["a.txt", "b.txt"]);
    expect(result.removed.sort()).toEqual(["t1.txt", "t2.txt"]);
    expect(result.conflicts).toEqual([]);
    expect(result.before).toBe(last.tree);
    expect(await f.read("a.txt")).toBe("a0\n");
    expect(await f.read("b.txt")).toBe("b0\n");
    expect(await f.exists("t1.txt")).toBe(false);
    expect(await f.read("debug.log")).toBe("log\n"); // ignored: outside the snapshots, left alone
    expect((await f.cp.snapshot(f.ws, "check")).tree).toBe(here.tree);

    const back = await f.cp.restore(f.ws, result.before);
    expect(back.restored.sort()).toEqual(["a.txt", "t1.txt", "t2.txt"]);
    expect(back.removed).toEqual(["b.txt"]);
    expect(await f.mode("t1.txt")).toBe(0o755);
    expect((await f.cp.snapshot(f.ws, "check2")).tree).toBe(last.tree);
  });

  it("CODE-5: a file that was ignored when the snapshot was taken and is not now is left in place, never removed", async () => {
    await using f = await checkpointsFixture();
    await f.write(".gitignore", "*.env\nbuild/\n");
    await f.write("secrets.env", "KEY=1\n");
    await f.write("build/out.js", "built\n");
    await f.write("sub/.gitignore", "*.tmp\n!keep.tmp\n");
    await f.write("sub/scratch.tmp", "scratch\n");
    await f.write("sub/keep.tmp", "kept\n");
    const here = await f.cp.snapshot(f.ws, "here");
    // Later the ignore rules go away, so these files enter the snapshots; one file is really new.
    await f.write(".gitignore", "");
    await f.write("sub/.gitignore", "");
    await f.write("new.txt", "new\n");
    await f.cp.snapshot(f.ws, "later");

    const preview = await f.cp.previewRestore(f.ws, here.tree);
    expect(preview.conflicts.map((c) => c.path).sort()).toEqual(["build/out.js", "secrets.env", "sub/scratch.tmp"]);
    const result = await f.cp.restore(f.ws, here.tree);
    expect(result.conflicts.map((c) => c.path).sort()).toEqual(["build/out.js", "secrets.env", "sub/scratch.tmp"]);
    expect(result.conflicts[0]?.reason).toContain("ignored when that snapshot was taken");
    expect(await f.read("secrets.env")).toBe("KEY=1\n");
    expect(await f.read("build/out.js")).toBe("built\n");
    expect(await f.read("sub/scratch.tmp")).toBe("scratch\n");
    // Created since (and not ignored then): removed as before; the ignore files come back.
    expect(result.removed).toEqual(["new.txt"]);
    expect(await f.read(".gitignore")).toBe("*.env\nbuild/\n");
    expect(await f.read("sub/keep.tmp")).toBe("kept\n");
  });

  it("CODE-5: a file that exists now but is too large for snapshots is reported, not overwritten", async () => {
    await using f = await checkpointsFixture({ maxFileBytes: 100 });
    await f.write("data.csv", "1,2\n");
    const here = await f.cp.snapshot(f.ws, "here");
    await f.write("data.csv", "9,9\n".repeat(100));
    await chmod(join(f.ws, "data.csv"), 0o600);
    const result = await f.cp.restore(f.ws, here.tree);
    expect(result.conflicts).toEqual([{ path: "data.csv", reason: expect.stringContaining("too large") }]);
    expect(await f.read("data.csv")).toBe("9,9\n".repeat(100));
  });
});
