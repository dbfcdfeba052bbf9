// @vitest-environment happy-dom
import type { FactItem } from "@seam/shared";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { summaryBody } from "@/app/_components/chat/compaction-facts";
import { FactRow } from "@/app/_components/chat/fact-row";
import { slashEntries } from "@/app/_components/chat/slash-menu";

afterEach(cleanup);

const fact = (factKind: string, text: string, payload: unknown): FactItem =>
  ({ kind: "fact", id: `f-${factKind}`, seq: 9, turnId: "t1", createdAt: "2026-01-01T00:00:00Z", factKind, text, payload });

describe("compaction in the timeline (CTX-2)", () => {
  it("CTX-2: a compaction fact is a divider 'N items compacted' whose summary expands", async () => {
    const text = "Summary of the earlier conversation:\n\nThe user asked for **three** things.";
    render(<FactRow fact={fact("compaction", text, { upToSeq: 8, itemsCompacted: 12, tokensBefore: 9_000, tokensAfter: 2_500, trigger: "manual", focus: "the schema" })} />);
    expect(screen.getByTestId("compaction-title").textContent).toBe("12 items compacted");
    expect(screen.getByTestId("compaction-divider").textContent).toContain("by /compact · 9,000 → 2,500 tokens");
    expect(screen.queryByTestId("compaction-summary")).toBeNull();
    await userEvent.click(screen.getByTestId("compaction-toggle"));
    const summary = screen.getByTestId("compaction-summary");
    expect(summary.textContent).toContain("The user asked for three things.");
    expect(summary.textContent).toContain("Focus: the schema");
    expect(summary.querySelector("strong")?.textContent).toBe("three");
  });

  it("CTX-2: a failed compaction is a warning row with the reason", () => {
    render(<FactRow fact={fact("compaction_failed", "", { trigger: "auto", reason: "The summary request failed: 500.", focus: null })} />);
    const row = screen.getByTestId("compaction-failed");
    expect(row.getAttribute("role")).toBe("status");
    expect(row.textContent).toBe("Automatic compaction failed — The summary request failed: 500. The history was left as it was.");
  });

  it("CTX-2: pruned results are a slim row; a compaction fact with a payload it cannot read falls back to the generic row", () => {
    render(<FactRow fact={fact("context_pruned", "", { itemIds: ["a", "b"], tokensBefore: 5_000, tokensAfter: 3_000, trigger: "auto" })} />);
    expect(screen.getByTestId("fact-row-title").textContent).toBe("2 old tool results pruned");
    cleanup();
    render(<FactRow fact={fact("compaction", "Summary of the earlier conversation:\n\nS", { nonsense: true })} />);
    expect(screen.getByTestId("fact-row-title").textContent).toBe("Context compacted");
  });

  it("CTX-2: the summary body drops only the fixed first line", () => {
    expect(summaryBody("Summary of the earlier conversation:\n\nBody")).toBe("Body");
    expect(summaryBody("Something else\nBody")).toBe("Something else\nBody");
  });

  it("CTX-2: the slash menu offers /compact after the skills and before the tools; typing past it closes the menu", () => {
    const entries = slashEntries("/", [{ name: "read_file", description: "Reads." } as never], [{ name: "review", description: "Reviews." } as never]);
    expect(entries?.map((e) => `${e.kind}:${e.label}`)).toEqual(["skill:/review", "command:/compact", "tool:/call read_file"]);
    expect(slashEntries("/comp", [], [])?.map((e) => e.insert)).toEqual(["/compact "]);
    expect(slashEntries("/compact the schema", [], [])).toBeNull();
  });
});
