import {
  PermissionSettings, type ApprovalRequestView, type ApprovalsSnapshot, type AuditEntry, type AuditQuery, type CapabilityRow, type PatternCheck, type PermissionRuleView,
  type PermissionSettingsInput, type RuleCreateInput, type RuleUpdateInput, type ToolApprovalAnswer, type ToolApprovalView,
} from "@seam/shared";
import type { Authorize } from "../agent/runtime.js";
import { capabilityRow } from "../core/capability-row.js";
import { HostError } from "../core/errors.js";
import type { LiveSources } from "../core/live.js";
import type { Scope } from "../core/scope.js";
import { createChanges } from "../core/changes.js";
import type { Database } from "../persistence/db.js";
import { createApprovalBroker, type ApprovalBroker } from "./broker.js";
import { createGate, TOOL_REQUEST, TOOL_REQUEST_KIND } from "./gate.js";
import { ruleMatches } from "./match.js";
import { validatePattern } from "./patterns.js";
import { loadShellParser } from "./shell.js";
import { createPermissionStore, ruleView, type PermissionStore, type StoredRule } from "./store.js";

export type { ApprovalBroker } from "./broker.js";

/** The Setting key of the default mode. */
const SETTINGS_KEY = "permissions";
/** The extension run requests' kind on the shared broker (extensions/approval-flow.ts). */
const RUN_KIND = "extension_run";

/** What the tRPC layer calls (`HostApi["permissions"]`): settings, rules, approvals and the audit log (PERM-2..4). */
export interface Api {
  settings: { get(): Promise<PermissionSettings>; set(input: PermissionSettingsInput): Promise<PermissionSettings> };
  rules: {
    list(): Promise<PermissionRuleView[]>;
    create(input: RuleCreateInput): Promise<PermissionRuleView>;
    update(input: RuleUpdateInput): Promise<PermissionRuleView>;
    remove(id: string): Promise<void>;
    /** Whether a pattern is valid, and which recent audited calls it would have matched. */
    check(pattern: string): Promise<PatternCheck>;
  };
  approvals: { pending(): ApprovalsSnapshot; answer(input: ToolApprovalAnswer): Promise<void> };
  audit(query: AuditQuery): Promise<AuditEntry[]>;
}

/** An extension run request's decision, as the extensions capability reports it. */
export interface RunDecisionInput {
  sessionId: string;
  packageName: string;
  version: number;
  decision: "allow" | "deny" | "withdrawn";
  by: "user" | "grant" | "setting" | "earlier" | "turn_ended";
  allowFuture: boolean;
  requestedAt: Date;
}

export interface Deps {
  db: Database;
  /** Session titles for rule owners and audit lines. */
  sessionTitle(sessionId: string): Promise<string | null>;
}

export interface Interface {
  readonly api: Api;
  /** The tool runtime's gate. */
  readonly authorize: Authorize;
  /** The one approval machinery, shared with the extensions capability. */
  readonly broker: ApprovalBroker;
  readonly store: PermissionStore;
  readonly live: Pick<LiveSources, "approvals">;
  /** Pending requests of one session (the sessions list marks sessions waiting for a person). */
  waiting(sessionId: string): number;
  /** Logs an extension run decision (EXT-5) in the same audit log. */
  recordRun(run: RunDecisionInput): Promise<void>;
  /** Withdraws the session's requests and drops its own rules (before it is deleted). */
  forgetSession(sessionId: string): Promise<void>;
  status(): CapabilityRow;
  /** Loads the bash grammar now (the host's warm-up after start); checks load it on first need anyway. */
  warm(): Promise<void>;
}

