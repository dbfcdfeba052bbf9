import { AuditQuery, type AuditEntry, type PermissionRuleView, type RuleAction, type RuleScope } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { Prisma, PermissionDecision, PermissionRule as RuleRecord } from "../generated/prisma/client.js";
import type { Database } from "../persistence/db.js";
import type { PermissionRule } from "./types.js";

/** A rule as stored, with its times (the Permissions page). */
export type StoredRule = PermissionRule & { createdAt: Date; updatedAt: Date };

/** One decision to log (PERM-4). */
export interface AuditInput {
  sessionId: string | null;
  sessionTitle: string;
  workspace: string;
  kind: AuditEntry["kind"];
  tool: string;
  effect: string;
  subject: string;
  decision: AuditEntry["decision"];
  by: AuditEntry["by"];
  rule?: { pattern: string; scope: RuleScope } | null;
  mode: string;
  answerScope?: AuditEntry["answerScope"];
  message?: string | null;
  requestedAt: Date;
}

/** Rules and the audit log in the database. Only people create or change rules (tRPC, approval answers). */
export interface PermissionStore {
  /** The rules in effect for one session: global, its workspace's and its own. */
  rulesFor(sessionId: string, workspace: string): Promise<StoredRule[]>;
  listRules(): Promise<StoredRule[]>;
  getRule(id: string): Promise<StoredRule | null>;
  /** conflict:permissions when the scope already has a rule with this pattern (unless `replace`, which sets its action). */
  createRule(rule: Omit<PermissionRule, "id">, opts?: { replace?: boolean }): Promise<StoredRule>;
  updateRule(id: string, patch: { action?: RuleAction; pattern?: string }): Promise<StoredRule>;
  removeRule(id: string): Promise<void>;
  /** A deleted session's own rules go with it. */
  removeSessionRules(sessionId: string): Promise<number>;
  record(entry: AuditInput): Promise<void>;
  audit(query: AuditQuery): Promise<AuditEntry[]>;
}

/** The audit log keeps this many newest entries. */
export const AUDIT_KEEP = 10_000;
const PRUNE_EVERY = 200;

const ABOUT = { capability: "permissions", what: "permission rule" } as const;
const GLOBAL = "";

