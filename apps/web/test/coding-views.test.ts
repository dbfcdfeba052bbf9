import type { AuditEntry, PermissionRuleView } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { bashViewOf, exitLabel } from "@/app/_components/coding/bash-result";
import { editViewOf } from "@/app/_components/coding/edit-result";
import { decidedBy } from "@/app/_components/permissions/audit-section";
import { groupRules } from "@/app/_components/permissions/rules-section";

describe("bashViewOf", () => {
  it("reads the command from the arguments while running, and the result once done", () => {
    const running = bashViewOf({ name: "bash", args: { command: "npm test", description: "tests" }, canonical: null });
    expect(running).toMatchObject({ command: "npm test", description: "tests", cwd: null, result: null });
    const done = bashViewOf({
      name: "bash",
      args: { command: "npm test" },
      canonical: { command: "npm test", cwd: "/w", exitCode: 1, signal: null, durationMs: 1200, timedOut: false, output: "FAIL", outputBytes: 4, truncated: false, sandbox: "off" },
    });
    expect(done?.cwd).toBe("/w");
    expect(exitLabel(done!.result!)).toEqual({ label: "exit 1", ok: false });
  });

  it("names how a command ended", () => {
    expect(exitLabel({ exitCode: 0 })).toEqual({ label: "exit 0", ok: true });
    expect(exitLabel({ exitCode: null, signal: "SIGTERM" })).toEqual({ label: "killed by SIGTERM", ok: false });
    expect(exitLabel({ timedOut: true, signal: "SIGKILL" })).toEqual({ label: "timed out", ok: false });
  });

  it("is null for other tools and for shapes without a command", () => {
    expect(bashViewOf({ name: "read_file", args: { path: "a" }, canonical: null })).toBeNull();
    expect(bashViewOf({ name: "bash", args: { nope: 1 }, canonical: "weird" })).toBeNull();
  });
});

describe("editViewOf", () => {
  it("reads edit_file / write_file results and falls back to the path argument", () => {
    expect(editViewOf({ name: "write_file", args: { path: "a.md" }, canonical: { path: "a.md", action: "created", diff: "@@ -0,0 +1 @@\n+x\n", added: 1, removed: 0, bytes: 2 } })).toEqual({
      path: "a.md", action: "created", diff: "@@ -0,0 +1 @@\n+x\n", added: 1, removed: 0, bytes: 2,
    });
    expect(editViewOf({ name: "edit_file", args: { path: "src/b.ts", edits: [] }, canonical: null })).toMatchObject({ path: "src/b.ts", diff: null });
    expect(editViewOf({ name: "edit_file", args: 42, canonical: { unexpected: true } })).toBeNull();
  });
});

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: "e", sessionId: "s", sessionTitle: "S", workspace: "/w", kind: "tool_call", tool: "bash", effect: "execute", subject: "npm test",
  decision: "allow", by: "user", rulePattern: null, ruleScope: null, mode: "ask", answerScope: null, message: null,
  requestedAt: "2026-12-01T00:00:00.000Z", decidedAt: "2026-12-01T00:00:01.000Z", ...over,
});

describe("decidedBy", () => {
  it("says who decided, in words", () => {
    expect(decidedBy(entry({ by: "user", answerScope: "always" }))).toBe("you (always)");
    expect(decidedBy(entry({ by: "rule", rulePattern: "bash(npm test)", ruleScope: "workspace" }))).toBe("rule bash(npm test) · workspace");
    expect(decidedBy(entry({ by: "mode", mode: "plan" }))).toBe("mode plan");
  });
});

describe("groupRules", () => {
  const rule = (over: Partial<PermissionRuleView>): PermissionRuleView => ({
    id: Math.random().toString(36), scope: "global", owner: null, ownerLabel: null, action: "allow", pattern: "x", createdAt: "", updatedAt: "", ...over,
  });
  it("groups by scope and owner, global first, deny rules first within a group", () => {
    const groups = groupRules([
      rule({ scope: "session", owner: "s1", ownerLabel: "Work", pattern: "bash" }),
      rule({ scope: "workspace", owner: "/b", pattern: "edit_file(src/**)" }),
      rule({ scope: "global", action: "allow", pattern: "glob" }),
      rule({ scope: "global", action: "deny", pattern: "bash(rm:*)" }),
      rule({ scope: "workspace", owner: "/a", pattern: "write_file" }),
    ]);
    expect(groups.map((g) => g.key)).toEqual(["global:", "workspace:/a", "workspace:/b", "session:s1"]);
    expect(groups[0]?.rules.map((r) => r.pattern)).toEqual(["bash(rm:*)", "glob"]);
  });
});