/** Permissions and approvals (PERM-1..4): the gate on every tool call, rules, modes, the audit log. */
export async function create(scope: Scope, deps: Deps): Promise<Interface> {
  const store = createPermissionStore(deps.db);
  const broker = createApprovalBroker();
  let parserProblem: string | null = null;
  // Shell rules need the bash grammar; without it every command asks (the parser reports a problem). It loads
  // (~60–180 ms, once) on the first check that needs it or from the warm-up after start, not on the start path.
  const parserReady = () => loadShellParser().then(() => { parserProblem = null; }, (error: unknown) => {
    parserProblem = `The bash grammar did not load (${error instanceof Error ? error.message : String(error)}); every shell command asks.`;
  });

  const getSettings = async (): Promise<PermissionSettings> => {
    const raw = await deps.db.store.settings.get(SETTINGS_KEY);
    const parsed = PermissionSettings.safeParse(raw ?? {});
    return parsed.success ? parsed.data : PermissionSettings.parse({});
  };

  const authorize = createGate({
    store,
    broker,
    ready: parserReady,
    defaultMode: async () => (await getSettings()).defaultMode,
    session: async (id) => {
      const row = await deps.db.store.sessions.get(id);
      return row ? { title: row.title, mode: row.mode } : null;
    },
  });

  const label = async (rule: StoredRule) =>
    rule.scope === "session" && rule.owner ? ((await deps.sessionTitle(rule.owner)) ?? rule.owner) : rule.owner;
  const view = async (rule: StoredRule) => ruleView(rule, await label(rule));
  const checked = (pattern: string) => {
    const result = validatePattern(pattern);
    if (!result.ok) throw new HostError("bad_input:permissions", result.message, { reason: "invalid_pattern", pattern });
  };

  const pending = (): ApprovalsSnapshot => ({
    tools: broker.pending<ToolApprovalView>(TOOL_REQUEST_KIND).map((r) => r.view),
    runs: broker.pending<ApprovalRequestView>(RUN_KIND).map((r) => r.view),
  });

  const api: Api = {
    settings: {
      get: getSettings,
      async set(input) {
        const next = PermissionSettings.parse(input);
        await deps.db.store.settings.set(SETTINGS_KEY, next);
        return next;
      },
    },
    rules: {
      list: async () => Promise.all((await store.listRules()).map(view)),
      async create(input) {
        checked(input.pattern);
        if (input.scope !== "global" && !input.owner) {
          throw new HostError("bad_input:permissions", `A ${input.scope} rule needs its ${input.scope === "session" ? "session" : "workspace folder"}.`, { reason: "missing_owner" });
        }
        return view(await store.createRule({ scope: input.scope, owner: input.scope === "global" ? null : input.owner!, action: input.action, pattern: input.pattern }));
      },
      async update(input) {
        if (input.pattern !== undefined) checked(input.pattern);
        return view(await store.updateRule(input.id, { action: input.action, pattern: input.pattern }));
      },
      remove: (id) => store.removeRule(id),
      async check(pattern) {
        const result = validatePattern(pattern);
        if (!result.ok) return { ok: false, message: result.message, matches: [] };
        const recent = await store.audit({ limit: 500 });
        await parserReady();
        const matches = recent
          .filter((e) => e.kind === "tool_call" && ruleMatches(pattern, { tool: e.tool, effect: "read", args: argsOf(e), workspace: e.workspace }))
          .slice(0, 20)
          .map((e) => ({ tool: e.tool, subject: e.subject, sessionTitle: e.sessionTitle, decidedAt: e.decidedAt }));
        return { ok: true, message: null, matches };
      },
    },
    approvals: {
      pending,
      async answer(input) {
        // Patterns are checked before the request is settled, so a typo never loses the answer.
        if (input.decision === "allow") for (const p of input.rules ?? []) checked(p);
        broker.answer(input.id, input, TOOL_REQUEST);
      },
    },
    audit: (query) => store.audit(query),
  };

  const changes = createChanges(pending);
  scope.add(broker.onChange(() => changes.changed()), "approvals:changes");
  scope.add(() => changes.close(), "approvals:close");

  return {
    api,
    authorize,
    broker,
    store,
    live: { approvals: (signal) => changes.snapshots(signal) },
    async recordRun(run) {
      const session = await deps.db.store.sessions.get(run.sessionId);
      await store.record({
        sessionId: run.sessionId, sessionTitle: session?.title ?? run.sessionId, workspace: session?.workspace ?? "", kind: "extension_run",
        tool: "extension_run", effect: "extension", subject: `${run.packageName} v${run.version}`, decision: run.decision, by: run.by,
        mode: session?.mode ?? (await getSettings()).defaultMode, answerScope: run.decision === "allow" && run.by === "user" ? (run.allowFuture ? "always" : "once") : null,
        requestedAt: run.requestedAt,
      });
    },
    waiting: (sessionId) => broker.pending().filter((r) => r.sessionId === sessionId).length,
    async forgetSession(sessionId) {
      broker.withdrawSession(sessionId);
      await store.removeSessionRules(sessionId);
    },
    warm: parserReady,
    status: () => capabilityRow({
      id: "permissions",
      title: "Permissions and approvals",
      tools: [],
      configured: true,
      visible: true,
      ready: parserProblem === null,
      note: parserProblem ?? "Every tool call passes the session's mode and rules; in the default mode (ask) edits, commands and MCP tools ask first.",
    }),
  };
}

/** The audited subject back as the arguments a rule matches on. */
function argsOf(entry: AuditEntry): Record<string, string> {
  if (entry.tool === "bash") return { command: entry.subject };
  if (entry.tool === "web_fetch") return { url: entry.subject };
  return { path: entry.subject };
}
