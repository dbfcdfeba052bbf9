import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkpointsFixture, fingerprint, run, treePaths } from "./fixture.js";

describe("CODE-5 snapshots and changes", () => {
  it("CODE-5: lists added, modified and deleted files with line counts and patches, whether edited directly or by a shell command", async () => {
    await using f = await checkpointsFixture();
    await f.write("src/a.ts", "one\ntwo\nthree\n");
    await f.write("old.txt", "old\n");
    await f.write("gone.txt", "bye\nbye\n");
    const start = await f.cp.snapshot(f.ws, "t1-start");
    expect(start.tree).toMatch(/^[0-9a-f]{40}$/);
    expect(start.skipped).toEqual([]);

    await f.write("src/a.ts", "one\nTWO\nthree\nfour\n");
    await f.write("src/new.ts", "export const x = 1;\n");
    await f.sh("rm gone.txt");
    await f.sh("echo x > made-by-shell.txt; rm old.txt");
    const end = await f.cp.snapshot(f.ws, "t1-end");

    const files = await f.cp.changes(f.ws, start.tree, end.tree);
    expect(files.map((c) => [c.path, c.status, c.added, c.removed])).toEqual([
      ["gone.txt", "deleted", 0, 2],
      ["made-by-shell.txt", "added", 1, 0],
      ["old.txt", "deleted", 0, 1],
      ["src/a.ts", "modified", 2, 1],
      ["src/new.ts", "added", 1, 0],
    ]);
    const a = files.find((c) => c.path === "src/a.ts")!;
    expect(a.patch).toMatch(/^diff --git a\/src\/a.ts b\/src\/a.ts\n/);
    expect(a.patch).toContain("-two\n+TWO\n three\n+four\n");
    expect(a).toMatchObject({ binary: false, truncated: false, oldMode: "100644", newMode: "100644" });
    expect(files.find((c) => c.path === "made-by-shell.txt")!.patch).toContain("+x\n");
    expect(files.find((c) => c.path === "old.txt")).toMatchObject({ oldMode: "100644", newMode: null });

    const card = await f.cp.turnChanges(f.ws, start.tree, end.tree);
    expect(card).toMatchObject({ from: start.tree, to: end.tree, added: 4, removed: 4, truncated: false });
    expect(await f.cp.changes(f.ws, end.tree, end.tree)).toEqual([]);
  });

  it("CODE-5: an unchanged workspace gives the same tree; a mode change is a modification", async () => {
    await using f = await checkpointsFixture();
    await f.write("run.sh", "echo hi\n");
    const a = await f.cp.snapshot(f.ws, "a");
    expect((await f.cp.snapshot(f.ws, "b")).tree).toBe(a.tree);
    await chmod(join(f.ws, "run.sh"), 0o755);
    const c = await f.cp.snapshot(f.ws, "c");
    expect(await f.cp.changes(f.ws, a.tree, c.tree)).toMatchObject([{ path: "run.sh", status: "modified", added: 0, removed: 0, oldMode: "100644", newMode: "100755" }]);
  });

  it("CODE-5: a binary file change is reported as binary, without a patch", async () => {
    await using f = await checkpointsFixture();
    await f.write("img.bin", Buffer.from([0, 1, 2, 3, 0, 255]));
    const a = await f.cp.snapshot(f.ws, "a");
    await f.write("img.bin", Buffer.from([0, 9, 9, 0, 1]));
    const b = await f.cp.snapshot(f.ws, "b");
    expect(await f.cp.changes(f.ws, a.tree, b.tree)).toEqual([
      { path: "img.bin", status: "modified", added: 0, removed: 0, binary: true, oldMode: "100644", newMode: "100644", patch: "", truncated: false },
    ]);
  });

  it("CODE-5: .gitignore'd files are not captured, and a tracked file that becomes ignored leaves the snapshots", async () => {
    await using f = await checkpointsFixture();
    await f.write(".gitignore", "*.log\nbuild/\n");
    await f.write("app.log", "noise\n");
    await f.write("build/out.js", "x\n");
    await f.write("sub/.gitignore", "secret.txt\n");
    await f.write("sub/secret.txt", "s\n");
    await f.write("sub/kept.txt", "k\n");
    await f.write("cache.tmp", "c\n");
    const a = await f.cp.snapshot(f.ws, "a");
    expect(await treePaths(f, a.tree)).toEqual([".gitignore", "cache.tmp", "sub/.gitignore", "sub/kept.txt"]);

    await f.write(".gitignore", "*.log\nbuild/\n*.tmp\n");
    const b = await f.cp.snapshot(f.ws, "b");
    expect(await treePaths(f, b.tree)).toEqual([".gitignore", "sub/.gitignore", "sub/kept.txt"]);
    expect(await f.exists("cache.tmp")).toBe(true);
  });

  it("CODE-5: the workspace's own .git/info/exclude is honoured too", async () => {
    await using f = await checkpointsFixture();
    await run("git", ["init", "-q"], { cwd: f.ws });
    await writeFile(join(f.ws, ".git/info/exclude"), "local-only.txt\n");
    await f.write("local-only.txt", "mine\n");
    await f.write("shared.txt", "ours\n");
    expect(await treePaths(f, (await f.cp.snapshot(f.ws, "a")).tree)).toEqual(["shared.txt"]);
  });

  it("CODE-5: files over the size limit are skipped and reported, also a tracked file that grows past it", async () => {
    await using f = await checkpointsFixture({ maxFileBytes: 1024 });
    await f.write("small.txt", "s\n");
    await f.write("data/big.bin", Buffer.alloc(4096, 1));
    await f.write("grows.log", "line\n");
    const a = await f.cp.snapshot(f.ws, "a");
    expect(a.skipped).toEqual(["data/big.bin"]);
    expect(await treePaths(f, a.tree)).toEqual(["grows.log", "small.txt"]);

    await f.write("grows.log", "line\n".repeat(1000));
    const b = await f.cp.snapshot(f.ws, "b");
    expect(b.skipped).toEqual(["data/big.bin", "grows.log"]);
    expect(await treePaths(f, b.tree)).toEqual(["small.txt"]);
    expect(await f.cp.changes(f.ws, a.tree, b.tree)).toMatchObject([{ path: "grows.log", status: "deleted" }]);
  });

  it("CODE-5: the default limit is 5 MiB", async () => {
    await using f = await checkpointsFixture();
    await f.write("at-limit.bin", Buffer.alloc(5 * 1024 * 1024, 7));
    await f.write("over.bin", Buffer.alloc(5 * 1024 * 1024 + 1, 7));
    const a = await f.cp.snapshot(f.ws, "a");
    expect(a.skipped).toEqual(["over.bin"]);
    expect(await treePaths(f, a.tree)).toEqual(["at-limit.bin"]);
  });

  it("CODE-5: the user's own .git is byte-identical after snapshots and undo; a nested repository is never captured", async () => {
    await using f = await checkpointsFixture();
    const git = (...args: string[]) => run("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: f.ws });
    await f.write("tracked.txt", "v1\n");
    await git("init", "-q");
    await git("add", "tracked.txt");
    await git("commit", "-qm", "first");
    await f.write("tracked.txt", "v2 staged\n");
    await git("add", "tracked.txt");
    await f.write("nested/inner.txt", "inner\n");
    await run("git", ["init", "-q"], { cwd: join(f.ws, "nested") });
    const before = await fingerprint(join(f.ws, ".git"));

    const start = await f.cp.snapshot(f.ws, "start");
    expect(start.nested).toEqual(["nested/"]);
    await f.write("tracked.txt", "v3 by the turn\n");
    await f.write("added.txt", "a\n");
    const end = await f.cp.snapshot(f.ws, "end");
    const paths = await treePaths(f, end.tree);
    expect(paths).toEqual(["added.txt", "tracked.txt"]);
    expect(paths.some((p) => p.includes(".git"))).toBe(false);
    await f.cp.undo(f.ws, start.tree, end.tree);
    expect(await f.read("tracked.txt")).toBe("v2 staged\n");
    expect(await f.exists("added.txt")).toBe(false);

    expect(await fingerprint(join(f.ws, ".git"))).toEqual(before);
    expect((await git("status", "--porcelain")).stdout).toBe("M  tracked.txt\n?? nested/\n");
    expect(await f.read("nested/inner.txt")).toBe("inner\n");
  });

  it("CODE-5: paths with spaces, unicode, quotes, backslashes and newlines survive snapshot, changes and undo", async () => {
    await using f = await checkpointsFixture();
    const names = ["with space.txt", "ünïcødé/файл.md", "quo'te\".txt", "back\\slash.txt", "new\nline.txt", "tab\tname.txt", "-dash.txt", ":colon.txt"];
    await f.write("keep.txt", "k\n");
    const start = await f.cp.snapshot(f.ws, "start");
    for (const name of names) await f.write(name, `${JSON.stringify(name)}\n`);
    const end = await f.cp.snapshot(f.ws, "end");
    const files = await f.cp.changes(f.ws, start.tree, end.tree);
    expect(files.map((c) => c.path).sort()).toEqual([...names].sort());
    expect(files.every((c) => c.status === "added" && c.added === 1 && c.patch.startsWith("diff --git "))).toBe(true);
    const undone = await f.cp.undo(f.ws, start.tree, end.tree);
    expect(undone.removed.sort()).toEqual([...names].sort());
    for (const name of names) expect(await f.exists(name), name).toBe(false);
    expect(await f.exists("ünïcødé")).toBe(false);
    await f.cp.restore(f.ws, end.tree);
    for (const name of names) expect(await f.read(name)).toBe(`${JSON.stringify(name)}\n`);
  });

  it("CODE-5: patches are cut per file and per turn, and say so; the counts stay complete", async () => {
    await using f = await checkpointsFixture({ patchFileBytes: 2_000, patchTurnBytes: 5_000 });
    const start = await f.cp.snapshot(f.ws, "start");
    for (let i = 0; i < 6; i++) await f.write(`f${i}.txt`, "x".repeat(50).concat("\n").repeat(i === 0 ? 500 : 20));
    const end = await f.cp.snapshot(f.ws, "end");
    const files = await f.cp.changes(f.ws, start.tree, end.tree);
    expect(files.map((c) => c.added)).toEqual([500, 20, 20, 20, 20, 20]);
    expect(files[0]!.truncated).toBe(true);
    expect(Buffer.byteLength(files[0]!.patch)).toBeLessThanOrEqual(2_000);
    expect(files[0]!.patch.endsWith("\n")).toBe(true);
    expect(files[1]!.truncated).toBe(false);
    const total = files.reduce((n, c) => n + Buffer.byteLength(c.patch), 0);
    expect(total).toBeLessThanOrEqual(5_000);
    expect(files.at(-1)!).toMatchObject({ truncated: true, patch: "" });
    expect((await f.cp.turnChanges(f.ws, start.tree, end.tree)).truncated).toBe(true);
  });

  it("CODE-5: symlinks are captured as links, never followed", async () => {
    await using f = await checkpointsFixture();
    await mkdir(join(f.base, "outside"));
    await writeFile(join(f.base, "outside", "secret.txt"), "secret\n");
    await run("ln", ["-s", join(f.base, "outside"), join(f.ws, "out")]);
    await run("ln", ["-s", "target.txt", join(f.ws, "link.txt")]);
    const a = await f.cp.snapshot(f.ws, "a");
    expect(await treePaths(f, a.tree)).toEqual(["link.txt", "out"]);
    const b = await f.cp.snapshot(f.ws, "b");
    expect(b.tree).toBe(a.tree);
    expect(await readFile(join(f.base, "outside", "secret.txt"), "utf8")).toBe("secret\n");
  });
});
