// @vitest-environment happy-dom
import type { SearchHit } from "@seam/shared";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RestoreDialog } from "@/app/_components/checkpoints/restore-action";
import { isSearchShortcut } from "@/app/_components/search/search-button";
import { hitHref, SearchResultsView } from "@/app/_components/search/search-results";
import { searchQueryOf } from "@/app/_components/search/use-search";
import { clearComposerDraft, putComposerDraft, readComposerDraft } from "@/app/_components/session-ops/composer-draft";

afterEach(cleanup);

const hit = (over: Partial<SearchHit> = {}): SearchHit => ({
  sessionId: "s1", sessionTitle: "Fix the build", itemId: "m1", seq: 4, kind: "message", role: "user",
  snippet: [{ text: "why does the ", hit: false }, { text: "linker", hit: true }, { text: " fail…", hit: false }], at: "2026-01-01T00:00:00.000Z", ...over,
});
const props = { listId: "l", active: 0, onActive: () => {}, onChoose: () => {}, loading: false, error: null };

describe("search results (CTX-5)", () => {
  it("CTX-5 shows the session title, who wrote it and the snippet with the match marked; choosing one links to the item", async () => {
    const onChoose = vi.fn();
    render(<SearchResultsView {...props} query="linker" hits={[hit(), hit({ itemId: "t9", kind: "tool_call", role: "bash", sessionTitle: "Other" })]} onChoose={onChoose} />);
    const rows = screen.getAllByTestId("search-result");
    expect(rows).toHaveLength(2);
    expect(rows[0]!.getAttribute("aria-selected")).toBe("true");
    expect(rows[0]!.textContent).toContain("Fix the build");
    expect(rows[0]!.textContent).toContain("You");
    expect(rows[1]!.textContent).toContain("bash");
    expect(rows[0]!.querySelector("mark")?.textContent).toBe("linker");
    await userEvent.pointer({ keys: "[MouseLeft>]", target: rows[1]! });
    expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ itemId: "t9" }));
    expect(hitHref(hit())).toBe("/s/s1?item=m1");
    expect(hitHref(hit({ sessionId: "a b", itemId: "c&d" }))).toBe("/s/a%20b?item=c%26d");
  });

  it("CTX-5 says what to type, that nothing matched, and why a search failed", () => {
    const { rerender } = render(<SearchResultsView {...props} query="" hits={undefined} />);
    expect(screen.getByTestId("search-empty")).toBeTruthy();
    rerender(<SearchResultsView {...props} query="zzz" hits={[]} />);
    expect(screen.getByTestId("search-no-results").textContent).toContain("zzz");
    rerender(<SearchResultsView {...props} query="zzz" hits={undefined} />);
    expect(screen.getByTestId("search-loading")).toBeTruthy();
    rerender(<SearchResultsView {...props} query="zzz" hits={undefined} error="host down" />);
    expect(screen.getByTestId("search-error").textContent).toContain("host down");
  });

  it("CTX-5 Ctrl+K anywhere and / outside text fields open the search; the query is trimmed and bounded", () => {
    const input = document.createElement("textarea");
    const ev = (key: string, mods: Partial<KeyboardEvent> = {}, target: EventTarget | null = document.body) =>
      ({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, target, ...mods }) as KeyboardEvent;
    expect(isSearchShortcut(ev("k", { ctrlKey: true }))).toBe(true);
    expect(isSearchShortcut(ev("K", { metaKey: true }, input))).toBe(true);
    expect(isSearchShortcut(ev("/"))).toBe(true);
    expect(isSearchShortcut(ev("/", {}, input))).toBe(false);
    expect(isSearchShortcut(ev("k"))).toBe(false);
    expect(isSearchShortcut(ev("k", { ctrlKey: true, shiftKey: true }))).toBe(false);
    expect(searchQueryOf("   ")).toBe("");
    expect(searchQueryOf(`  ${"x".repeat(300)}`)).toHaveLength(200);
  });
});

describe("Restore to here forks (CTX-5)", () => {
  it("CTX-5 the dialog says both things: files rewound and a fork with the message", () => {
    render(<RestoreDialog open onOpenChange={() => {}} pending={false} error={null} onConfirm={() => {}} />);
    const text = screen.getByTestId("restore-dialog").textContent ?? "";
    expect(text).toContain("Files created since are removed");
    expect(text).toContain("a fork of this session opens");
    expect(text).toContain("This conversation stays as it is");
    expect(screen.getByTestId("restore-confirm").textContent).toBe("Restore and fork");
  });

  it("CTX-5 conflicts are listed before anything changed, and restoring the rest is a separate choice", async () => {
    const onAccept = vi.fn();
    render(
      <RestoreDialog open onOpenChange={() => {}} pending={false} error={null} onConfirm={() => {}} onAcceptConflicts={onAccept}
        conflicts={[{ path: "big.bin", reason: "the file now there is not in snapshots" }]} />,
    );
    expect(screen.getByTestId("restore-conflicts").textContent).toContain("Nothing has been changed and no fork made yet");
    expect(screen.getByTestId("restore-conflict").getAttribute("data-path")).toBe("big.bin");
    expect(screen.queryByTestId("restore-confirm")).toBeNull();
    await userEvent.click(screen.getByTestId("restore-accept-conflicts"));
    expect(onAccept).toHaveBeenCalledOnce();
  });

  it("CTX-5 the fork's composer draft is handed over per session until the composer clears it", () => {
    putComposerDraft("f1", "try it again");
    expect(readComposerDraft("f1")).toBe("try it again");
    expect(readComposerDraft("other")).toBe("");
    clearComposerDraft("f1");
    expect(readComposerDraft("f1")).toBe("");
  });
});
