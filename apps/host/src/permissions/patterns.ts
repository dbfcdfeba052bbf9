// Interim until the rule engine (coding-perm branch) lands. Replaced wholesale.
import type { CallFacts } from "./types.js";

export function validatePattern(pattern: string): { ok: true } | { ok: false; message: string } {
  return /^[A-Za-z0-9_*-]{1,64}(\(.+\))?$/.test(pattern) ? { ok: true } : { ok: false, message: `"${pattern}" is not a rule pattern: use tool or tool(spec).` };
}

export function ruleMatches(pattern: string, call: CallFacts): boolean {
  return pattern === call.tool;
}
