import type { PermissionMode, ToolApprovalAnswer, ToolApprovalView } from "@seam/shared";
import { isHostError, messageOf } from "../core/errors.js";
import type { Authorize } from "../agent/runtime.js";
import type { CallPreview, ToolDef } from "../agent/tool.js";
import type { ApprovalBroker } from "./broker.js";
import { evaluate } from "./evaluate.js";
import type { AuditInput, PermissionStore } from "./store.js";
import { suggestRule } from "./suggest.js";
import type { CallFacts, Verdict } from "./types.js";
import { createLog } from "../core/log.js";

const log = createLog("permissions");

/** How the broker names tool-call requests. */
export const TOOL_REQUEST = { capability: "permissions", noun: "approval request" } as const;
export const TOOL_REQUEST_KIND = "tool_call";

export interface GateDeps {
  store: PermissionStore;
  broker: ApprovalBroker;
  /** The session's title and own mode (null follows the default). */
  session(sessionId: string): Promise<{ title: string; mode: PermissionMode | null } | null>;
  defaultMode(): Promise<PermissionMode>;
  /** Resolves once the checks can run (the bash grammar loaded or known to be missing). */
  ready?(): Promise<void>;
}

/**
 * The one gate every tool call passes (PERM-1..3): the session's mode and rules decide; "ask" puts an
 * approval card in front of a person and waits (withdrawn when the turn stops). Every decision on a call
 * that is not a plain read goes to the audit log (PERM-4).
 */
export function createGate(deps: GateDeps): Authorize {
  return async ({ tool, args, req }) => {
    const session = await deps.session(req.sessionId);
    const mode = session?.mode ?? (await deps.defaultMode());
    const call: CallFacts = { tool: tool.name, effect: tool.effect, args, workspace: req.workspace, ...(tool.approval === "ask" ? { asks: true } : {}) };
    const rules = await deps.store.rulesFor(req.sessionId, req.workspace);
    await deps.ready?.();
    const verdict = evaluate(call, { mode, rules });
    const base = {
      sessionId: req.sessionId, sessionTitle: session?.title ?? req.sessionId, workspace: req.workspace, kind: "tool_call" as const,
      tool: tool.name, effect: tool.effect, mode, requestedAt: new Date(),
    };
    const audit = (entry: Pick<AuditInput, "decision" | "by" | "subject"> & Partial<AuditInput>) =>
      deps.store.record({ ...base, ...entry }).catch((error: unknown) => log.error(`could not write the audit log: ${messageOf(error)}`));
    const ruleOf = (v: Verdict) => (v.by.kind === "rule" ? { pattern: v.by.rule.pattern, scope: v.by.rule.scope } : null);

    if (verdict.verdict === "allow") {
      // Plain reads allowed by the mode are not decisions worth a log line; everything else is.
      if (tool.effect !== "read" || verdict.by.kind === "rule") await audit({ decision: "allow", by: verdict.by.kind, rule: ruleOf(verdict), subject: subjectOf(tool, args) });
      return { ok: true };
    }
    if (verdict.verdict === "deny") {
      await audit({ decision: "deny", by: verdict.by.kind, rule: ruleOf(verdict), subject: subjectOf(tool, args) });
      return { ok: false, code: "permission_denied", message: verdict.reason };
    }

    // Ask: the card shows what the call would do; a call that would fail anyway fails now, unasked.
    let preview: CallPreview;
    try {
      preview = tool.preview ? await tool.preview(args, { signal: req.signal, sessionId: req.sessionId, workspace: req.workspace, callId: req.callId }) : defaultPreview(tool, args);
    } catch (error) {
      return { ok: false, code: isHostError(error) ? error.publicCode : "tool_failed", message: messageOf(error) };
    }
    const subject = preview.command?.text ?? preview.diff?.path ?? subjectOf(tool, args);
    let answer: ToolApprovalAnswer;
    try {
      answer = await deps.broker.ask<ToolApprovalView, ToolApprovalAnswer>({
        kind: TOOL_REQUEST_KIND,
        sessionId: req.sessionId,
        about: TOOL_REQUEST,
        view: (id, requestedAt) => ({
          id, kind: "tool_call", sessionId: req.sessionId, sessionTitle: base.sessionTitle, workspace: req.workspace, callId: req.callId,
          tool: tool.name, effect: tool.effect, summary: preview.summary, command: preview.command ?? null, diff: preview.diff ?? null,
          server: tool.capability === "mcp" ? (tool.name.split("__")[1] ?? null) : null, args, reason: verdict.reason,
          suggestedRules: (suggestRule(call) ?? []), requestedAt,
        }),
      }, req.signal);
    } catch (error) {
      await audit({ decision: "withdrawn", by: "turn_ended", subject });
      throw error;
    }
    if (answer.decision === "deny") {
      await audit({ decision: "deny", by: "user", subject, message: answer.message ?? null });
      const said = answer.message ? ` They said: "${answer.message}"` : "";
      return { ok: false, code: "permission_denied", message: `The user denied this ${tool.name} call.${said} Do not retry it unchanged; adjust your approach or ask them.` };
    }
    const patterns = answer.scope === "once" ? [] : (answer.rules?.length ? answer.rules : (suggestRule(call) ?? []));
    const scope = answer.scope === "session" ? "session" : (answer.ruleScope ?? "workspace");
    for (const pattern of patterns) {
      const owner = scope === "session" ? req.sessionId : scope === "workspace" ? req.workspace : null;
      try {
        await deps.store.createRule({ scope, owner, action: "allow", pattern }, { replace: true });
      } catch (error) {
        log.error(`could not save the rule ${pattern}: ${messageOf(error)}`);
      }
    }
    await audit({ decision: "allow", by: "user", subject, answerScope: answer.scope, rule: patterns[0] ? { pattern: patterns.join(", "), scope } : null });
    return { ok: true };
  };
}

/** The one line an audit entry shows for a call: the command, the path, the URL, or the tool's arguments. */
export function subjectOf(tool: ToolDef, args: unknown): string {
  const a = (args ?? {}) as Record<string, unknown>;
  for (const key of ["command", "path", "url", "query", "pattern"]) if (typeof a[key] === "string") return a[key] as string;
  const json = JSON.stringify(args ?? {});
  return json.length > 300 ? `${json.slice(0, 300)}…` : json;
}

function defaultPreview(tool: ToolDef, args: unknown): CallPreview {
  const subject = subjectOf(tool, args);
  return { summary: tool.capability === "mcp" ? `Call ${tool.name}` : `${tool.name} ${subject}` };
}
