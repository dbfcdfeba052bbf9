import { readFileSync } from "node:fs";
import type { WebSettings, WebSearchToolResult } from "@seam/shared";
import { z } from "zod";
import { defineTool, type ToolDef } from "../agent/tool.js";
import { renderSearch, mergeSources, type QueryResult } from "./render.js";
import type { WebService } from "./service.js";
import { toolError } from "./tool-error.js";

const description = readFileSync(new URL("./web-search.md", import.meta.url), "utf8").trim();

/**
 * `web_search({queries})` (WEB-7): each distinct query once, concurrently; the first failure aborts the
 * others and is the call's result; sources merged round-robin, deduped, capped by settings.
 */
export function webSearchTool(deps: { service: WebService; settings: () => WebSettings }): ToolDef {
  const maxQueries = deps.settings().searchMaxQueries;
  const Input = z.object({
    queries: z.array(z.string().trim().min(1, "queries must not be empty strings"))
      .min(1, "Give at least one query")
      .max(maxQueries, `Give at most ${maxQueries} queries per call`)
      .describe(`1 to ${maxQueries} search queries, each a complete search phrase`),
  });
  return defineTool({
    name: "web_search",
    description,
    capability: "web",
    effect: "network",
    input: Input,
    timeoutMs: deps.settings().searchTimeoutMs,
    async run(args, ctx) {
      const settings = deps.settings();
      const queries = [...new Set(args.queries)];
      const controller = new AbortController();
      const onAbort = () => controller.abort(ctx.signal.reason);
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      try {
        const request = (query: string) => deps.service
          .search({ query, maxResults: settings.searchMaxResults }, { signal: controller.signal, sessionId: ctx.sessionId, callId: ctx.callId })
          .then((o): QueryResult => ({ query, provider: o.provider, result: o.result }));
        const results = await firstFailureWins(queries.map(request), controller);
        const { sources, capped } = mergeSources(results.map((r) => r.result), settings.searchMaxResults);
        const canonical: WebSearchToolResult = { results, sources, truncated: capped || results.some((r) => r.result.truncated) };
        return { canonical, rendered: renderSearch(results, sources, capped, settings.searchMaxResults) };
      } catch (error) {
        return toolError(error, "search");
      } finally {
        ctx.signal.removeEventListener("abort", onAbort);
      }
    },
  });
}

/** Like Promise.all, but the first rejection aborts the siblings through `controller` before it propagates. */
async function firstFailureWins<T>(tasks: Promise<T>[], controller: AbortController): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) => {
    const out = Array.from<T>({ length: tasks.length });
    let left = tasks.length;
    let failed = false;
    tasks.forEach((task, i) => {
      task.then((value) => {
        out[i] = value;
        if (--left === 0 && !failed) resolve(out);
      }, (error: unknown) => {
        if (failed) return;
        failed = true;
        controller.abort(new Error("a sibling query failed"));
        reject(error);
      });
    });
  });
}
