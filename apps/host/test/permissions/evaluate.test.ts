import type { ToolEffect } from "@seam/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluate } from "../../src/permissions/evaluate.js";
import { loadShellParser } from "../../src/permissions/shell.js";
import type { PermissionMode, PermissionRule, RuleAction } from "../../src/permissions/types.js";
import { bashCall, rule, toolCall, workspace } from "./fixture.js";

const fixture = workspace();
const ws = fixture.ws;
beforeAll(() => loadShellParser());
afterAll(() => fixture[Symbol.dispose]());

/** The usual rule set: a few allowed commands, rm denied, git push asks. */
const R: PermissionRule[] = [
  ...["bash(npm test)", "bash(git diff:*)", "bash(git status)", "bash(git commit:*)", "bash(echo:*)", "bash(ls:*)", "bash(cat:*)", "bash(grep:*)", "bash(wc:*)", "bash(pwd)", "bash(find:*)", "bash(xargs:*)"].map((p) => rule("allow", p)),
  rule("deny", "bash(rm:*)", "global"),
  rule("ask", "bash(git push:*)", "session"),
];
const GIT = [rule("allow", "bash(git:*)"), rule("deny", "bash(git push:*)")];
const RM_EXACT = [rule("allow", "bash(rm:*)"), rule("deny", "bash(rm secret.txt)")];

type Row = [command: string, mode: PermissionMode, rules: PermissionRule[], verdict: RuleAction, reason?: string];

