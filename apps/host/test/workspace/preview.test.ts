import { readFile, stat } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { isHostError } from "../../src/core/errors.js";
import { commit, planEdit, planWrite } from "../../src/workspace/change.js";
import { previewEdit } from "../../src/workspace/edit-file.js";
import { previewWrite } from "../../src/workspace/write-file.js";
import { workspaceFixture } from "./fixture.js";

/** The error code a preview throws, as the model would see it from the tool. */
const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: unknown) => (isHostError(e) ? e.publicCode : String(e)));

describe("previews for approvals (PERM-3, CODE-1)", () => {
  it("PERM-3: previewEdit equals the later real result and leaves the disk untouched", async () => {
    await using f = await workspaceFixture();
    const abs = await f.write("src/a.ts", "let a = 1;\r\nlet b = 2;\r\n");
    await f.call("read_file", { path: "src/a.ts" });
    const before = await stat(abs);
    const ctx = { sessionId: "s", workspace: f.ws };
    const args = { path: "src/a.ts", edits: [{ old_string: "let b = 2;", new_string: "let b = 3;" }] };
    const preview = await previewEdit(f.ledger, ctx, args);
    expect(await readFile(abs, "utf8")).toBe("let a = 1;\r\nlet b = 2;\r\n");
    expect((await stat(abs)).mtimeMs).toBe(before.mtimeMs);
    const real = await f.call("edit_file", args);
    expect(real.canonical).toEqual(preview);
    expect(preview).toMatchObject({ action: "edited", added: 1, removed: 1 });
  });

  it("PERM-3: previewWrite of a new file equals the real result and creates nothing", async () => {
    await using f = await workspaceFixture();
    const ctx = { sessionId: "s", workspace: f.ws };
    const args = { path: "new/dir/file.md", content: "# Title\n" };
    const preview = await previewWrite(f.ledger, ctx, args);
    expect(await stat(`${f.ws}/new`).catch(() => undefined)).toBeUndefined();
    expect((await f.call("write_file", args)).canonical).toEqual(preview);
  });

  it("PERM-3: a preview fails exactly as the call would", async () => {
    await using f = await workspaceFixture();
    await f.write("unread.txt", "x\n");
    await f.write("dup.txt", "x x\n");
    await f.call("read_file", { path: "dup.txt" });
    const ctx = { sessionId: "s", workspace: f.ws };
    const cases: [string, unknown][] = [
      ["file_not_read", { path: "unread.txt", edits: [{ old_string: "x", new_string: "y" }] }],
      ["ambiguous_match", { path: "dup.txt", edits: [{ old_string: "x", new_string: "y" }] }],
      ["old_string_not_found", { path: "dup.txt", edits: [{ old_string: "q", new_string: "y" }] }],
      ["outside_workspace", { path: "../outside/secret.txt", edits: [{ old_string: "TOP", new_string: "y" }] }],
      ["invalid_arguments", { path: "dup.txt", edits: [] }],
    ];
    for (const [code, args] of cases) {
      expect(await codeOf(previewEdit(f.ledger, ctx, args)), code).toBe(code);
      expect((await f.call("edit_file", args)).error?.code, code).toBe(code);
    }
    expect(await codeOf(previewWrite(f.ledger, ctx, { path: "unread.txt", content: "y" }))).toBe("file_not_read");
    expect(await codeOf(previewWrite(f.ledger, ctx, { path: "unread.txt" }))).toBe("invalid_arguments");
    expect(await readFile(`${f.ws}/dup.txt`, "utf8")).toBe("x x\n");
  });

  it("CODE-1: a commit refuses a file that changed (or appeared) after its plan was computed", async () => {
    await using f = await workspaceFixture();
    const abs = await f.write("race.txt", "one\n");
    await f.call("read_file", { path: "race.txt" });
    const ctx = { sessionId: "s", workspace: f.ws };
    const plan = await planEdit(f.ledger, ctx, { path: "race.txt", edits: [{ old_string: "one", new_string: "two" }] });
    await f.write("race.txt", "someone else\n");
    expect(await codeOf(commit(plan, f.ledger, ctx))).toBe("file_changed_since_read");
    expect(await readFile(abs, "utf8")).toBe("someone else\n");
    const create = await planWrite(f.ledger, ctx, { path: "fresh.txt", content: "mine\n" });
    await f.write("fresh.txt", "theirs\n");
    expect(await codeOf(commit(create, f.ledger, ctx))).toBe("file_not_read");
    expect(await readFile(`${f.ws}/fresh.txt`, "utf8")).toBe("theirs\n");
  });
});
