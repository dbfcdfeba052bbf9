import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ReadFileResult } from "../../src/workspace/read-file.js";
import { workspaceFixture } from "./fixture.js";

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");

describe("read_file", () => {
  it("renders numbered lines and returns the canonical window", async () => {
    await using f = await workspaceFixture();
    await f.write("src/a.ts", "const a = 1;\r\nconst b = 2;\n");
    const outcome = await f.call("read_file", { path: "src/a.ts" });
    expect(outcome.status).toBe("ok");
    expect(outcome.rendered).toBe("src/a.ts (lines 1-2 of 2)\n    1\tconst a = 1;\n    2\tconst b = 2;");
    expect(outcome.canonical).toEqual({ path: "src/a.ts", startLine: 1, endLine: 2, totalLines: 2, truncated: false, content: "const a = 1;\r\nconst b = 2;" });
  });

  it("reads an inclusive 1-based range and notes a clipped end", async () => {
    await using f = await workspaceFixture();
    await f.write("n.txt", numbered(20));
    const mid = await f.call("read_file", { path: "n.txt", startLine: 12, endLine: 13 });
    expect(mid.rendered).toBe("n.txt (lines 12-13 of 20)\n   12\tline 12\n   13\tline 13");
    const clipped = await f.call("read_file", { path: "n.txt", startLine: 19, endLine: 500 });
    expect((clipped.canonical as ReadFileResult).endLine).toBe(20);
    expect(clipped.rendered).toContain("[endLine 500 is past the end of the file; it has 20 lines.]");
  });

  it("refuses a start past the end and an inverted range", async () => {
    await using f = await workspaceFixture();
    await f.write("n.txt", numbered(3));
    const past = await f.call("read_file", { path: "n.txt", startLine: 4 });
    expect(past.error?.code).toBe("invalid_arguments");
    expect(past.rendered).toContain("startLine 4 is past the end of n.txt, which has 3 lines");
    const inverted = await f.call("read_file", { path: "n.txt", startLine: 3, endLine: 2 });
    expect(inverted.rendered).toMatch(/^Error \[invalid_arguments\]: endLine: endLine must not be smaller than startLine/);
  });

  it("stops at the byte cap and says where to continue", async () => {
    await using f = await workspaceFixture({ readMaxBytes: 1024 });
    await f.write("big.txt", numbered(1000));
    const outcome = await f.call("read_file", { path: "big.txt" });
    const r = outcome.canonical as ReadFileResult;
    expect(r.truncated).toBe(true);
    expect(r.totalLines).toBe(1000);
    expect(Buffer.byteLength(r.content)).toBeLessThanOrEqual(1024);
    expect(r.endLine).toBeGreaterThan(50);
    expect(r.content.split("\n").at(-1)).toBe(`line ${r.endLine}`);
    expect(outcome.rendered).toContain(`Call read_file with startLine=${r.endLine + 1} to read on.`);
    const next = await f.call("read_file", { path: "big.txt", startLine: 990 });
    expect((next.canonical as ReadFileResult).truncated).toBe(false);
    expect((next.canonical as ReadFileResult).endLine).toBe(1000);
  });

  it("keeps the default output under the runtime cap and cuts a single overlong line", async () => {
    await using f = await workspaceFixture();
    await f.write("min.js", `${"x".repeat(300 * 1024)}\nsecond\n`);
    const outcome = await f.call("read_file", { path: "min.js" });
    const r = outcome.canonical as ReadFileResult;
    expect(r).toMatchObject({ startLine: 1, endLine: 1, totalLines: 2, truncated: true });
    expect(r.content).toHaveLength(90_000);
    expect(outcome.rendered).not.toContain("[output truncated");
    expect(outcome.rendered.endsWith("[Line 1 is too long to show in full; only its beginning is shown.]")).toBe(true);
  });

  it("reads at most 256 KiB of lines by default", async () => {
    await using f = await workspaceFixture({ readMaxChars: 1_000_000 });
    const line = "y".repeat(1023);
    await f.write("big.txt", Array.from({ length: 400 }, () => line).join("\n"));
    const r = (await f.call("read_file", { path: "big.txt" })).canonical as ReadFileResult;
    expect(r).toMatchObject({ endLine: 256, totalLines: 400, truncated: true });
  });

  it("stops at the character budget on whole lines", async () => {
    await using f = await workspaceFixture({ readMaxChars: 100 });
    await f.write("n.txt", numbered(100));
    const outcome = await f.call("read_file", { path: "n.txt", startLine: 10 });
    const r = outcome.canonical as ReadFileResult;
    expect(r.truncated).toBe(true);
    expect(r.content.length).toBeLessThanOrEqual(100);
    expect(r.content.split("\n").at(-1)).toBe(`line ${r.endLine}`);
    expect(outcome.rendered).toContain(`startLine=${r.endLine + 1}`);
  });

  it("counts a last line without a newline and handles empty files", async () => {
    await using f = await workspaceFixture();
    await f.write("tail.txt", "a\nb");
    await f.write("empty.txt", "");
    expect((await f.call("read_file", { path: "tail.txt" })).canonical).toMatchObject({ totalLines: 2, content: "a\nb" });
    const empty = await f.call("read_file", { path: "empty.txt" });
    expect(empty.status).toBe("ok");
    expect(empty.rendered).toBe("empty.txt (0 lines)\n[The file is empty.]");
  });

  it("refuses binary files, directories and paths outside", async () => {
    await using f = await workspaceFixture();
    await f.write("img.png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    await f.write("src/a.ts", "x");
    await f.link("leak", join(f.outside, "secret.txt"));
    const binary = await f.call("read_file", { path: "img.png" });
    expect(binary.error?.code).toBe("binary_file");
    expect(binary.rendered).toMatch(/^Error \[binary_file\]: img.png is a binary file/);
    expect((await f.call("read_file", { path: "src" })).rendered).toContain("src is a directory; use list_dir");
    for (const path of ["leak", "../outside/secret.txt", join(f.outside, "secret.txt")]) {
      const outcome = await f.call("read_file", { path });
      expect(outcome.error?.code, path).toBe("outside_workspace");
      expect(outcome.rendered).not.toContain("TOP SECRET");
    }
    expect((await f.call("read_file", { path: "nope.ts" })).error?.code).toBe("not_found");
  });

  it("reads through a symlink that stays inside", async () => {
    await using f = await workspaceFixture();
    await f.write("src/a.ts", "inside\n");
    await f.link("alias.ts", "src/a.ts");
    const outcome = await f.call("read_file", { path: "alias.ts" });
    expect(outcome.canonical).toMatchObject({ path: "src/a.ts", content: "inside" });
  });
});
