import type { ToolEffect } from "@seam/shared";
import { matchArgs, matchCommand, namesTool, stringArg } from "./match.js";
import { modeDefault, modeReason, planForbids } from "./modes.js";
import { compilePattern, type ParsedPattern } from "./patterns.js";
import { parseCommand, type SimpleCommand } from "./shell.js";
import type { CallFacts, PermissionMode, PermissionRule, RuleAction, Verdict } from "./types.js";

export interface EvaluateOptions {
  mode: PermissionMode;
  /** Every rule in effect for the session (all scopes together). Invalid patterns are skipped. */
  rules: readonly PermissionRule[];
}

interface Compiled {
  rule: PermissionRule;
  p: ParsedPattern;
}

/**
 * Decides a tool call (PERM-1, PERM-2): deny > ask > allow > the mode's default, rules of every scope
 * together. Plan mode is a hard limit (allow rules do not lift it); deny rules apply in every mode.
 * A bash command is split into its simple commands: every one must be allowed, any deny denies, and a
 * command that cannot be fully checked asks (even in auto mode) unless a deny rule matched a part.
 * Synchronous; bash calls need `loadShellParser()` first.
 */
export function evaluate(call: CallFacts, options: EvaluateOptions): Verdict {
  const rules: Compiled[] = [];
  for (const rule of options.rules) {
    const compiled = compilePattern(rule.pattern);
    if (compiled.ok && namesTool(compiled.rule, call.tool)) rules.push({ rule, p: compiled.rule });
  }
  return call.tool === "bash" ? evaluateBash(call, options.mode, rules) : evaluateCall(call, options.mode, rules);
}

function evaluateCall(call: CallFacts, mode: PermissionMode, rules: Compiled[]): Verdict {
  const hit = (action: RuleAction) => rules.find((r) => r.rule.action === action && matchArgs(r.p, call))?.rule;
  const deny = hit("deny");
  if (deny) return ruled("deny", deny, `Denied by the ${named(deny)}: ${call.tool} was not run; do not work around it, ask the user if it is needed.`);
  if (planForbids(mode, call.effect)) return byMode(mode, call.effect, call.tool);
  const ask = hit("ask");
  if (ask) return ruled("ask", ask, `The ${named(ask)} asks before ${call.tool} runs.`);
  const allow = hit("allow");
  if (allow) return ruled("allow", allow, `Allowed by the ${named(allow)}.`);
  if (call.asks) return { verdict: "ask", by: { kind: "mode", mode }, reason: `${call.tool} is set to ask before every call (its MCP server's approval setting).` };
  return byMode(mode, call.effect, call.tool);
}

/** The first rules of each kind that hit one simple command. */
interface Hits {
  deny?: PermissionRule;
  maybeDeny?: PermissionRule;
  ask?: PermissionRule;
  allow?: PermissionRule;
}

function hitsFor(rules: Compiled[], command: SimpleCommand): Hits {
  const hits: Hits = {};
  for (const { rule, p } of rules) {
    const m = matchCommand(p, command, rule.action);
    if (m === "no") continue;
    if (rule.action === "deny") {
      if (m === "yes") hits.deny ??= rule;
      else hits.maybeDeny ??= rule;
    } else if (rule.action === "ask") hits.ask ??= rule;
    else if (m === "yes") hits.allow ??= rule;
  }
  return hits;
}

