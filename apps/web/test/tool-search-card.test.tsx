// @vitest-environment happy-dom
import type { ToolCallItem } from "@seam/shared";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { toolSearchSummary, toolSearchViewOf, ToolSearchResultView } from "@/app/_components/chat/tool-search-result";

afterEach(cleanup);

const at = "2026-01-01T00:00:00.000Z";
const call = (over: Partial<ToolCallItem> = {}): ToolCallItem => ({
  kind: "tool_call", id: "i1", seq: 1, turnId: "t1", createdAt: at, callId: "c1", name: "tool_search", args: { query: "issue" },
  status: "ok", rendered: "Loaded 2 tools", error: null, startedAt: at, endedAt: at,
  canonical: {
    query: "issue", searched: 60, loaded: ["mcp__gh__create_issue", "mcp__gh__list_issues"],
    matches: [
      { name: "mcp__gh__create_issue", description: "Create an issue.", source: "gh" },
      { name: "mcp__gh__list_issues", description: "List issues.", source: "gh" },
    ],
  },
  ...over,
});

describe("the tool_search card (CTX-3)", () => {
  it("CTX-3: recognises a tool_search result by name and shape only", () => {
    expect(toolSearchViewOf(call())?.matches).toHaveLength(2);
    expect(toolSearchViewOf(call({ name: "grep" }))).toBeNull();
    expect(toolSearchViewOf(call({ status: "error", canonical: null }))).toBeNull();
    expect(toolSearchViewOf(call({ canonical: { something: "else" } }))).toBeNull();
  });

  it("CTX-3: shows the loaded matches with their server and description, and a one-line summary", () => {
    const view = toolSearchViewOf(call())!;
    expect(toolSearchSummary(view)).toBe('"issue" → 2 loaded');
    render(<ToolSearchResultView result={view} modelText={<pre>Loaded 2 tools</pre>} />);
    const matches = screen.getAllByTestId("tool-search-match").map((m) => m.textContent);
    expect(matches).toEqual(["mcp__gh__create_issueghCreate an issue.", "mcp__gh__list_issuesghList issues."]);
    expect(screen.getByTestId("tool-search-result").textContent).toContain("Loaded 2 of 60 deferred tools");
  });

  it("CTX-3: says when nothing matched", () => {
    const view = toolSearchViewOf(call({ canonical: { query: "zebra", searched: 60, loaded: [], matches: [] } }))!;
    expect(toolSearchSummary(view)).toBe('"zebra" → no matches');
    render(<ToolSearchResultView result={view} modelText={null} />);
    expect(screen.getByTestId("tool-search-none").textContent).toContain("No deferred tool matched “zebra” (60 searched)");
  });
});
