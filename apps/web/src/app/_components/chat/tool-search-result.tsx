"use client";
import { TOOL_SEARCH, ToolSearchResult, type ToolCallItem } from "@seam/shared";
import type { ReactNode } from "react";
import { ModelTextDetails } from "./model-text-details";

/** A tool_search call's canonical result (CTX-3), recognised by tool name and shape. */
export function toolSearchViewOf(call: Pick<ToolCallItem, "name" | "status" | "canonical">): ToolSearchResult | null {
  if (call.name !== TOOL_SEARCH || call.status !== "ok") return null;
  const r = ToolSearchResult.safeParse(call.canonical);
  return r.success ? r.data : null;
}

/** The card's one line: `"issue" → 6 loaded`. */
export function toolSearchSummary(result: ToolSearchResult): string {
  const n = result.matches.length;
  return `${JSON.stringify(result.query)} → ${n === 0 ? "no matches" : `${n} loaded`}`;
}

/** The Result tab of a tool_search card: the tools it found and loaded for the rest of the session. */
export function ToolSearchResultView({ result, modelText }: { result: ToolSearchResult; modelText: ReactNode }) {
  return (
    <div data-testid="tool-search-result" className="flex flex-col gap-2 rounded-md border bg-background p-2.5 text-[12.5px]">
      {result.matches.length === 0 ? (
        <p data-testid="tool-search-none" className="text-muted-foreground">
          No deferred tool matched “{result.query}” ({result.searched} searched); nothing was loaded.
        </p>
      ) : (
        <>
          <p className="text-muted-foreground">
            Loaded {result.matches.length} of {result.searched} deferred tools for “{result.query}” — sent with every later request of this session.
          </p>
          <ul className="flex flex-col gap-1">
            {result.matches.map((m) => (
              <li key={m.name} data-testid="tool-search-match" className="flex min-w-0 flex-col">
                <span className="flex items-baseline gap-1.5">
                  <span className="font-mono text-[12px] font-medium">{m.name}</span>
                  {m.source && <span className="text-[11px] text-muted-foreground">{m.source}</span>}
                </span>
                {m.description && <span className="truncate text-muted-foreground">{m.description}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      <ModelTextDetails>{modelText}</ModelTextDetails>
    </div>
  );
}
