import { readFileSync } from "node:fs";
import { TOOL_SEARCH, TOOL_SEARCH_RESULTS_MAX, ToolSearchInput, type ToolSearchMatch, type ToolSearchResult } from "@seam/shared";
import { defineTool, type ToolDef } from "./tool.js";
import { oneLine, rankTools } from "./tool-match.js";
import type { ToolSet } from "./tool-set.js";

const description = readFileSync(new URL("./tool-search.md", import.meta.url), "utf8").trim();

const origin = (t: ToolDef) => (!t.source ? "" : t.capability === "mcp" ? ` (MCP server "${t.source}")` : ` (from ${t.source})`);

/** What the model reads back: the loaded tools one per line, or why nothing was found and what to try. */
function render(query: string, matches: ToolSearchMatch[], tools: ToolDef[], total: number, searchable: ToolDef[]): string {
  if (searchable.length === 0) return "No tools are deferred in this session: every tool is already in your tool definitions.";
  if (matches.length === 0) {
    const sources = [...new Set(searchable.flatMap((t) => (t.source ? [t.source] : [])))].sort();
    const from = sources.length > 0 ? ` Deferred tools come from: ${sources.join(", ")}.` : "";
    return `No deferred tool matches "${query}" (${searchable.length} searched). Try fewer or broader words: a service or server name, an action such as "create", "list" or "search", or an object such as "issue" or "file".${from}`;
  }
  const lines = tools.map((t, i) => `- ${t.name}${origin(t)}: ${matches[i]!.description || "(no description)"}`);
  const more = total > matches.length ? `\nShowing the best ${matches.length} of ${total} matches; search with more specific words to load others.` : "";
  return `Loaded ${matches.length} tool${matches.length === 1 ? "" : "s"} for "${query}"; from your next step on, call ${matches.length === 1 ? "it" : "them"} directly by name:\n${lines.join("\n")}${more}`;
}

/** `tool_search({query})` (CTX-3): ranks the session's deferrable tools by the query's words and loads the best matches. */
export function toolSearchTool(deps: { tools: Pick<ToolSet, "searchable" | "load"> }): ToolDef {
  return defineTool({
    name: TOOL_SEARCH,
    description,
    capability: "agent",
    input: ToolSearchInput,
    effect: "read",
    timeoutMs: 10_000,
    async run({ query }, ctx) {
      const searchable = deps.tools.searchable(ctx.sessionId);
      const ranked = rankTools(query, searchable);
      const tools = ranked.slice(0, TOOL_SEARCH_RESULTS_MAX).map((m) => m.tool);
      const matches: ToolSearchMatch[] = tools.map((t) => ({ name: t.name, description: oneLine(t.description), source: t.source ?? null }));
      const loaded = tools.map((t) => t.name);
      await deps.tools.load(ctx.sessionId, loaded);
      const canonical: ToolSearchResult = { query, matches, loaded, searched: searchable.length };
      return { canonical, rendered: render(query, matches, tools, ranked.length, searchable) };
    },
  });
}
