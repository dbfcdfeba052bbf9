import type { ToolEffect } from "@seam/shared";

/** A session's permission mode (PERM-1). */
export type PermissionMode = "plan" | "ask" | "auto-edit" | "auto";

export type RuleAction = "allow" | "ask" | "deny";
export type RuleScope = "session" | "workspace" | "global";

/**
 * A stored rule (PERM-2). `pattern` is `tool` or `tool(spec)`: `bash(npm test)`, `bash(git diff:*)`,
 * `edit_file(src/**)`, `write_file(**\/*.md)`, `web_fetch(domain:docs.python.org)`, `mcp__github__*`.
 */
export interface PermissionRule {
  id: string;
  scope: RuleScope;
  /** The workspace (scope `workspace`) or session id (scope `session`) it belongs to; null for global. */
  owner: string | null;
  action: RuleAction;
  pattern: string;
}

/** The call being decided: its tool, effect and (already validated) arguments, in its session's workspace. */
export interface CallFacts {
  tool: string;
  effect: ToolEffect;
  args: unknown;
  /** Canonical absolute workspace directory (relative paths and redirections resolve against it). */
  workspace: string;
  /** The tool's own setting asks before every call (`ToolDef.approval`, MCP-8); rules and plan mode still come first. */
  asks?: boolean;
}

/** What decided a verdict: a rule, or the mode's default for the effect. */
export type DecidedBy = { kind: "rule"; rule: PermissionRule } | { kind: "mode"; mode: PermissionMode };

export interface Verdict {
  verdict: RuleAction;
  by: DecidedBy;
  /** One sentence a person (and, for deny, the model) can read: why this verdict. */
  reason: string;
}
