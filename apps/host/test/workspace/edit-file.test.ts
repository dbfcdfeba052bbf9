import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FileChange } from "../../src/workspace/change.js";
import { workspaceFixture, type Fixture } from "./fixture.js";

const BOM = "\uFEFF";

/** Writes a file and reads it through read_file, so the session may edit it. */
async function seen(f: Fixture, rel: string, content: string | Uint8Array): Promise<string> {
  const abs = await f.write(rel, content);
  expect((await f.call("read_file", { path: rel })).status).toBe("ok");
  return abs;
}

describe("edit_file (CODE-1)", () => {
  it("CODE-1: replaces one exact match and returns a unified diff with counts", async () => {
    await using f = await workspaceFixture();
    const abs = await seen(f, "src/a.ts", "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const out = await f.call("edit_file", { path: "src/a.ts", edits: [{ old_string: "const b = 2;", new_string: "const b = 20;\nconst bb = 21;" }] });
    expect(out.status).toBe("ok");
    expect(await readFile(abs, "utf8")).toBe("const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n");
    const change = out.canonical as FileChange;
    expect(change).toMatchObject({ path: "src/a.ts", action: "edited", added: 2, removed: 1, bytes: 55, diffTruncated: false });
    expect(change.diff).toBe("--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,4 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n+const bb = 21;\n const c = 3;\n");
    expect(out.rendered.split("\n")[0]).toBe("Edited src/a.ts (+2 −1)");
    expect(out.rendered).toContain("+const bb = 21;");
  });

  it("CODE-1: keeps CRLF line endings and the BOM; the model's \\n matches CRLF", async () => {
    await using f = await workspaceFixture();
    const abs = await seen(f, "win.txt", `${BOM}one\r\ntwo\r\nthree\r\n`);
    const out = await f.call("edit_file", { path: "win.txt", edits: [{ old_string: "one\ntwo", new_string: "one\nTWO\ntwo and a half" }] });
    expect(out.status).toBe("ok");
    expect(await readFile(abs, "utf8")).toBe(`${BOM}one\r\nTWO\r\ntwo and a half\r\nthree\r\n`);
    expect((out.canonical as FileChange).diff).not.toContain("\r");
  });

  it("CODE-1: a mixed-ending file keeps each untouched line's ending", async () => {
    await using f = await workspaceFixture();
    const abs = await seen(f, "mixed.txt", "a\r\nb\nc\r\nd\n");
    const out = await f.call("edit_file", { path: "mixed.txt", edits: [{ old_string: "b\nc", new_string: "B\nC" }, { old_string: "d", new_string: "D" }] });
    expect(out.status).toBe("ok");
    expect(await readFile(abs, "utf8")).toBe("a\r\nB\nC\r\nD\n");
  });

  it("CODE-1: is unicode safe (emoji, CJK, combining marks) and leaves other bytes alone", async () => {
    await using f = await workspaceFixture();
    const text = "greet = '👋🏽 hi'\n名前 = \"山田\"\ncafe\u0301 = 1\n";
    const abs = await seen(f, "u.py", text);
    const out = await f.call("edit_file", { path: "u.py", edits: [{ old_string: "名前 = \"山田\"", new_string: "名前 = \"田中 🎌\"" }, { old_string: "cafe\u0301", new_string: "caf\u00e9" }] });
    expect(out.status).toBe("ok");
    expect(await readFile(abs, "utf8")).toBe("greet = '👋🏽 hi'\n名前 = \"田中 🎌\"\ncafé = 1\n");
    expect((out.canonical as FileChange).bytes).toBe(Buffer.byteLength(await readFile(abs)));
  });

  it("CODE-1: old_string not found names the edit and shows the closest lines with numbers", async () => {
    await using f = await workspaceFixture();
    const body = ["import x from 'x';", "", "function total(items) {", "  let sum = 0;", "  for (const i of items) sum += i.price;", "  return sum;", "}", ""].join("\n");
    const abs = await seen(f, "t.js", body);
    const out = await f.call("edit_file", {
      path: "t.js",
      edits: [
        { old_string: "import x from 'x';", new_string: "import y from 'y';" },
        { old_string: "function total(items) {\n  let sum = 1;\n  for (const i of items) sum += i.cost;", new_string: "nope" },
      ],
    });
    expect(out.status).toBe("error");
    expect(out.error?.code).toBe("old_string_not_found");
    expect(out.rendered).toMatch(/^Error \[old_string_not_found\]: Edit 2 of 2: old_string was not found in t\.js/);
    expect(out.rendered).toContain("The closest text is at lines 3-5");
    expect(out.rendered).toContain("    4\t  let sum = 0;");
    expect(out.rendered).toContain("the file is unchanged");
    expect(await readFile(abs, "utf8")).toBe(body);
  });

  it("CODE-1: spots read_file line-number prefixes pasted into old_string", async () => {
    await using f = await workspaceFixture();
    await seen(f, "p.txt", "alpha\nbeta\n");
    const out = await f.call("edit_file", { path: "p.txt", edits: [{ old_string: "    1\talpha\n    2\tbeta", new_string: "x" }] });
    expect(out.error?.code).toBe("old_string_not_found");
    expect(out.rendered).toContain("line-number prefixes");
  });

  it("CODE-1: several matches without replace_all are refused with the count and line numbers", async () => {
    await using f = await workspaceFixture();
    const abs = await seen(f, "m.txt", "x = 1\ny = 2\nx = 1\nz\nx = 1\n");
    const out = await f.call("edit_file", { path: "m.txt", edits: [{ old_string: "x = 1", new_string: "x = 2" }] });
    expect(out.error?.code).toBe("ambiguous_match");
    expect(out.rendered).toContain("found 3 times in m.txt, at lines 1, 3, 5");
    expect(await readFile(abs, "utf8")).toBe("x = 1\ny = 2\nx = 1\nz\nx = 1\n");
  });

  it("CODE-1: replace_all replaces every occurrence ($ in new_string is literal)", async () => {
    await using f = await workspaceFixture();
    const abs = await seen(f, "m.txt", "x = 1\ny = 2\nx = 1\n");
    const out = await f.call("edit_file", { path: "m.txt", edits: [{ old_string: "x = 1", new_string: "x = $& $1", replace_all: true }] });
    expect(out.status).toBe("ok");
    expect(await readFile(abs, "utf8")).toBe("x = $& $1\ny = 2\nx = $& $1\n");
    expect(out.canonical).toMatchObject({ added: 2, removed: 2 });
  });

  it("CODE-1: three edits where the third fails leave the file unchanged, byte for byte", async () => {
    await using f = await workspaceFixture();
    const original = Buffer.from(`${BOM}a\r\nb\r\nc\r\n`, "utf8");
    const abs = await seen(f, "three.txt", original);
    const out = await f.call("edit_file", {
      path: "three.txt",
      edits: [{ old_string: "a", new_string: "A" }, { old_string: "b", new_string: "B" }, { old_string: "zzz", new_string: "Z" }],
    });
    expect(out.error?.code).toBe("old_string_not_found");
    expect(out.rendered).toContain("Edit 3 of 3");
    expect(Buffer.compare(await readFile(abs), original)).toBe(0);
  });

  it("CODE-1: a later edit that looks for text an earlier edit changed says so", async () => {
    await using f = await workspaceFixture();
    await seen(f, "o.txt", "alpha beta\n");
    const out = await f.call("edit_file", { path: "o.txt", edits: [{ old_string: "alpha", new_string: "gamma" }, { old_string: "alpha beta", new_string: "x" }] });
    expect(out.error?.code).toBe("old_string_not_found");
    expect(out.rendered).toContain("an earlier edit in this call changed it");
  });

  it("CODE-1: empty old_string, identical strings and edits that change nothing are refused", async () => {
    await using f = await workspaceFixture();
    const abs = await seen(f, "e.txt", "same\n");
    const empty = await f.call("edit_file", { path: "e.txt", edits: [{ old_string: "", new_string: "x" }] });
    expect(empty.error?.code).toBe("empty_edit");
    const same = await f.call("edit_file", { path: "e.txt", edits: [{ old_string: "same", new_string: "same" }] });
    expect(same.error?.code).toBe("no_change");
    const roundTrip = await f.call("edit_file", { path: "e.txt", edits: [{ old_string: "same", new_string: "other" }, { old_string: "other", new_string: "same" }] });
    expect(roundTrip.error?.code).toBe("no_change");
    expect(roundTrip.rendered).toContain("leave e.txt unchanged");
    const none = await f.call("edit_file", { path: "e.txt", edits: [] });
    expect(none.error?.code).toBe("invalid_arguments");
    expect(await readFile(abs, "utf8")).toBe("same\n");
  });

  it("CODE-1: read before edit — never read → file_not_read; changed outside → file_changed_since_read", async () => {
    await using f = await workspaceFixture();
    const abs = await f.write("r.txt", "v1\n");
    const unread = await f.call("edit_file", { path: "r.txt", edits: [{ old_string: "v1", new_string: "v2" }] });
    expect(unread.error?.code).toBe("file_not_read");
    expect(unread.rendered).toContain("Read it with read_file first");
    // Reading part of the file (any window) counts.
    expect((await f.call("read_file", { path: "r.txt", startLine: 1, endLine: 1 })).status).toBe("ok");
    await f.write("r.txt", "v1 changed elsewhere\n");
    const stale = await f.call("edit_file", { path: "r.txt", edits: [{ old_string: "v1", new_string: "v2" }] });
    expect(stale.error?.code).toBe("file_changed_since_read");
    expect(await readFile(abs, "utf8")).toBe("v1 changed elsewhere\n");
    // Another session's read does not count for this one.
    await f.call("read_file", { path: "r.txt" }, undefined, "other");
    expect((await f.call("edit_file", { path: "r.txt", edits: [{ old_string: "v1", new_string: "v2" }] })).error?.code).toBe("file_changed_since_read");
  });

  it("CODE-1: Seam's own write counts as a read, so edits can follow each other", async () => {
    await using f = await workspaceFixture();
    const abs = await seen(f, "chain.txt", "1\n");
    expect((await f.call("edit_file", { path: "chain.txt", edits: [{ old_string: "1", new_string: "2" }] })).status).toBe("ok");
    expect((await f.call("edit_file", { path: "chain.txt", edits: [{ old_string: "2", new_string: "3" }] })).status).toBe("ok");
    expect((await f.call("write_file", { path: "chain.txt", content: "4\n" })).status).toBe("ok");
    expect((await f.call("edit_file", { path: "chain.txt", edits: [{ old_string: "4", new_string: "5" }] })).status).toBe("ok");
    expect(await readFile(abs, "utf8")).toBe("5\n");
  });

  it("CODE-1: refuses binary, non-UTF-8, oversized, missing and directory targets", async () => {
    await using f = await workspaceFixture({ writeMaxBytes: 1024 });
    await seen(f, "big.txt", "x".repeat(1000));
    await f.write("bin.dat", Buffer.from([1, 2, 0, 3]));
    await f.write("latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await f.call("read_file", { path: "latin1.txt" });
    await f.write("dir/x.txt", "x");
    const edit = (path: string, old = "x") => f.call("edit_file", { path, edits: [{ old_string: old, new_string: "y".repeat(200), replace_all: true }] });
    expect((await edit("bin.dat")).error?.code).toBe("binary_file");
    expect((await edit("latin1.txt", "caf")).error?.code).toBe("binary_file");
    expect((await edit("big.txt", "xxxxxxxx")).error?.code).toBe("file_too_large");
    await f.write("huge.txt", "x".repeat(2000));
    expect((await edit("huge.txt")).error?.code).toBe("file_too_large");
    const missing = await edit("nope.txt");
    expect(missing.error?.code).toBe("not_found");
    expect(missing.rendered).toContain("Use write_file");
    expect((await edit("dir")).error?.code).toBe("not_a_file");
  });

  it("CODE-1: keeps the file mode (a 0755 script stays 0755)", async () => {
    await using f = await workspaceFixture();
    const abs = await seen(f, "run.sh", "#!/bin/sh\necho hi\n");
    const { chmod, stat } = await import("node:fs/promises");
    await chmod(abs, 0o755);
    expect((await f.call("edit_file", { path: "run.sh", edits: [{ old_string: "hi", new_string: "hello" }] })).status).toBe("ok");
    expect((await stat(abs)).mode & 0o7777).toBe(0o755);
  });

  it("CODE-1: refuses edits through a file link or a folder link that leaves the workspace", async () => {
    await using f = await workspaceFixture();
    await f.link("secret-link.txt", join(f.outside, "secret.txt"));
    await f.link("out-dir", f.outside);
    for (const path of ["secret-link.txt", "out-dir/secret.txt"]) {
      const out = await f.call("edit_file", { path, edits: [{ old_string: "TOP", new_string: "NOT" }] });
      expect(out.error?.code).toBe("outside_workspace");
    }
    expect(await readFile(join(f.outside, "secret.txt"), "utf8")).toBe("TOP SECRET\n");
  });

  it("CODE-1: edits through a link inside the workspace change the target and keep the link", async () => {
    await using f = await workspaceFixture();
    const abs = await seen(f, "real.txt", "hello\n");
    await f.link("alias.txt", "real.txt");
    const out = await f.call("edit_file", { path: "alias.txt", edits: [{ old_string: "hello", new_string: "bye" }] });
    expect(out.status).toBe("ok");
    expect((out.canonical as FileChange).path).toBe("real.txt");
    expect(await readFile(abs, "utf8")).toBe("bye\n");
    const { lstat } = await import("node:fs/promises");
    expect((await lstat(join(f.ws, "alias.txt"))).isSymbolicLink()).toBe(true);
  });

  it("CODE-6: afterWrite is awaited after each write with the new content; its failure does not fail the tool", async () => {
    const events: { sessionId: string; abs: string; content: string }[] = [];
    const logged: string[] = [];
    let fail = false;
    const log = { info: () => {}, warn: (m: string) => void logged.push(m), error: () => {} };
    await using f = await workspaceFixture({}, {
      log,
      afterWrite: async (e) => {
        await new Promise((r) => setTimeout(r, 5));
        events.push({ sessionId: e.sessionId, abs: e.abs, content: e.content });
        if (fail) throw new Error("hook broke");
      },
    });
    const abs = await seen(f, "h.txt", "a\r\n");
    await f.call("edit_file", { path: "h.txt", edits: [{ old_string: "a", new_string: "b" }] });
    expect(events).toEqual([{ sessionId: "s", abs, content: "b\r\n" }]);
    fail = true;
    const out = await f.call("write_file", { path: "new.txt", content: "n\n" });
    expect(out.status).toBe("ok");
    expect(events).toHaveLength(2);
    expect(logged).toEqual(["afterWrite hook failed"]);
  });
});