function evaluateBash(call: CallFacts, mode: PermissionMode, rules: Compiled[]): Verdict {
  const command = stringArg(call.args, "command");
  if (command === null) return { verdict: planForbids(mode, call.effect) ? "deny" : "ask", by: { kind: "mode", mode }, reason: "The bash call has no command text to check." };
  const { commands, problems } = parseCommand(command, { workspace: call.workspace });
  const part = (i: number) => `\`${clip(commands[i]!.text)}\`${commands.length > 1 ? ` (part ${i + 1} of ${commands.length})` : ""}`;
  const whole = (action: RuleAction) => rules.find((r) => r.rule.action === action && r.p.kind === "tool")?.rule;
  const hits = commands.map((c) => hitsFor(rules, c));

  const denied = hits.findIndex((h) => h.deny);
  if (denied >= 0) {
    const deny = hits[denied]!.deny!;
    return ruled("deny", deny, `Denied by the ${named(deny)}: ${part(denied)} matches it, so the command was not run; do not work around it, ask the user if it is needed.`);
  }
  const wholeDeny = whole("deny");
  if (wholeDeny) return ruled("deny", wholeDeny, `Denied by the ${named(wholeDeny)}: the command was not run.`);
  if (planForbids(mode, call.effect)) return byMode(mode, call.effect, "the command");
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
    return { verdict: "ask", by: { kind: "mode", mode }, reason: `The command cannot be fully checked against the rules: ${problems[0]}${more}.` };
  }
  if (commands.length === 0) return noProgram(call, mode, whole);

  const allowedBy: PermissionRule[] = [];
  let byModeDefault = false;
  for (let i = 0; i < commands.length; i++) {
    const { maybeDeny, ask, allow } = hits[i]!;
    if (maybeDeny) return ruled("ask", maybeDeny, `${part(i)} may match the ${named(maybeDeny)} once its variables or globs expand, so it asks.`);
    if (ask) return ruled("ask", ask, `The ${named(ask)} asks before ${part(i)} runs.`);
    if (allow) {
      allowedBy.push(allow);
      continue;
    }
    if (commands[i]!.runsScript) continue; // its script's own commands decide
    if (modeDefault(mode, call.effect) !== "allow") {
      return { verdict: "ask", by: { kind: "mode", mode }, reason: `${modeTitle(mode)}: ${part(i)} is not allowed by any rule, so the command asks.` };
    }
    byModeDefault = true;
  }
  if (byModeDefault || allowedBy.length === 0) return { verdict: "allow", by: { kind: "mode", mode }, reason: modeReason(mode, call.effect, "bash") };
  const names = [...new Set(allowedBy.map((r) => r.pattern))];
  const reason = commands.length === 1 ? `Allowed by the ${named(allowedBy[0]!)}.` : `Allowed: each of its ${commands.length} commands is allowed by a rule (${names.join(", ")}).`;
  return ruled("allow", allowedBy[0]!, reason);
}

/** A command line with no program in it (empty, comments, a bare redirection): the tool's rules or the mode decide. */
function noProgram(call: CallFacts, mode: PermissionMode, whole: (a: RuleAction) => PermissionRule | undefined): Verdict {
  const ask = whole("ask");
  if (ask) return ruled("ask", ask, `The ${named(ask)} asks before any command runs.`);
  const allow = whole("allow");
  if (allow) return ruled("allow", allow, `Allowed by the ${named(allow)}.`);
  const verdict = modeDefault(mode, call.effect);
  return { verdict, by: { kind: "mode", mode }, reason: `The command runs no program; ${lower(modeReason(mode, call.effect, "bash"))}` };
}

const ruled = (verdict: RuleAction, rule: PermissionRule, reason: string): Verdict => ({ verdict, by: { kind: "rule", rule }, reason });

const byMode = (mode: PermissionMode, effect: ToolEffect, tool: string): Verdict => ({
  verdict: modeDefault(mode, effect),
  by: { kind: "mode", mode },
  reason: modeReason(mode, effect, tool),
});

const named = (rule: PermissionRule): string => `${rule.scope} rule ${rule.pattern}`;
const modeTitle = (mode: PermissionMode): string => `${mode[0]!.toUpperCase()}${mode.slice(1)} mode`;
const lower = (s: string): string => `${s[0]!.toLowerCase()}${s.slice(1)}`;
const clip = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}…` : text).replace(/\s*\n\s*/g, " ");
