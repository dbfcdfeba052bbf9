import { FileTextIcon, GlobeIcon, ListTreeIcon, PencilIcon, PuzzleIcon, SearchIcon, TerminalIcon, WrenchIcon, type LucideIcon } from "lucide-react";

/** One line describing a tool call's arguments: `path: "src/a.ts", limit: 20`. */
export function summarizeArgs(args: unknown, max = 120): string {
  if (args === null || args === undefined) return "";
  if (typeof args !== "object") return clip(JSON.stringify(args), max);
  const entries = Object.entries(args as Record<string, unknown>);
  if (entries.length === 0) return "";
  const parts = entries.map(([k, v]) => {
    const value = typeof v === "string" ? JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}…` : v) : clip(JSON.stringify(v) ?? "", 40);
    return entries.length === 1 ? value : `${k}: ${value}`;
  });
  return clip(parts.join(", "), max);
}

function clip(s: string, max: number): string {
  const one = s.replace(/\s+/g, " ");
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

export type ToolKind = "extension" | "shell" | "search" | "web" | "write" | "list" | "read" | "other";

/** What a tool does, guessed from its name, for its icon. */
export function toolKind(name: string): ToolKind {
  const n = name.toLowerCase();
  if (n.startsWith("extension_")) return "extension";
  if (/(shell|exec|run|command|bash)/.test(n)) return "shell";
  if (/(search|grep|find|query)/.test(n)) return "search";
  if (/(web|fetch|http|url|browse)/.test(n)) return "web";
  if (/(write|edit|patch|replace|create)/.test(n)) return "write";
  if (/(list|ls|tree|dir)/.test(n)) return "list";
  if (/(read|file|cat|open)/.test(n)) return "read";
  return "other";
}

/** One icon per kind of tool; a module constant, so `TOOL_ICONS[kind]` is the same component on every render. */
export const TOOL_ICONS: Record<ToolKind, LucideIcon> = {
  extension: PuzzleIcon,
  shell: TerminalIcon,
  search: SearchIcon,
  web: GlobeIcon,
  write: PencilIcon,
  list: ListTreeIcon,
  read: FileTextIcon,
  other: WrenchIcon,
};

export function toolIcon(name: string): LucideIcon {
  return TOOL_ICONS[toolKind(name)];
}

export function prettyJson(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
