import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../../src/permissions/evaluate.js";
import { loadShellParser } from "../../src/permissions/shell.js";
import { suggestRule } from "../../src/permissions/suggest.js";
import { bashCall, rule, toolCall, workspace } from "./fixture.js";

const fixture = workspace();
const ws = fixture.ws;
beforeAll(() => loadShellParser());
afterAll(() => fixture[Symbol.dispose]());

describe("suggestRule (PERM-3)", () => {
  it.each([
    ["echo hi", ["bash(echo:*)"]],
    ["ls -la src", ["bash(ls:*)"]],
    ["git diff HEAD", ["bash(git diff:*)"]],
    ["git -C sub status", ["bash(git -C sub status)"]],
    ["npm run build", ["bash(npm run:*)"]],
    ["npm test", ["bash(npm test:*)"]],
    ["cargo test --release", ["bash(cargo test:*)"]],
    ["docker compose up -d", ["bash(docker compose:*)"]],
    ["kubectl get pods", ["bash(kubectl get:*)"]],
    ["make", ["bash(make:*)"]],
    ["rm -rf build", ["bash(rm -rf build)"]],
    ["python3 scripts/gen.py --out x", ["bash(python3 scripts/gen.py --out x)"]],
    ["curl -s https://example.com", ["bash(curl -s https://example.com)"]],
    ["rm 'my file.txt'", ["bash(rm 'my file.txt')"]],
    ["FOO=1 npm test", ["bash(npm test:*)"]],
    ["timeout 60 npm test", ["bash(npm test:*)"]],
    ["git diff && npm test | tee out.txt; git diff --stat", ["bash(git diff:*)", "bash(npm test:*)", "bash(tee:*)"]],
    ["bash -c 'npm test'", ["bash(npm test:*)"]],
    ["LD_PRELOAD=/x.so ls", ["bash(LD_PRELOAD=/x.so ls)"]],
  ])("%j → %j", (command, expected) => {
    expect(suggestRule(bashCall(ws, command))).toEqual(expected);
  });

  it.each(["", "# note", "eval ls", "sudo ls", "ls > /etc/x", "$CMD x", "rm $TARGET", "echo \"unterminated", "ls | xargs rm"])("suggests nothing for %j", (command) => {
    expect(suggestRule(bashCall(ws, command))).toBeNull();
  });

  it("never suggests bash(*), bash(:*) or bash alone", () => {
    for (const command of ["echo", "git", "npm", "x", "./run.sh", "a | b"]) {
      for (const p of suggestRule(bashCall(ws, command)) ?? []) expect(p).not.toMatch(/^bash(\(\*\)|\(:\*\)|)$/);
    }
  });

  it("a suggested rule allows the call it was made for", () => {
    for (const command of ["git diff HEAD", "npm run build && cargo test", "rm -rf build", "timeout 5 ls"]) {
      const call = bashCall(ws, command);
      const rules = suggestRule(call)!.map((p) => rule("allow", p));
      expect(evaluate(call, { mode: "ask", rules }).verdict, command).toBe("allow");
    }
  });

  it.each([
    ["edit_file", { path: "src/a/b.ts" }, ["edit_file(src/a/**)"]],
    ["write_file", { path: "README.md" }, ["write_file(README.md)"]],
    ["write_file", { path: "PATH" }, ["write_file(PATH)"]],
    ["edit_file", { path: "../x/a.ts" }, null],
    ["edit_file", { path: "src/[x].ts" }, null],
    ["web_fetch", { url: "https://docs.python.org/3/library" }, ["web_fetch(domain:docs.python.org)"]],
    ["web_fetch", { url: "nope" }, null],
    ["web_search", { query: "x" }, ["web_search"]],
    ["mcp__github__create_issue_ab12", {}, ["mcp__github__create_issue_ab12"]],
  ] as const)("%s %j → %j", (tool, args, expected) => {
    expect(suggestRule(toolCall(ws, tool, "write", { ...args }))).toEqual(expected);
  });

  it("the edit suggestion allows the edit", () => {
    const call = toolCall(ws, "edit_file", "write", { path: `${ws}/src/x/y.ts` });
    expect(evaluate(call, { mode: "ask", rules: suggestRule(call)!.map((p) => rule("allow", p)) }).verdict).toBe("allow");
  });
});