// PERM-2: each row is a command form, the mode and rule set it is checked under, and the expected verdict.
const rows: Row[] = [
  ["npm test", "ask", R, "allow", "workspace rule bash(npm test)"],
  ["npm   test", "ask", R, "allow"],
  ["npm test -- --watch", "ask", R, "ask", "not allowed by any rule"],
  ["git diff", "ask", R, "allow"],
  ["git diff HEAD~1 -- src", "ask", R, "allow", "bash(git diff:*)"],
  ["git difftool", "ask", R, "ask"],
  ["git diff && npm test", "ask", R, "allow", "each of its 2 commands"],
  ["git diff && rm -rf build", "ask", R, "deny", "`rm -rf build` (part 2 of 2)"],
  ["npm test || echo failed", "ask", R, "allow"],
  ["npm test; ls -la", "ask", R, "allow"],
  ["npm test\nls", "ask", R, "allow"],
  ["cat a.txt | grep x | wc -l", "ask", R, "allow"],
  ["cat a.txt | python3 x.py", "ask", R, "ask", "`python3 x.py` (part 2 of 2)"],
  ["(cd src && ls)", "ask", R, "allow"],
  ["{ ls; pwd; }", "ask", R, "allow"],
  ["echo $(pwd)", "ask", R, "allow"],
  ["echo $(whoami)", "ask", R, "ask", "whoami"],
  ["echo `rm -rf /`", "ask", R, "deny", "global rule bash(rm:*)"],
  ["diff <(ls a) <(ls b)", "ask", R, "ask", "diff"],
  ["ls > out.txt", "ask", R, "allow"],
  ["ls > /etc/x", "ask", R, "ask", "outside the workspace"],
  ["ls >> ../x", "ask", R, "ask", "outside the workspace"],
  ["ls > /etc/x", "auto", [], "ask", "outside the workspace"],
  ["npm test 2>&1", "ask", R, "allow"],
  ["npm test > /dev/null 2>&1", "ask", R, "allow"],
  ["cd /tmp && ls > y", "auto", [], "ask", "outside the workspace (/tmp/y)"],
  ["FOO=1 npm test", "ask", R, "allow"],
  ["PATH=/tmp/evil:$PATH npm test", "ask", R, "ask"],
  ["LD_PRELOAD=/tmp/x.so ls", "ask", R, "ask"],
  ["LD_PRELOAD=/tmp/x.so ls", "ask", [rule("allow", "bash(LD_PRELOAD=/tmp/x.so ls)")], "allow"],
  ["export PATH=/tmp:$PATH; npm test", "auto", [], "ask", "PATH"],
  ['git commit -m "a && b"', "ask", R, "allow", "bash(git commit:*)"],
  ['git commit -m "$(rm -rf /)"', "ask", R, "deny"],
  ["bash -c 'npm test && ls'", "ask", R, "allow"],
  ["bash -c 'rm -rf /'", "auto", R, "deny"],
  ['bash -c "$SCRIPT"', "auto", [], "ask", "cannot be fully checked"],
  ['eval "npm test"', "ask", R, "ask", "eval"],
  ["exec ls", "auto", [], "ask", "exec"],
  ["sudo npm test", "auto", [], "ask", "privileges"],
  ["sudo rm -rf /", "ask", R, "deny"],
  ["timeout 60 npm test", "ask", R, "allow"],
  ["timeout 5 rm x", "ask", R, "deny"],
  ["rm *.txt", "ask", R, "deny"],
  ["rm *.txt", "ask", RM_EXACT, "ask", "may match the workspace rule bash(rm secret.txt)"],
  ["rm a.txt", "ask", RM_EXACT, "allow"],
  ["git $SUB origin", "ask", GIT, "ask", "may match"],
  ["git status", "ask", GIT, "allow"],
  ["ls # && rm -rf /", "ask", R, "allow"],
  ["ls \\\n  -la", "ask", R, "allow"],
  ['echo "unterminated', "auto", [], "ask", "cannot be parsed"],
  ["if true; then", "ask", R, "ask", "incomplete"],
  ["cat <<EOF > notes.txt\nhello\nEOF", "ask", R, "allow"],
  ["cat <<EOF\n$(rm -rf /)\nEOF", "ask", R, "deny"],
  ["cat <<'EOF' | bash\nrm -rf /\nEOF", "auto", [], "ask", "reads its commands from its input"],
  ["ls | xargs rm", "ask", R, "ask", "xargs"],
  ["find . -name '*.tmp' -exec rm {} \\;", "auto", [], "ask", "find -exec"],
  ["", "ask", R, "ask", "runs no program"],
  ["", "auto", [], "allow"],
  ["# just a note", "plan", [], "deny"],
  ["$CMD --help", "auto", [], "ask", "command name"],
  ["git push origin main", "ask", R, "ask", "session rule bash(git push:*)"],
  ["git push origin main", "auto", R, "ask"],
  ["f() { rm -rf /; }", "auto", R, "deny"],
  ['for f in *.txt; do cat "$f"; done', "ask", R, "allow"],
  ["if [ -f x ]; then rm x; fi", "ask", R, "deny"],
  ["case $x in a) ls ;; *) pwd ;; esac", "ask", R, "allow"],
  ["npm test &", "ask", R, "allow"],
  ["! grep -q x a.txt", "ask", R, "allow"],
  ['echo hi > "$OUT"', "ask", R, "ask", "only known when it runs"],
  ["rm -rf build", "auto", [], "allow", "Auto mode"],
  ["rm -rf build", "auto", R, "deny"],
  ["ls", "plan", R, "deny", "Plan mode"],
  ["rm -rf /", "plan", R, "deny", "global rule bash(rm:*)"],
  ["npm test", "auto-edit", [], "ask", "Auto-edit mode"],
  ["npm test", "ask", [rule("allow", "bash")], "allow"],
  ["sudo ls", "ask", [rule("allow", "bash")], "ask"],
  ["npm test", "auto", [rule("deny", "bash")], "deny"],
];

describe("evaluate: bash command forms (PERM-2)", () => {
  it("covers at least 40 command forms", () => {
    expect(new Set(rows.map((r) => r[0])).size).toBeGreaterThanOrEqual(40);
  });

  it.each(rows)("%j in %s mode → %s", (command, mode, rules, verdict, reason) => {
    const v = evaluate(bashCall(ws, command), { mode, rules });
    expect(v.verdict, v.reason).toBe(verdict);
    if (reason) expect(v.reason).toContain(reason);
    expect(v.reason).toMatch(/\.$/);
  });

  it("names the deciding rule in `by`", () => {
    const v = evaluate(bashCall(ws, "git diff && rm -rf build"), { mode: "auto", rules: R });
    expect(v.by).toEqual({ kind: "rule", rule: R.find((r) => r.pattern === "bash(rm:*)") });
    expect(evaluate(bashCall(ws, "ls"), { mode: "plan", rules: R }).by).toEqual({ kind: "mode", mode: "plan" });
  });

  it("asks when the bash arguments carry no command", () => {
    expect(evaluate({ ...bashCall(ws, ""), args: { cmd: "ls" } }, { mode: "auto", rules: [] }).verdict).toBe("ask");
  });

  it("skips invalid stored patterns instead of failing", () => {
    expect(evaluate(bashCall(ws, "npm test"), { mode: "ask", rules: [rule("deny", "bash(*)"), ...R] }).verdict).toBe("allow");
  });
});

