import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { globToRegExp } from "../../src/permissions/glob.js";
import { ruleMatches } from "../../src/permissions/match.js";
import { validatePattern } from "../../src/permissions/patterns.js";
import { loadShellParser } from "../../src/permissions/shell.js";
import { thrown } from "../support/errors.js";
import { bashCall, toolCall, workspace } from "./fixture.js";

const fixture = workspace();
const ws = fixture.ws;
beforeAll(() => loadShellParser());
afterAll(() => fixture[Symbol.dispose]());

describe("validatePattern (PERM-2, PERM-4)", () => {
  it.each([
    ["web_search", "web_search"],
    ["  mcp__github__*  ", "mcp__github__*"],
    ["mcp__*", "mcp__*"],
    ["bash", "bash"],
    ["bash(npm   test)", "bash(npm test)"],
    ["bash(git diff:*)", "bash(git diff:*)"],
    ["bash( git  diff :*)", "bash(git diff:*)"],
    ["bash(git commit -m 'a b')", "bash(git commit -m 'a b')"],
    ['bash(echo "it\'s")', `bash(echo "it's")`],
    ["edit_file(src/**)", "edit_file(src/**)"],
    ["write_file(**/*.{md,txt})", "write_file(**/*.{md,txt})"],
    ["web_fetch(domain:Docs.Python.org)", "web_fetch(domain:docs.python.org)"],
  ])("accepts %j as %j", (input, normalised) => {
    const r = validatePattern(input);
    expect(r.ok && r.rule.pattern).toBe(normalised);
  });

  it.each([
    ["", "Enter a pattern"],
    ["*", "every tool"],
    ["mcp__*__x", "Only a trailing *"],
    ["read file", "not a tool name"],
    [`${"x".repeat(65)}`, "at most 64"],
    ["bash(npm test", "must end with \")\""],
    ["mcp__github__*(x)", "matches tools by name only"],
    ["bash()", "parentheses are empty"],
    ["read_file(src/**)", "read_file takes no specifier"],
    ["web_search(python)", "web_search takes no specifier"],
    ["bash(*)", "write bash alone"],
    ["bash(:*)", "write bash alone"],
    ["bash(git:* push)", ":* marks a prefix"],
    ["bash(npm test && rm x)", "one simple command"],
    ["bash(echo $HOME)", "variables"],
    ["bash(echo 'open)", "not closed"],
    ["edit_file(/etc/**)", "drop the leading /"],
    ["edit_file(../x/**)", "cannot leave the workspace"],
    ["edit_file(src/{a,b)", "not closed"],
    ["web_fetch(python.org)", "web_fetch(domain:python.org)"],
    ["web_fetch(domain:https://python.org/x)", "without scheme"],
    ["web_fetch(domain:*.python.org)", "without \"*.\""],
    ["web_fetch(domain:py_thon.org)", "not a host name"],
  ])("refuses %j with a message that says what to do", (input, fragment) => {
    const r = validatePattern(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain(fragment);
  });
});

describe("file globs (PERM-2)", () => {
  it.each([
    ["src/**", "src/a.ts", true],
    ["src/**", "src/a/b/c.ts", true],
    ["src/**", "srcx/a.ts", false],
    ["**/*.md", "README.md", true],
    ["**/*.md", "docs/a/b.md", true],
    ["**/*.md", "docs/a/b.mdx", false],
    ["*.ts", "a.ts", true],
    ["*.ts", "src/a.ts", false],
    ["src/?.ts", "src/a.ts", true],
    ["src/?.ts", "src/ab.ts", false],
    ["{src,test}/**/*.ts", "test/x/y.ts", true],
    ["{src,test}/**/*.ts", "lib/y.ts", false],
    ["**/.env", ".env", true],
    ["**/.env", "config/.env", true],
    ["src/[ab].ts", "src/b.ts", true],
    ["src/[!ab].ts", "src/b.ts", false],
    ["a+b/(x).ts", "a+b/(x).ts", true],
  ])("%s on %s → %s", (glob, path, expected) => {
    expect(globToRegExp(glob).test(path)).toBe(expected);
  });
});

describe("ruleMatches (PERM-4)", () => {
  it.each([
    ["bash(git diff:*)", "git diff", true],
    ["bash(git diff:*)", "git diff HEAD~1", true],
    ["bash(git diff:*)", "git difftool", false],
    ["bash(git diff:*)", "git  diff", true],
    ["bash(npm test)", "npm test", true],
    ["bash(npm test)", "npm test --watch", false],
    ["bash(npm test)", "cd src && npm test", true],
    ["bash(npm test)", "FOO=1 npm test", true],
    ["bash(npm test)", "nohup npm test", true],
    ["bash(nohup:*)", "nohup npm test", true],
    ["bash(git commit -m 'a b')", 'git commit -m "a b"', true],
    ["bash", "anything at all", true],
  ])("%s hits %j → %s", (pattern, command, expected) => {
    expect(ruleMatches(pattern, bashCall(ws, command))).toBe(expected);
  });

  it("an allow rule does not match past an assignment that changes what runs; a deny rule does", () => {
    const call = bashCall(ws, "PATH=/tmp npm test");
    expect(ruleMatches({ pattern: "bash(npm test)", action: "allow" }, call)).toBe(false);
    expect(ruleMatches({ pattern: "bash(npm test)", action: "deny" }, call)).toBe(true);
  });

  it.each([
    ["https://python.org/x", true],
    ["https://docs.python.org/3/", true],
    ["https://DOCS.Python.ORG./", true],
    ["https://evilpython.org/", false],
    ["https://python.org.evil.com/", false],
    ["https://python.org@evil.com/", false],
    ["not a url", false],
  ])("web_fetch(domain:python.org) on %s → %s", (url, expected) => {
    expect(ruleMatches("web_fetch(domain:python.org)", toolCall(ws, "web_fetch", "network", { url }))).toBe(expected);
  });

  it("file rules match workspace-relative paths, never outside ones", () => {
    const edit = (path: string) => toolCall(ws, "edit_file", "write", { path });
    expect(ruleMatches("edit_file(src/**)", edit("src/a.ts"))).toBe(true);
    expect(ruleMatches("edit_file(src/**)", edit("./src/../src/a.ts"))).toBe(true);
    expect(ruleMatches("edit_file(src/**)", edit(`${ws}/src/a.ts`))).toBe(true);
    expect(ruleMatches("edit_file(**)", edit("../outside/a.ts"))).toBe(false);
    expect(ruleMatches("edit_file(**)", edit("/etc/passwd"))).toBe(false);
    expect(ruleMatches("edit_file(**)", toolCall(ws, "edit_file", "write", { file: "a" }))).toBe(false);
    expect(ruleMatches("write_file(src/**)", edit("src/a.ts"))).toBe(false);
  });

  it("MCP wildcards match by name prefix", () => {
    const mcp = (tool: string) => toolCall(ws, tool, "external");
    expect(ruleMatches("mcp__github__*", mcp("mcp__github__create_issue_ab12"))).toBe(true);
    expect(ruleMatches("mcp__github__*", mcp("mcp__githubx__list"))).toBe(false);
    expect(ruleMatches("mcp__*", mcp("mcp__x__y"))).toBe(true);
    expect(ruleMatches("mcp__github__list_ab12", mcp("mcp__github__list_ab12"))).toBe(true);
  });

  it("throws bad_input for an invalid pattern", () => {
    const error = thrown(() => ruleMatches("bash(*)", bashCall(ws, "ls")));
    expect(error.code).toBe("bad_input:permissions");
    expect(error.message).toContain("write bash alone");
  });
});
