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

export function toolIcon(name: string): LucideIcon {
  const n = name.toLowerCase();
  if (n.startsWith("extension_")) return PuzzleIcon;
  if (/(shell|exec|run|command|bash)/.test(n)) return TerminalIcon;
  if (/(search|grep|find|query)/.test(n)) return SearchIcon;
  if (/(web|fetch|http|url|browse)/.test(n)) return GlobeIcon;
  if (/(write|edit|patch|replace|create)/.test(n)) return PencilIcon;
  if (/(list|ls|tree|dir)/.test(n)) return ListTreeIcon;
  if (/(read|file|cat|open)/.test(n)) return FileTextIcon;
  return WrenchIcon;
}

export function prettyJson(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