export function createPermissionStore(db: Database, opts: { auditKeep?: number } = {}): PermissionStore {
  const keep = opts.auditKeep ?? AUDIT_KEEP;
  let sincePrune = 0;
  const run = <T>(fn: (prisma: Parameters<Parameters<Database["exclusive"]>[0]>[0]) => Promise<T>) => db.exclusive(fn, ABOUT);

  const requireRule = async (prisma: Parameters<Parameters<Database["exclusive"]>[0]>[0], id: string) => {
    const row = await prisma.permissionRule.findUnique({ where: { id } });
    if (!row) throw new HostError("not_found:permissions", "No such rule; it may have been removed on another page.", { reason: "not_found" });
    return row;
  };
  const duplicate = (pattern: string, scope: string) =>
    new HostError("conflict:permissions", `The ${scope} scope already has a rule for ${pattern}. Edit that rule instead.`, { reason: "duplicate_rule" });

  return {
    rulesFor: (sessionId, workspace) => run(async (prisma) => (await prisma.permissionRule.findMany({
      where: { OR: [{ scope: "global" }, { scope: "workspace", owner: workspace }, { scope: "session", owner: sessionId }] },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    })).map(ruleOf)),
    listRules: () => run(async (prisma) => (await prisma.permissionRule.findMany({ orderBy: [{ scope: "asc" }, { owner: "asc" }, { createdAt: "asc" }] })).map(ruleOf)),
    getRule: (id) => run(async (prisma) => {
      const row = await prisma.permissionRule.findUnique({ where: { id } });
      return row ? ruleOf(row) : null;
    }),
    createRule: (rule, o = {}) => run(async (prisma) => {
      const owner = rule.scope === "global" ? GLOBAL : (rule.owner ?? GLOBAL);
      const key = { scope_owner_pattern: { scope: rule.scope, owner, pattern: rule.pattern } };
      const existing = await prisma.permissionRule.findUnique({ where: key });
      if (existing && !o.replace) throw duplicate(rule.pattern, rule.scope);
      const row = existing
        ? await prisma.permissionRule.update({ where: { id: existing.id }, data: { action: rule.action } })
        : await prisma.permissionRule.create({ data: { scope: rule.scope, owner, action: rule.action, pattern: rule.pattern } });
      return ruleOf(row);
    }),
    updateRule: (id, patch) => run(async (prisma) => {
      const row = await requireRule(prisma, id);
      if (patch.pattern !== undefined && patch.pattern !== row.pattern) {
        const clash = await prisma.permissionRule.findUnique({ where: { scope_owner_pattern: { scope: row.scope, owner: row.owner, pattern: patch.pattern } } });
        if (clash) throw duplicate(patch.pattern, row.scope);
      }
      return ruleOf(await prisma.permissionRule.update({ where: { id }, data: { action: patch.action, pattern: patch.pattern } }));
    }),
    removeRule: (id) => run(async (prisma) => {
      await requireRule(prisma, id);
      await prisma.permissionRule.delete({ where: { id } });
    }),
    removeSessionRules: (sessionId) => run(async (prisma) => (await prisma.permissionRule.deleteMany({ where: { scope: "session", owner: sessionId } })).count),
    record: (entry) => run(async (prisma) => {
      await prisma.permissionDecision.create({
        data: {
          sessionId: entry.sessionId,
          sessionTitle: entry.sessionTitle,
          workspace: entry.workspace,
          kind: entry.kind,
          tool: entry.tool,
          effect: entry.effect,
          subject: entry.subject.slice(0, 2_000),
          decision: entry.decision,
          by: entry.by,
          rulePattern: entry.rule?.pattern ?? null,
          ruleScope: entry.rule?.scope ?? null,
          mode: entry.mode,
          answerScope: entry.answerScope ?? null,
          message: entry.message?.slice(0, 2_000) ?? null,
          requestedAt: entry.requestedAt,
        },
      });
      if (++sincePrune < PRUNE_EVERY) return;
      sincePrune = 0;
      const cutoff = await prisma.permissionDecision.findMany({ orderBy: [{ decidedAt: "desc" }, { id: "desc" }], skip: keep, take: 1, select: { decidedAt: true } });
      if (cutoff[0]) await prisma.permissionDecision.deleteMany({ where: { decidedAt: { lte: cutoff[0].decidedAt } } });
    }),
    audit: (input) => run(async (prisma) => {
      const q = AuditQuery.parse(input);
      const where: Prisma.PermissionDecisionWhereInput = {
        ...(q.sessionId ? { sessionId: q.sessionId } : {}),
        ...(q.tool ? { tool: { contains: q.tool } } : {}),
        ...(q.decision ? { decision: q.decision } : {}),
        ...(q.by === "person" ? { by: "user" } : q.by === "rule" ? { by: "rule" } : q.by === "mode" ? { by: "mode" } : q.by === "automatic" ? { by: { not: "user" } } : {}),
        ...(q.before ? { decidedAt: { lt: new Date(q.before) } } : {}),
      };
      const rows = await prisma.permissionDecision.findMany({ where, orderBy: [{ decidedAt: "desc" }, { id: "desc" }], take: q.limit });
      return rows.map(auditOf);
    }),
  };
}

const SCOPES = ["session", "workspace", "global"] as const;
const ACTIONS = ["allow", "ask", "deny"] as const;
const pick = <T extends readonly string[]>(allowed: T, value: string, fallback: T[number]): T[number] =>
  (allowed as readonly string[]).includes(value) ? (value as T[number]) : fallback;

function ruleOf(row: RuleRecord): StoredRule {
  const scope = pick(SCOPES, row.scope, "session");
  // An unknown action reads as "ask": a damaged row never widens what runs.
  return { id: row.id, scope, owner: scope === "global" ? null : row.owner, action: pick(ACTIONS, row.action, "ask"), pattern: row.pattern, createdAt: row.createdAt, updatedAt: row.updatedAt };
}

export function ruleView(rule: StoredRule, ownerLabel: string | null): PermissionRuleView {
  return { ...rule, ownerLabel, createdAt: rule.createdAt.toISOString(), updatedAt: rule.updatedAt.toISOString() };
}

function auditOf(row: PermissionDecision): AuditEntry {
  return {
    id: row.id,
    sessionId: row.sessionId,
    sessionTitle: row.sessionTitle,
    workspace: row.workspace,
    kind: row.kind === "extension_run" ? "extension_run" : "tool_call",
    tool: row.tool,
    effect: row.effect,
    subject: row.subject,
    decision: pick(["allow", "deny", "withdrawn"] as const, row.decision, "deny"),
    by: pick(["rule", "mode", "user", "grant", "setting", "earlier", "turn_ended"] as const, row.by, "user"),
    rulePattern: row.rulePattern,
    ruleScope: row.ruleScope === null ? null : pick(SCOPES, row.ruleScope, "session"),
    mode: row.mode,
    answerScope: row.answerScope === null ? null : pick(["once", "session", "always"] as const, row.answerScope, "once"),
    message: row.message,
    requestedAt: row.requestedAt.toISOString(),
    decidedAt: row.decidedAt.toISOString(),
  };
}
