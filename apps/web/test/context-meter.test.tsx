// @vitest-environment happy-dom
import type { ContextUsage, SessionEvent } from "@seam/shared";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { ContextBreakdown, ContextMeter, contextLevel, formatTokens } from "@/app/_components/chat/context-meter";
import { emptyTimeline, timelineReducer } from "@/app/_components/chat/timeline-state";
import { TooltipProvider } from "@/components/ui/tooltip";

afterEach(cleanup);

const usage = (over: Partial<ContextUsage> = {}): ContextUsage => ({
  system: 210, tools: 4_100, toolCount: 12, history: 8_034, total: 12_344, window: 128_000, windowSource: "model", percent: 9.6, lastReported: 11_900, compactAt: 80, deferred: 0, loaded: [], ...over,
});

describe("formatTokens (CTX-1)", () => {
  it("CTX-1: shortens token counts for the header", () => {
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(12_344)).toBe("12.3k");
    expect(formatTokens(128_000)).toBe("128k");
    expect(formatTokens(200_000)).toBe("200k");
    expect(formatTokens(1_047_576)).toBe("1.05M");
  });
});

describe("ContextMeter (CTX-1)", () => {
  it("CTX-1: shows tokens of the next request against the window and the breakdown on hover", async () => {
    const user = userEvent.setup();
    render(<TooltipProvider delayDuration={0}><ContextMeter context={usage()} /></TooltipProvider>);
    const meter = screen.getByTestId("context-meter");
    expect(screen.getByTestId("context-meter-label").textContent).toBe("12.3k / 128k");
    expect(meter.dataset.level).toBe("ok");
    expect(meter.getAttribute("aria-label")).toBe("Context: 12.3k / 128k (9.6%)");
    await user.hover(meter);
    const breakdown = await screen.findAllByTestId("context-breakdown");
    expect(breakdown[0]!.textContent).toContain("Next request");
  });

  it("CTX-1: the breakdown lists system, tools, history, the window and the provider's last report", () => {
    render(<ContextBreakdown context={usage()} />);
    expect(screen.getByTestId("context-system").textContent).toContain("210");
    expect(screen.getByTestId("context-tools").textContent).toMatch(/Tools \(12\).*4\.1k/);
    expect(screen.getByTestId("context-history").textContent).toContain("8k");
    expect(screen.getByTestId("context-total").textContent).toContain("12,344");
    expect(screen.getByTestId("context-window").textContent).toMatch(/documented for this model.*128,000 \(9\.6%\)/);
    expect(screen.getByTestId("context-last").textContent).toContain("11,900");
    expect(screen.queryByTestId("context-warning")).toBeNull();
  });

  it("CTX-1, CTX-2: warns from 10 points below the compaction threshold in force", () => {
    expect(contextLevel(usage({ percent: 69.9 }))).toBe("ok");
    expect(contextLevel(usage({ percent: 70 }))).toBe("warn");
    expect(contextLevel(usage({ percent: 80, compactAt: 95 }))).toBe("ok");
    expect(contextLevel(usage({ percent: 85, compactAt: 95 }))).toBe("warn");
    render(<TooltipProvider><ContextMeter context={usage({ total: 110_000, percent: 85.9 })} /></TooltipProvider>);
    expect(screen.getByTestId("context-meter").dataset.level).toBe("warn");
    cleanup();
    render(<ContextBreakdown context={usage({ total: 110_000, percent: 85.9 })} />);
    expect(screen.getByTestId("context-warning").textContent).toContain("Compaction starts at 80% of the window");
  });

  it("CTX-1: without a known window it shows the tokens alone and says how to set the window", () => {
    const unknown = usage({ window: null, windowSource: "unknown", percent: null, lastReported: null });
    render(<TooltipProvider><ContextMeter context={unknown} /></TooltipProvider>);
    expect(screen.getByTestId("context-meter-label").textContent).toBe("12.3k tokens");
    expect(screen.getByTestId("context-meter").dataset.level).toBe("unknown");
    cleanup();
    render(<ContextBreakdown context={unknown} />);
    expect(screen.getByTestId("context-window").textContent).toContain("Settings → Model");
    expect(screen.getByTestId("context-last").textContent).toContain("—");
  });
});

describe("deferred tools in the meter (CTX-3)", () => {
  it("CTX-3: says how many tools are deferred and lists the loaded ones; says nothing while none is deferred", () => {
    render(<ContextBreakdown context={usage({ deferred: 54, loaded: ["mcp__gh__create_issue", "mcp__gh__list_issues"] })} />);
    expect(screen.getByTestId("context-deferred-line").textContent).toBe("54 tools deferred · 2 loaded");
    expect([...screen.getByTestId("context-loaded").querySelectorAll("li")].map((li) => li.textContent)).toEqual(["mcp__gh__create_issue", "mcp__gh__list_issues"]);
    cleanup();
    render(<ContextBreakdown context={usage({ deferred: 60, loaded: [] })} />);
    expect(screen.getByTestId("context-deferred-line").textContent).toBe("60 tools deferred · 0 loaded");
    expect(screen.queryByTestId("context-loaded")).toBeNull();
    cleanup();
    render(<ContextBreakdown context={usage()} />);
    expect(screen.queryByTestId("context-deferred")).toBeNull();
  });

  it("CTX-3: a long loaded list is cut with a count of the rest", () => {
    const loaded = Array.from({ length: 15 }, (_, i) => `mcp__gh__t${String(i).padStart(2, "0")}`);
    render(<ContextBreakdown context={usage({ deferred: 1, loaded })} />);
    const items = [...screen.getByTestId("context-loaded").querySelectorAll("li")].map((li) => li.textContent);
    expect(items).toHaveLength(13);
    expect(items.at(-1)).toBe("+3 more");
  });
});

describe("timeline reducer: context events (CTX-1)", () => {
  it("CTX-1: keeps the latest context reading, also across a snapshot", () => {
    const event: SessionEvent = { type: "context", context: usage() };
    const s1 = timelineReducer(emptyTimeline, { type: "event", event });
    expect(s1.context).toEqual(usage());
    const s2 = timelineReducer(s1, { type: "event", event: { type: "context", context: usage({ total: 20_000 }) } });
    expect(s2.context?.total).toBe(20_000);
    const session = { id: "s1", title: "T", workspace: "/w", createdAt: "", updatedAt: "", running: false, mode: null, waiting: 0 };
    const s3 = timelineReducer(s2, { type: "snapshot", detail: { session, items: [], turns: [], hasOlder: false, hasNewer: false, lastTurn: null }, deltas: new Map() });
    expect(s3.context?.total).toBe(20_000);
  });
});
