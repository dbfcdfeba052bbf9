import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolEffect } from "@seam/shared";
import type { CallFacts, PermissionRule, RuleAction, RuleScope } from "../../src/permissions/types.js";

/** A real (empty) workspace directory; the engine never touches it, but paths resolve against it. */
export function workspace(): { ws: string; [Symbol.dispose](): void } {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), "seam-perm-")));
  return { ws, [Symbol.dispose]: () => rmSync(ws, { recursive: true, force: true }) };
}

let next = 0;
export const rule = (action: RuleAction, pattern: string, scope: RuleScope = "workspace"): PermissionRule => ({
  id: `r${++next}`,
  scope,
  owner: scope === "global" ? null : "owner",
  action,
  pattern,
});

export const bashCall = (ws: string, command: string): CallFacts => ({ tool: "bash", effect: "execute", args: { command }, workspace: ws });
export const toolCall = (ws: string, tool: string, effect: ToolEffect, args: unknown = {}): CallFacts => ({ tool, effect, args, workspace: ws });
