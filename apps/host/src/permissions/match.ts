import { HostError } from "../core/errors.js";
import type { RuleAction, CallFacts } from "./types.js";
import { compilePattern, type ParsedPattern } from "./patterns.js";
import { workspaceRelative } from "./paths.js";
import { parseCommand, type SimpleCommand } from "./shell.js";

/** `maybe`: a word only known at run time sits where the rule compares; deny/ask rules then ask. */
export type Match = "yes" | "maybe" | "no";

/** Whether the pattern is about this tool at all (by name, or by name prefix for `mcp__x__*`). */
export function namesTool(p: ParsedPattern, tool: string): boolean {
  if (p.kind === "tool" && p.wildcard) return tool.startsWith(p.tool);
  return p.tool === tool;
}

/**
 * One simple command against a bash rule. The rule's words are compared with the command's words
 * as written (with leading assignments), without its assignments, and without wrappers such as
 * `timeout 10` or `env X=1`. For an allow rule the last two only count when no assignment changes
 * what runs (PATH, LD_PRELOAD, …): `PATH=/tmp npm test` is not allowed by bash(npm test).
 */
export function matchCommand(p: ParsedPattern, command: SimpleCommand, action: RuleAction): Match {
  if (p.kind === "tool") return "yes";
  if (p.kind !== "command") return "no";
  const words = [command.name, ...command.args];
  const n = command.assignments.length;
  // As written, leading assignments included.
  let best = n === 0 ? compare(p, words, command.literal, 0) : compare(p, [...command.assignments, ...words], [...command.assignments.map(() => true), ...command.literal], 0);
  if (best === "yes" || (action === "allow" && command.sensitive.length > 0)) return best;
  for (const from of [n > 0 ? 0 : -1, command.start > 0 ? command.start : -1]) {
    if (from < 0) continue;
    const m = compare(p, words, command.literal, from);
    if (m === "yes") return m;
    if (m === "maybe") best = m;
  }
  return best;
}

function compare(p: { words: string[]; prefix: boolean }, words: readonly string[], literal: readonly boolean[], from: number): Match {
  const count = words.length - from;
  for (let i = 0; i < p.words.length; i++) {
    if (i >= count) return "no";
    if (words[from + i] === p.words[i]) continue;
    return literal[from + i] ? "no" : "maybe";
  }
  if (p.prefix || count === p.words.length) return "yes";
  // Unquoted expansions may expand to nothing.
  for (let i = from + p.words.length; i < words.length; i++) if (literal[i]) return "no";
  return "maybe";
}

/** A non-bash call against a pattern (bash calls are matched per simple command). */
export function matchArgs(p: ParsedPattern, call: CallFacts): boolean {
  if (!namesTool(p, call.tool)) return false;
  switch (p.kind) {
    case "tool":
      return true;
    case "path": {
      const path = stringArg(call.args, "path");
      const rel = path === null ? null : workspaceRelative(call.workspace, path);
      return rel !== null && p.regex.test(rel);
    }
    case "domain": {
      const host = hostOf(stringArg(call.args, "url"));
      return host !== null && (host === p.domain || host.endsWith(`.${p.domain}`));
    }
    case "command":
      return false;
  }
}

/**
 * Whether a rule hits a call (for the Permissions page: which calls a rule would have decided).
 * A bash rule hits a call when it matches one of its simple commands for certain. Throws when the
 * pattern is invalid; bash calls need `loadShellParser()` first.
 */
export function ruleMatches(rule: string | { pattern: string; action: RuleAction }, call: CallFacts): boolean {
  const { pattern, action } = typeof rule === "string" ? { pattern: rule, action: "deny" as const } : rule;
  const compiled = compilePattern(pattern);
  if (!compiled.ok) throw new HostError("bad_input:permissions", `The rule pattern ${pattern} is invalid: ${compiled.message}`, { reason: "invalid_pattern" });
  const p = compiled.rule;
  if (!namesTool(p, call.tool)) return false;
  if (p.kind !== "command") return matchArgs(p, call);
  const command = stringArg(call.args, "command");
  if (command === null) return false;
  return parseCommand(command, { workspace: call.workspace }).commands.some((c) => matchCommand(p, c, action) === "yes");
}

export function stringArg(args: unknown, key: string): string | null {
  if (typeof args !== "object" || args === null) return null;
  const value = (args as Record<string, unknown>)[key];
  return typeof value === "string" ? value : null;
}

export function hostOf(url: string | null): string | null {
  if (url === null || !URL.canParse(url)) return null;
  const host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  return host === "" ? null : host;
}
