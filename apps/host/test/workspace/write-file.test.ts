import { execFileSync } from "node:child_process";
import { chmod, lstat, readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FileChange } from "../../src/workspace/change.js";
import { workspaceFixture } from "./fixture.js";

const BOM = "\uFEFF";

describe("write_file (CODE-1)", () => {
  it("CODE-1: creates a new file in new nested folders, mode 0644 under the usual umask", async () => {
    await using f = await workspaceFixture();
    const out = await f.call("write_file", { path: "a/b/c/new.ts", content: "export const x = 1;\n" });
    expect(out.status).toBe("ok");
    const abs = join(f.ws, "a/b/c/new.ts");
    expect(await readFile(abs, "utf8")).toBe("export const x = 1;\n");
    expect(out.canonical).toEqual({ path: "a/b/c/new.ts", action: "created", diff: "--- /dev/null\n+++ b/a/b/c/new.ts\n@@ -0,0 +1,1 @@\n+export const x = 1;\n", diffTruncated: false, added: 1, removed: 0, bytes: 20 });
    expect(out.rendered.split("\n")[0]).toBe("Created a/b/c/new.ts (+1 −0)");
    const umask = process.umask();
    expect((await stat(abs)).mode & 0o777).toBe(0o644 & ~umask);
    expect((await readdir(join(f.ws, "a/b/c"))).filter((n) => n.includes("seam-tmp"))).toEqual([]);
  });

  it("CODE-1: replacing needs a read; a replaced CRLF/BOM file keeps its endings and BOM", async () => {
    await using f = await workspaceFixture();
    const abs = await f.write("w.txt", `${BOM}old 1\r\nold 2\r\n`);
    const unread = await f.call("write_file", { path: "w.txt", content: "new\n" });
    expect(unread.error?.code).toBe("file_not_read");
    await f.call("read_file", { path: "w.txt" });
    const out = await f.call("write_file", { path: "w.txt", content: "new 1\nnew 2\nnew 3\n" });
    expect(out.status).toBe("ok");
    expect(await readFile(abs, "utf8")).toBe(`${BOM}new 1\r\nnew 2\r\nnew 3\r\n`);
    expect(out.canonical).toMatchObject({ action: "replaced", added: 3, removed: 2 });
    expect(out.rendered.split("\n")[0]).toBe("Replaced w.txt (+3 −2)");
  });

  it("CODE-1: changed outside since the read → file_changed_since_read, file left as it is", async () => {
    await using f = await workspaceFixture();
    const abs = await f.write("c.txt", "one\n");
    await f.call("read_file", { path: "c.txt" });
    await f.write("c.txt", "two\n");
    const out = await f.call("write_file", { path: "c.txt", content: "three\n" });
    expect(out.error?.code).toBe("file_changed_since_read");
    expect(await readFile(abs, "utf8")).toBe("two\n");
  });

  it("CODE-1: keeps the mode of a replaced 0755 script", async () => {
    await using f = await workspaceFixture();
    const abs = await f.write("run.sh", "#!/bin/sh\n");
    await chmod(abs, 0o755);
    await f.call("read_file", { path: "run.sh" });
    expect((await f.call("write_file", { path: "run.sh", content: "#!/bin/sh\necho ok\n" })).status).toBe("ok");
    expect((await stat(abs)).mode & 0o7777).toBe(0o755);
  });

  it("CODE-1: refuses a directory, a special file, a binary file and content over the cap", async () => {
    await using f = await workspaceFixture({ writeMaxBytes: 100 });
    await f.write("dir/inner.txt", "x");
    const dir = await f.call("write_file", { path: "dir", content: "x" });
    expect(dir.error?.code).toBe("not_a_file");
    expect((await lstat(join(f.ws, "dir"))).isDirectory()).toBe(true);
    execFileSync("mkfifo", [join(f.ws, "pipe")]);
    expect((await f.call("write_file", { path: "pipe", content: "x" })).error?.code).toBe("not_a_file");
    const bin = await f.write("b.bin", Buffer.from([0, 1, 2]));
    expect((await f.call("write_file", { path: "b.bin", content: "text" })).error?.code).toBe("binary_file");
    expect(Buffer.compare(await readFile(bin), Buffer.from([0, 1, 2]))).toBe(0);
    const big = await f.call("write_file", { path: "big.txt", content: "é".repeat(51) });
    expect(big.error?.code).toBe("file_too_large");
    expect(await lstat(join(f.ws, "big.txt")).catch(() => undefined)).toBeUndefined();
    const under = await f.call("write_file", { path: "dir/inner.txt/x.txt", content: "x" });
    expect(under.error?.code).toBe("not_a_file");
  });

  it("CODE-1: refuses links and new paths that leave the workspace, and NUL in paths", async () => {
    await using f = await workspaceFixture();
    await f.link("file-link.txt", join(f.outside, "secret.txt"));
    await f.link("dir-link", f.outside);
    await f.link("dangling-out", join(f.outside, "missing.txt"));
    const cases = ["file-link.txt", "dir-link/secret.txt", "dir-link/new.txt", "dir-link/deeper/new.txt", "../outside/new.txt", join(f.outside, "abs.txt"), "dangling-out"];
    for (const path of cases) {
      const out = await f.call("write_file", { path, content: "pwned\n" });
      expect(out.error?.code, path).toBe("outside_workspace");
    }
    expect(await readdir(f.outside)).toEqual(["secret.txt"]);
    expect(await readFile(join(f.outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
    expect((await f.call("write_file", { path: "a\0b", content: "x" })).error?.code).toBe("invalid_arguments");
  });

  it("CODE-1: a dangling link inside the workspace is refused with the path to write instead", async () => {
    await using f = await workspaceFixture();
    await f.link("later.txt", "not-yet.txt");
    const out = await f.call("write_file", { path: "later.txt", content: "x" });
    expect(out.error?.code).toBe("not_a_file");
    expect(out.rendered).toContain("not-yet.txt");
  });

  it("CODE-1: the rendered diff is capped and says so; the canonical one keeps more", async () => {
    await using f = await workspaceFixture();
    const content = Array.from({ length: 3000 }, (_, i) => `line ${i} ${"x".repeat(20)}`).join("\n");
    const out = await f.call("write_file", { path: "long.txt", content });
    const change = out.canonical as FileChange;
    expect(change.added).toBe(3000);
    expect(change.diff.length).toBeGreaterThan(60_000);
    expect(out.rendered.length).toBeLessThan(11_000);
    expect(out.rendered).toMatch(/\[Diff cut: showing \d+ of 3004 lines\.\]$/);
  });

  it("CODE-1: the canonical diff is bounded by diffMaxChars", async () => {
    await using f = await workspaceFixture({ diffMaxChars: 1000 });
    const out = await f.call("write_file", { path: "long.txt", content: "abcdefghij\n".repeat(500) });
    const change = out.canonical as FileChange;
    expect(change.diffTruncated).toBe(true);
    expect(change.diff.length).toBeLessThanOrEqual(1000);
    expect(change.diff.endsWith("\n")).toBe(true);
    expect(change.added).toBe(500);
  });
});