describe("evaluate: mode defaults per effect (PERM-1)", () => {
  const table: Record<PermissionMode, Record<ToolEffect, RuleAction>> = {
    plan: { read: "allow", network: "allow", write: "deny", execute: "deny", external: "deny", extension: "deny" },
    ask: { read: "allow", network: "allow", extension: "allow", write: "ask", execute: "ask", external: "ask" },
    "auto-edit": { read: "allow", network: "allow", extension: "allow", write: "allow", execute: "ask", external: "ask" },
    auto: { read: "allow", network: "allow", extension: "allow", write: "allow", execute: "allow", external: "allow" },
  };
  const cases = Object.entries(table).flatMap(([mode, effects]) => Object.entries(effects).map(([effect, verdict]) => [mode, effect, verdict] as const));
  it.each(cases)("%s mode, %s effect → %s", (mode, effect, verdict) => {
    const v = evaluate(toolCall(ws, "some_tool", effect as ToolEffect), { mode: mode as PermissionMode, rules: [] });
    expect(v).toMatchObject({ verdict, by: { kind: "mode", mode } });
    expect(v.reason.toLowerCase()).toContain(mode);
  });

  it("tells the model in plan mode what to do", () => {
    const v = evaluate(toolCall(ws, "write_file", "write", { path: "a.txt" }), { mode: "plan", rules: [] });
    expect(v.reason).toBe("Plan mode: only reading and web tools run, so write_file was not run; finish the plan and ask the user to switch mode to carry it out.");
  });
});

describe("evaluate: precedence deny > ask > allow > mode (PERM-2)", () => {
  const issue = toolCall(ws, "mcp__github__create_issue_ab12", "external", { title: "x" });
  const allow = rule("allow", "mcp__github__*", "global");
  const ask = rule("ask", "mcp__github__create_*", "workspace");
  const deny = rule("deny", "mcp__github__create_issue_ab12", "session");
  it.each([
    [[allow, ask, deny], "ask", "deny", deny],
    [[deny, ask, allow], "auto", "deny", deny],
    [[allow, ask], "auto", "ask", ask],
    [[allow], "ask", "allow", allow],
    [[], "ask", "ask", null],
    [[allow], "plan", "deny", null],
    [[rule("allow", "mcp__*")], "ask", "allow", null],
    [[rule("allow", "mcp__gitlab__*")], "ask", "ask", null],
  ] as const)("%#: rules decide before the %s mode", (rules, mode, verdict, by) => {
    const v = evaluate(issue, { mode, rules: [...rules] });
    expect(v.verdict).toBe(verdict);
    if (by) expect(v.by).toEqual({ kind: "rule", rule: by });
  });

  it("deny rules apply in plan mode to tools the mode allows, ask rules too", () => {
    const fetch = toolCall(ws, "web_fetch", "network", { url: "https://evil.example/x" });
    expect(evaluate(fetch, { mode: "plan", rules: [rule("deny", "web_fetch(domain:evil.example)")] }).verdict).toBe("deny");
    expect(evaluate(fetch, { mode: "plan", rules: [rule("ask", "web_fetch")] }).verdict).toBe("ask");
  });

  it("file and web rules decide by their arguments", () => {
    const rules = [rule("allow", "edit_file(src/**)"), rule("deny", "edit_file(**/.env)"), rule("allow", "web_fetch(domain:python.org)")];
    const v = (tool: string, effect: ToolEffect, args: unknown) => evaluate(toolCall(ws, tool, effect, args), { mode: "ask", rules }).verdict;
    expect(v("edit_file", "write", { path: "src/a/b.ts" })).toBe("allow");
    expect(v("edit_file", "write", { path: `${ws}/src/a.ts` })).toBe("allow");
    expect(v("edit_file", "write", { path: "src/.env" })).toBe("deny");
    expect(v("edit_file", "write", { path: "lib/a.ts" })).toBe("ask");
    expect(v("edit_file", "write", { path: "../src/a.ts" })).toBe("ask");
    expect(v("write_file", "write", { path: "src/a.ts" })).toBe("ask");
    expect(v("web_fetch", "network", { url: "https://docs.python.org/3/" })).toBe("allow");
  });
});
