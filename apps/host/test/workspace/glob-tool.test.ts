import { utimes } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { GlobResult } from "../../src/workspace/glob-tool.js";
import { workspaceFixture, type Fixture } from "./fixture.js";

/** Writes files whose modification times follow the given order (first = oldest). */
async function aged(f: Fixture, files: string[]): Promise<void> {
  const base = Date.now() / 1000 - 10_000;
  for (const [i, rel] of files.entries()) {
    const abs = await f.write(rel, `${rel}\n`);
    await utimes(abs, base + i * 10, base + i * 10);
  }
}

describe("glob (CODE-2)", () => {
  it("CODE-2: lists matching files, newest first, one path per line", async () => {
    await using f = await workspaceFixture();
    await aged(f, ["src/old.ts", "src/mid.ts", "src/deep/new.ts", "README.md"]);
    const out = await f.call("glob", { pattern: "**/*.ts" });
    expect(out.status).toBe("ok");
    expect(out.rendered).toBe("src/deep/new.ts\nsrc/mid.ts\nsrc/old.ts");
    expect(out.canonical).toEqual({ pattern: "**/*.ts", path: ".", files: ["src/deep/new.ts", "src/mid.ts", "src/old.ts"], total: 3, truncated: false });
    const top = await f.call("glob", { pattern: "*.md" });
    expect(top.rendered).toBe("README.md");
  });

  it("CODE-2: honours the root and nested .gitignore files, and always skips .git and node_modules", async () => {
    await using f = await workspaceFixture();
    await aged(f, [
      ".gitignore", "keep.js", "debug.log", "dist/bundle.js", "node_modules/pkg/index.js", ".git/hooks/pre-commit.js",
      "pkg/.gitignore", "pkg/a.js", "pkg/generated/g.js", "pkg/important.log", "pkg/sub/b.js",
      "build/.gitignore", "build/out.js",
    ]);
    await f.write(".gitignore", "*.log\ndist/\nbuild/\n");
    await f.write("pkg/.gitignore", "generated/\n!important.log\n");
    await f.write("build/.gitignore", "!out.js\n");
    const out = await f.call("glob", { pattern: "**/*" });
    expect([...(out.canonical as GlobResult).files].sort()).toEqual([".gitignore", "keep.js", "pkg/.gitignore", "pkg/a.js", "pkg/important.log", "pkg/sub/b.js"]);
    const inside = await f.call("glob", { pattern: "**/*.js", path: "pkg" });
    expect([...(inside.canonical as GlobResult).files].sort()).toEqual(["pkg/a.js", "pkg/sub/b.js"]);
  });

  it("CODE-2: a .gitignore in a parent of path applies to a search under path", async () => {
    await using f = await workspaceFixture();
    await f.write(".gitignore", "*.tmp\n");
    await f.write("a/b/x.tmp", "x");
    await f.write("a/b/y.txt", "y");
    const out = await f.call("glob", { pattern: "*", path: "a/b" });
    expect((out.canonical as GlobResult).files).toEqual(["a/b/y.txt"]);
  });

  it("CODE-2: caps the list, keeps the newest and says how many matched", async () => {
    await using f = await workspaceFixture({ globMaxResults: 3 });
    await aged(f, Array.from({ length: 8 }, (_, i) => `f${i}.txt`));
    const out = await f.call("glob", { pattern: "*.txt" });
    expect(out.canonical).toMatchObject({ files: ["f7.txt", "f6.txt", "f5.txt"], total: 8, truncated: true });
    expect(out.rendered).toBe("f7.txt\nf6.txt\nf5.txt\n[Showing the 3 most recently modified of 8 matching files. Use a narrower pattern or path.]");
  });

  it("CODE-2: no matches, bad paths and patterns that climb out are clear errors", async () => {
    await using f = await workspaceFixture();
    await f.write("a.txt", "a");
    await f.link("out", f.outside);
    expect((await f.call("glob", { pattern: "*.rs" })).rendered).toBe("No files match *.rs.");
    for (const pattern of ["../outside/*", "/etc/*", "{..,x}/*", "a/../../*"]) {
      expect((await f.call("glob", { pattern })).error?.code, pattern).toBe("invalid_arguments");
    }
    expect((await f.call("glob", { pattern: "*", path: "out" })).error?.code).toBe("outside_workspace");
    expect((await f.call("glob", { pattern: "*", path: "a.txt" })).error?.code).toBe("not_a_directory");
    expect((await f.call("glob", { pattern: "*", path: "missing" })).error?.code).toBe("not_found");
    // Links are not followed, so nothing outside is listed.
    expect((await f.call("glob", { pattern: "**/*" })).canonical).toMatchObject({ files: ["a.txt"] });
  });

  it("CODE-2: the tool is read-only (PERM-1) and the write tools are writes", async () => {
    const { workspaceTools } = await import("../../src/workspace/workspace.js");
    const effects = Object.fromEntries(workspaceTools().map((t) => [t.name, t.effect]));
    expect(effects).toEqual({ edit_file: "write", glob: "read", grep: "read", list_dir: "read", read_file: "read", write_file: "write" });
  });
});
