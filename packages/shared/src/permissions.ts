import { z } from "zod";
import { ApprovalRequestView } from "./extensions.js";
import { ToolEffect } from "./tools.js";

/** A session's permission mode (PERM-1). */
export const PermissionMode = z.enum(["plan", "ask", "auto-edit", "auto"]);
export type PermissionMode = z.infer<typeof PermissionMode>;

export const RuleAction = z.enum(["allow", "ask", "deny"]);
export type RuleAction = z.infer<typeof RuleAction>;

export const RuleScope = z.enum(["session", "workspace", "global"]);
export type RuleScope = z.infer<typeof RuleScope>;

export const RULE_PATTERN_MAX = 1_000;
/** A rule pattern's text; its grammar is checked by the host (`tool` or `tool(spec)`). */
export const RulePattern = z.string().trim().min(1, "Enter a pattern such as bash(npm test) or edit_file(src/**)").max(RULE_PATTERN_MAX);

/** A stored rule (PERM-2). `owner` is the session id or the workspace path; null for global rules. */
export const PermissionRuleView = z.object({
  id: z.string(),
  scope: RuleScope,
  owner: z.string().nullable(),
  /** The session's title for session rules; the workspace path for workspace rules. */
  ownerLabel: z.string().nullable(),
  action: RuleAction,
  pattern: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PermissionRuleView = z.infer<typeof PermissionRuleView>;

const Owner = z.string().trim().min(1).max(4_096);

export const RuleCreateInput = z.strictObject({
  scope: RuleScope,
  /** Session id (scope session) or absolute workspace path (scope workspace); omitted for global. */
  owner: Owner.optional(),
  action: RuleAction,
  pattern: RulePattern,
});
export type RuleCreateInput = z.infer<typeof RuleCreateInput>;

export const RuleUpdateInput = z.strictObject({ id: z.string().min(1).max(100), action: RuleAction.optional(), pattern: RulePattern.optional() });
export type RuleUpdateInput = z.infer<typeof RuleUpdateInput>;

export const RuleRef = z.strictObject({ id: z.string().min(1).max(100) });

export const PatternCheckInput = z.strictObject({ pattern: RulePattern });
/** A pattern's validity and the recent audited calls it would have matched. */
export const PatternCheck = z.object({
  ok: z.boolean(),
  message: z.string().nullable(),
  matches: z.array(z.object({ tool: z.string(), subject: z.string(), sessionTitle: z.string(), decidedAt: z.string() })),
});
export type PatternCheck = z.infer<typeof PatternCheck>;

export const PermissionSettings = z.strictObject({
  /** The mode of sessions that have not chosen one. */
  defaultMode: PermissionMode.default("ask"),
});
export type PermissionSettings = z.infer<typeof PermissionSettings>;
export type PermissionSettingsInput = z.input<typeof PermissionSettings>;

export const SessionModeInput = z.strictObject({ sessionId: z.string().min(1).max(64), mode: PermissionMode.nullable() });

export const DecisionBy = z.enum(["rule", "mode", "user", "grant", "setting", "earlier", "turn_ended"]);
export type DecisionBy = z.infer<typeof DecisionBy>;

/** One entry of the audit log (PERM-4). */
export const AuditEntry = z.object({
  id: z.string(),
  sessionId: z.string().nullable(),
  sessionTitle: z.string(),
  workspace: z.string(),
  kind: z.enum(["tool_call", "extension_run"]),
  tool: z.string(),
  effect: z.string(),
  subject: z.string(),
  decision: z.enum(["allow", "deny", "withdrawn"]),
  by: DecisionBy,
  rulePattern: z.string().nullable(),
  ruleScope: RuleScope.nullable(),
  mode: z.string(),
  answerScope: z.enum(["once", "session", "always"]).nullable(),
  message: z.string().nullable(),
  requestedAt: z.string(),
  decidedAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditQuery = z.strictObject({
  sessionId: z.string().min(1).max(64).optional(),
  tool: z.string().trim().min(1).max(200).optional(),
  decision: z.enum(["allow", "deny", "withdrawn"]).optional(),
  /** `person` = user; `automatic` = rule, mode, grant, setting or earlier. */
  by: z.enum(["person", "rule", "mode", "automatic"]).optional(),
  limit: z.number().int().min(1).max(500).default(100),
  /** Entries decided before this ISO time (paging). */
  before: z.iso.datetime().optional(),
});
export type AuditQuery = z.input<typeof AuditQuery>;

/** What the approval card shows for a tool call (PERM-3), computed before the call runs. */
export const ToolApprovalView = z.object({
  id: z.string(),
  kind: z.literal("tool_call"),
  sessionId: z.string(),
  sessionTitle: z.string(),
  workspace: z.string(),
  /** The tool call item this request holds up (its card shows the request inline). */
  callId: z.string(),
  tool: z.string(),
  effect: ToolEffect,
  /** One line: "Run `npm test` in ~/app", "Edit src/a.ts (+3 −1)". */
  summary: z.string(),
  /** Shell: the exact command and its working folder. */
  command: z.object({ text: z.string(), cwd: z.string() }).nullable(),
  /** Edits: the unified diff the call would make. */
  diff: z.object({ path: z.string(), patch: z.string(), added: z.number(), removed: z.number() }).nullable(),
  /** MCP and others: the server (if any) and the arguments. */
  server: z.string().nullable(),
  /** Any JSON value; optional on the wire (JSON drops an undefined value with its key). */
  args: z.unknown().optional(),
  /** Why it asks: the rule or mode that sent it to a person. */
  reason: z.string(),
  /** The rule(s) "Always allow" would create, editable before saving; empty when none is safe to suggest. */
  suggestedRules: z.array(z.string()),
  requestedAt: z.string(),
});
export type ToolApprovalView = z.infer<typeof ToolApprovalView>;

export const ToolApprovalAnswer = z.discriminatedUnion("decision", [
  z.strictObject({
    id: z.string().min(1).max(100),
    decision: z.literal("allow"),
    /** once: this call; session: a session rule with `rules`; always: rules at `ruleScope`. */
    scope: z.enum(["once", "session", "always"]),
    rules: z.array(RulePattern).max(20).optional(),
    ruleScope: z.enum(["workspace", "global"]).optional(),
  }),
  z.strictObject({
    id: z.string().min(1).max(100),
    decision: z.literal("deny"),
    /** Returned to the model with `permission_denied`. */
    message: z.string().trim().max(2_000).optional(),
  }),
]);
export type ToolApprovalAnswer = z.infer<typeof ToolApprovalAnswer>;

/** Every pending request of every session, whole after each change (live topic `approvals`): the tray and inline cards. */
export const ApprovalsSnapshot = z.object({ tools: z.array(ToolApprovalView), runs: z.array(ApprovalRequestView) });
export type ApprovalsSnapshot = z.infer<typeof ApprovalsSnapshot>;
