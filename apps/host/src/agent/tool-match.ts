import type { ToolDef } from "./tool.js";

/** Words that say nothing about which tool is meant. */
const FILLER = new Set(["a", "an", "the", "to", "for", "of", "and", "or", "in", "on", "with", "by", "from", "my", "me", "i", "tool", "tools", "mcp"]);

/** Lower-case words of a text: split on anything but letters and digits, and at camelCase humps. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The query's words, without filler unless that is all there is. */
export function queryWords(query: string): string[] {
  const all = [...new Set(words(query))];
  const meaningful = all.filter((w) => !FILLER.has(w));
  return meaningful.length > 0 ? meaningful : all;
}

/** 1 for the same word, 0.5 when one starts the other (issue/issues, repo/repository), else 0. */
function likeness(word: string, token: string): number {
  if (word === token) return 1;
  if (Math.min(word.length, token.length) >= 3 && (token.startsWith(word) || word.startsWith(token))) return 0.5;
  return 0;
}

const best = (word: string, tokens: readonly string[]) => tokens.reduce((m, t) => Math.max(m, likeness(word, t)), 0);

export interface ToolMatch { tool: ToolDef; score: number; matched: number }

/** The first line of a description, at most `max` characters. */
export function oneLine(text: string, max = 160): string {
  const line = text.split("\n").map((l) => l.trim()).find(Boolean) ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Ranks tools by how many query words they match, then by where: the tool's name counts most, then its source
 * (the MCP server), then its description. Tools matching no word are left out; ties go by name.
 */
export function rankTools(query: string, tools: readonly ToolDef[]): ToolMatch[] {
  const q = queryWords(query);
  const out: ToolMatch[] = [];
  for (const tool of tools) {
    const name = words(tool.name);
    const source = tool.source ? words(tool.source) : [];
    const description = words(tool.description);
    let score = 0;
    let matched = 0;
    for (const w of q) {
      const s = Math.max(4 * best(w, name), 3 * best(w, source), 1 * best(w, description));
      if (s > 0) matched++;
      score += s;
    }
    if (matched > 0) out.push({ tool, score, matched });
  }
  return out.sort((a, b) => b.matched - a.matched || b.score - a.score || (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0));
}
