import { z } from "zod";

/** The tool the model gets when tools are deferred (CTX-3). */
export const TOOL_SEARCH = "tool_search";
export const TOOL_SEARCH_QUERY_MAX = 200;
/** At most this many matches are returned (and loaded) by one tool_search call. */
export const TOOL_SEARCH_RESULTS_MAX = 10;

/** Default deferral budget: more visible tools than this, or tool specs over this share of the window, defer (CTX-3). */
export const DEFER_TOOLS_DEFAULT = { maxTools: 40, maxPercent: 10 } as const;
export const DEFER_MAX_TOOLS_LIMIT = 10_000;

/**
 * When the visible tool schemas pass this budget (either limit), deferrable tools (MCP tools) are left
 * out of the model's request and it gets `tool_search` instead (CTX-3).
 */
export const DeferTools = z.object({
  maxTools: z
    .number({ error: "Max tools must be a number" })
    .int("Max tools must be a whole number")
    .min(1, "Max tools must be at least 1")
    .max(DEFER_MAX_TOOLS_LIMIT, `Max tools must be at most ${DEFER_MAX_TOOLS_LIMIT.toLocaleString("en-US")}`)
    .default(DEFER_TOOLS_DEFAULT.maxTools),
  maxPercent: z
    .number({ error: "Max percent must be a number" })
    .min(1, "Max percent of the window must be at least 1")
    .max(100, "Max percent of the window must be at most 100")
    .default(DEFER_TOOLS_DEFAULT.maxPercent),
});
export type DeferTools = z.infer<typeof DeferTools>;

/** `tool_search` arguments. */
export const ToolSearchInput = z.object({
  query: z
    .string()
    .trim()
    .min(1, "query must not be empty: name a service, an action or an object, e.g. \"github issues\"")
    .max(TOOL_SEARCH_QUERY_MAX, `query has at most ${TOOL_SEARCH_QUERY_MAX} characters`)
    .describe("Words naming what you want to do or the service, e.g. \"create github issue\" or \"calendar events\""),
});
export type ToolSearchInput = z.infer<typeof ToolSearchInput>;

export const ToolSearchMatch = z.object({
  name: z.string(),
  /** The first line of the tool's description. */
  description: z.string(),
  /** Where it comes from, e.g. the MCP server's name; null when unknown. */
  source: z.string().nullable(),
});
export type ToolSearchMatch = z.infer<typeof ToolSearchMatch>;

/** The canonical result of a tool_search call: the matches, all of them loaded for the rest of the session. */
export const ToolSearchResult = z.object({
  query: z.string(),
  matches: z.array(ToolSearchMatch),
  /** Names loaded by this call (the matches). */
  loaded: z.array(z.string()),
  /** How many deferrable tools the search looked through. */
  searched: z.number().int(),
});
export type ToolSearchResult = z.infer<typeof ToolSearchResult>;
