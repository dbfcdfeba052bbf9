import type { ToolEffect } from "@seam/shared";
import type { PermissionMode, RuleAction } from "./types.js";

/** What a mode does with a call no rule decided (PERM-1). */
export function modeDefault(mode: PermissionMode, effect: ToolEffect): RuleAction {
  switch (mode) {
    case "plan":
      return effect === "read" || effect === "network" ? "allow" : "deny";
    case "ask":
      return effect === "write" || effect === "execute" || effect === "external" ? "ask" : "allow";
    case "auto-edit":
      return effect === "execute" || effect === "external" ? "ask" : "allow";
    case "auto":
      return "allow";
  }
}

/** Plan mode is a hard limit: rules can deny or ask more, never allow past it. */
export const planForbids = (mode: PermissionMode, effect: ToolEffect): boolean => mode === "plan" && modeDefault(mode, effect) === "deny";

const EFFECT_WORDS: Record<ToolEffect, string> = {
  read: "reading",
  write: "file-changing",
  execute: "command",
  network: "web",
  external: "external (MCP)",
  extension: "extension",
};

/** One sentence for a verdict the mode decided. */
export function modeReason(mode: PermissionMode, effect: ToolEffect, tool: string): string {
  const verdict = modeDefault(mode, effect);
  const kind = EFFECT_WORDS[effect];
  switch (mode) {
    case "plan":
      return verdict === "deny"
        ? `Plan mode: only reading and web tools run, so ${tool} was not run; finish the plan and ask the user to switch mode to carry it out.`
        : `Plan mode runs ${kind} tools.`;
    case "ask":
      return verdict === "ask" ? `Ask mode: ${kind} tools ask before they run unless a rule allows them.` : `Ask mode runs ${kind} tools without asking.`;
    case "auto-edit":
      return verdict === "ask" ? `Auto-edit mode: ${kind} tools ask before they run unless a rule allows them.` : `Auto-edit mode runs ${kind} tools without asking.`;
    case "auto":
      return "Auto mode runs every tool that no rule denies.";
  }
}
