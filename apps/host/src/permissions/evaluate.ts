// Interim: mode defaults only, until the rule engine (coding-perm branch) lands. Replaced wholesale.
import type { CallFacts, PermissionMode, PermissionRule, Verdict } from "./types.js";

export function evaluate(call: CallFacts, ctx: { mode: PermissionMode; rules: PermissionRule[] }): Verdict {
  const by = { kind: "mode" as const, mode: ctx.mode };
  if (call.effect === "read" || call.effect === "network") return { verdict: "allow", by, reason: "Reads run in every mode." };
  if (ctx.mode === "plan") return { verdict: "deny", by, reason: "Plan mode: only reading and web tools run." };
  if (ctx.mode === "auto" || call.effect === "extension" || (ctx.mode === "auto-edit" && call.effect === "write")) return { verdict: "allow", by, reason: `Allowed by ${ctx.mode} mode.` };
  return { verdict: "ask", by, reason: `${ctx.mode} mode asks before ${call.effect} tools run.` };
}
