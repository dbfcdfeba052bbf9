import { describe, expect, it } from "vitest";
import type { GrepResult } from "../../src/workspace/grep.js";
import { globToRegExp } from "../../src/workspace/glob.js";
import { workspaceTools } from "../../src/workspace/workspace.js";
import { workspaceFixture } from "./fixture.js";

describe("grep", () => {
  it("finds matching lines in name order and renders path:line: text", async () => {
    await using f = await workspaceFixture();
    await f.write("src/b.ts", "export const todo = 1;\nnothing\n   // TODO: trim me   \n");
    await f.write("src/a.ts", "// TODO first\n");
    await f.write("README.md", "no match here\n");
    const outcome = await f.call("grep", { pattern: "todo", ignoreCase: true });
    expect(outcome.status).toBe("ok");
    const r = outcome.canonical as GrepResult;
    expect(r.matches).toEqual([
      { path: "src/a.ts", line: 1, text: "// TODO first" },
      { path: "src/b.ts", line: 1, text: "export const todo = 1;" },
      { path: "src/b.ts", line: 3, text: "// TODO: trim me" },
    ]);
    expect(r.filesScanned).toBe(3);
    expect(outcome.rendered.split("\n").slice(0, 3)).toEqual(["src/a.ts:1: // TODO first", "src/b.ts:1: export const todo = 1;", "src/b.ts:3: // TODO: trim me"]);
    expect((await f.call("grep", { pattern: "todo" })).rendered).toBe("src/b.ts:1: export const todo = 1;\n[1 match; 3 files searched.]");
  });

  it("caps results with a truncated flag", async () => {
    await using f = await workspaceFixture();
    await f.write("many.txt", Array.from({ length: 50 }, (_, i) => `hit ${i}`).join("\n"));
    const capped = await f.call("grep", { pattern: "hit", maxResults: 5 });
    expect((capped.canonical as GrepResult).matches).toHaveLength(5);
    expect((capped.canonical as GrepResult).truncated).toBe(true);
    expect(capped.rendered).toContain("[Showing the first 5 matches; there are more.");
    const exact = await f.call("grep", { pattern: "hit", maxResults: 50 });
    expect((exact.canonical as GrepResult).truncated).toBe(false);
    expect((await f.call("grep", { pattern: "hit", maxResults: 501 })).error?.code).toBe("invalid_arguments");
  });

  it("keeps rendered output under the runtime cap and says so", async () => {
    await using f = await workspaceFixture();
    await f.write("wide.txt", Array.from({ length: 500 }, (_, i) => `hit ${i} ${"w".repeat(400)}`).join("\n"));
    const outcome = await f.call("grep", { pattern: "hit", maxResults: 500 });
    const r = outcome.canonical as GrepResult;
    expect(r.matches).toHaveLength(500);
    expect(r.matches[0]!.text).toHaveLength(301);
    expect(outcome.rendered).not.toContain("[output truncated");
    expect(outcome.rendered).toMatch(/\[Showing the first \d+ of 500 matches \(output size limit\)/);
  });

  it("defaults to 100 results", async () => {
    await using f = await workspaceFixture();
    await f.write("many.txt", Array.from({ length: 150 }, () => "hit").join("\n"));
    const r = (await f.call("grep", { pattern: "hit" })).canonical as GrepResult;
    expect(r.matches).toHaveLength(100);
    expect(r.truncated).toBe(true);
  });

  it("explains an invalid regular expression", async () => {
    await using f = await workspaceFixture();
    const outcome = await f.call("grep", { pattern: "foo(" });
    expect(outcome.error?.code).toBe("invalid_arguments");
    expect(outcome.rendered).toMatch(/^Error \[invalid_arguments\]: pattern: Invalid regular expression.*Escape special characters/);
  });

  it("skips .git, node_modules, binary and large files, and never follows symlinks", async () => {
    await using f = await workspaceFixture();
    await f.write(".git/config", "needle\n");
    await f.write("node_modules/x/index.js", "needle\n");
    await f.write("bin.dat", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0, 1, 2])]));
    await f.write("huge.txt", `needle\n${"x".repeat(1024 * 1024)}`);
    await f.write("ok.txt", "needle\n");
    await f.link("out", f.outside);
    await f.link("out.txt", `${f.outside}/secret.txt`);
    await f.write(`../outside/needle.txt`, "needle\n");
    const outcome = await f.call("grep", { pattern: "needle|SECRET" });
    const r = outcome.canonical as GrepResult;
    expect(r.matches.map((m) => m.path)).toEqual(["ok.txt"]);
    expect(r.skipped).toEqual({ tooLarge: 1, binary: 1, symlinks: 2 });
    expect(outcome.rendered).toContain("skipped 1 larger than 1 MiB, 1 binary, 2 symlinks");
  });

  it("searches under a path, filters by glob and refuses paths outside", async () => {
    await using f = await workspaceFixture();
    await f.write("src/a.ts", "needle\n");
    await f.write("src/a.test.ts", "needle\n");
    await f.write("src/deep/b.ts", "needle\n");
    await f.write("docs/n.md", "needle\n");
    const paths = async (args: Record<string, unknown>) =>
      ((await f.call("grep", { pattern: "needle", ...args })).canonical as GrepResult).matches.map((m) => m.path);
    expect(await paths({ path: "src" })).toEqual(["src/a.test.ts", "src/a.ts", "src/deep/b.ts"]);
    expect(await paths({ glob: "*.md" })).toEqual(["docs/n.md"]);
    expect(await paths({ glob: "src/**/*.ts" })).toEqual(["src/a.test.ts", "src/a.ts", "src/deep/b.ts"]);
    expect(await paths({ glob: "*.{md,test.ts}" })).toEqual(["docs/n.md", "src/a.test.ts"]);
    expect(await paths({ path: "src/deep/b.ts" })).toEqual(["src/deep/b.ts"]);
    expect((await f.call("grep", { pattern: "x", path: "../outside" })).error?.code).toBe("outside_workspace");
  });

  it("stops walking when its signal is aborted", async () => {
    await using f = await workspaceFixture();
    for (let i = 0; i < 50; i++) await f.write(`d${i}/f.txt`, "needle\n");
    const grep = workspaceTools().find((t) => t.name === "grep")!;
    const run = (signal: AbortSignal) => grep.run({ pattern: "needle", maxResults: 500 }, { signal, sessionId: "s", workspace: f.ws, callId: "c" });
    const full = await run(new AbortController().signal);
    expect((full.canonical as GrepResult).matches).toHaveLength(50);
    const controller = new AbortController();
    const pending = run(controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: "closed:workspace", publicCode: "cancelled" });
  });
});

describe("globToRegExp", () => {
  it.each([
    ["*.ts", "a.ts", true], ["*.ts", "dir/a.ts", false], ["**/*.ts", "a.ts", true], ["**/*.ts", "x/y/a.ts", true],
    ["src/*.ts", "src/a.ts", true], ["src/*.ts", "src/x/a.ts", false], ["a?.js", "ab.js", true], ["[!a]*.js", "b.js", true],
    ["[!a]*.js", "a.js", false], ["{a,b}.md", "b.md", true], ["a.b", "axb", false], ["(x)+.txt", "(x)+.txt", true],
  ])("%s matches %s: %s", (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});
