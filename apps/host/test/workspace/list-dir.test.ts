import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ListDirResult } from "../../src/workspace/list-dir.js";
import { workspaceFixture } from "./fixture.js";

describe("list_dir", () => {
  it("lists entries sorted by name with types, sizes and suffixes", async () => {
    await using f = await workspaceFixture();
    await f.write("b.txt", "12345");
    await f.write("A.md", "");
    await f.write("src/a.ts", "x");
    await f.write(".hidden", "h");
    await f.link("link", "b.txt");
    const outcome = await f.call("list_dir", {});
    expect(outcome.canonical).toEqual({
      path: ".",
      entries: [
        { name: ".hidden", type: "file", size: 1 },
        { name: "A.md", type: "file", size: 0 },
        { name: "b.txt", type: "file", size: 5 },
        { name: "link", type: "symlink" },
        { name: "src", type: "dir" },
      ],
      totalEntries: 5,
      truncated: false,
    });
    expect(outcome.rendered).toBe("./ (5 entries)\n.hidden\t1 B\nA.md\t0 B\nb.txt\t5 B\nlink@\nsrc/");
  });

  it("lists a subdirectory and says when a directory is empty", async () => {
    await using f = await workspaceFixture();
    await f.write("src/deep/x.ts", "x");
    expect((await f.call("list_dir", { path: "src" })).rendered).toBe("src/ (1 entry)\ndeep/");
    await f.write("empty/.keep", "");
    expect((await f.call("list_dir", { path: "empty" })).rendered).toContain(".keep");
  });

  it("caps the listing and says how many entries exist", async () => {
    await using f = await workspaceFixture({ listMaxEntries: 10 });
    for (let i = 0; i < 25; i++) await f.write(`f${String(i).padStart(2, "0")}.txt`, "");
    const outcome = await f.call("list_dir", { path: "." });
    const r = outcome.canonical as ListDirResult;
    expect(r.truncated).toBe(true);
    expect(r.totalEntries).toBe(25);
    expect(r.entries.map((e) => e.name)).toEqual(Array.from({ length: 10 }, (_, i) => `f${String(i).padStart(2, "0")}.txt`));
    expect(outcome.rendered).toContain("[Showing the first 10 of 25 entries");
  });

  it("refuses directories outside the workspace, including through a symlink", async () => {
    await using f = await workspaceFixture();
    await f.link("out", f.outside);
    for (const path of ["..", "out", f.outside, join(f.ws, "..", "outside")]) {
      const outcome = await f.call("list_dir", { path });
      expect(outcome.error?.code, path).toBe("outside_workspace");
      expect(outcome.rendered).not.toContain("secret.txt");
    }
  });

  it("tells the model to use read_file on a file", async () => {
    await using f = await workspaceFixture();
    await f.write("a.txt", "x");
    const outcome = await f.call("list_dir", { path: "a.txt" });
    expect(outcome.error?.code).toBe("not_a_directory");
    expect(outcome.rendered).toContain("use read_file");
  });
});
