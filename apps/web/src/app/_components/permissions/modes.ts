import type { PermissionMode } from "@seam/shared";

/** The modes in the order the switch lists them (PERM-1), with their names and one-line explanations. */
export const MODES: readonly { mode: PermissionMode; label: string; explain: string }[] = [
  { mode: "plan", label: "Plan", explain: "Only reading and web tools run; edits, commands and MCP tools are refused." },
  { mode: "ask", label: "Ask", explain: "Edits, commands and MCP tools ask you first, unless a rule allows them." },
  { mode: "auto-edit", label: "Auto-edit", explain: "Edits inside the workspace run; commands and MCP tools still ask." },
  { mode: "auto", label: "Auto", explain: "Everything runs without asking, except what a deny rule forbids." },
];

export function modeLabel(mode: PermissionMode): string {
  return MODES.find((m) => m.mode === mode)?.label ?? mode;
}

export function modeExplain(mode: PermissionMode): string {
  return MODES.find((m) => m.mode === mode)?.explain ?? "";
}

/** What the switch shows: the session's own mode, or "default (Ask)" while it follows the default. */
export function modeSwitchLabel(own: PermissionMode | null, defaultMode: PermissionMode | undefined): string {
  if (own) return modeLabel(own);
  return defaultMode ? `default (${modeLabel(defaultMode)})` : "default";
}
