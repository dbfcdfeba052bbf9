import type { ItemPage, MessageItem, SessionDetail, SessionInfo, TurnInfo } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { buildRows, emptyTimeline, hasNewer, hasOlder, timelineReducer, type TimelineAction, type TimelineState } from "@/app/_components/chat/timeline-state";

// Paging the timeline (CTX-4): pages merge into one gap-free window, live items join it only at the latest end.

const session: SessionInfo = { id: "s1", title: "T", workspace: "/w", createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z", running: false, mode: null, waiting: 0 };
const at = (seq: number) => new Date(Date.UTC(2026, 0, 1) + seq * 1000).toISOString();
const msg = (seq: number, text = `m${seq}`, state: MessageItem["state"] = "complete"): MessageItem => ({
  id: `i${seq}`, seq, turnId: `t${Math.floor((seq - 1) / 10)}`, createdAt: at(seq), kind: "message", role: seq % 10 === 1 ? "user" : "assistant", text, state,
});
const turn = (k: number, status: TurnInfo["status"] = "completed", startSeq = k * 10 + 1): TurnInfo => ({
  id: `t${k}`, sessionId: "s1", status, steps: 1, reason: status === "completed" ? null : "why", mode: "model", inputTokens: null, outputTokens: null,
  startedAt: at(startSeq), endedAt: at(startSeq + 9),
});
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
const turnsOf = (seqs: number[]) => [...new Set(seqs.map((s) => Math.floor((s - 1) / 10)))].map((k) => turn(k));
const page = (from: number, to: number, hasOlder: boolean, hasNewer: boolean): ItemPage => ({
  items: range(from, to).map((s) => msg(s)), turns: turnsOf(range(from, to)), hasOlder, hasNewer,
});
const latest = (from: number, to: number, hasOlderPage: boolean): SessionDetail => ({
  ...page(from, to, hasOlderPage, false), session, lastTurn: turn(Math.floor((to - 1) / 10)),
});
const run = (...actions: TimelineAction[]) => actions.reduce<TimelineState>(timelineReducer, emptyTimeline);
const shown = (s: TimelineState) => buildRows(s).flatMap((r) => (r.kind === "item" ? [r.item.seq] : []));
const snapshot = (detail: SessionDetail, reset = false): TimelineAction => ({ type: "snapshot", detail, deltas: new Map(), reset });
const live = (item: MessageItem): TimelineAction => ({ type: "event", event: { type: "item", item } });

describe("timeline paging (CTX-4)", () => {
  it("the latest page opens the window at the latest item, with older items to load", () => {
    const s = run(snapshot(latest(201, 300, true)));
    expect(shown(s)).toEqual(range(201, 300));
    expect(s.window).toEqual({ fromSeq: 201, toSeq: Infinity });
    expect(hasOlder(s.window)).toBe(true);
    expect(hasNewer(s.window)).toBe(false);
  });

  it("prepends an older page below nothing and above everything, then reaches the first item", () => {
    let s = run(snapshot(latest(201, 300, true)), { type: "older", beforeSeq: 201, page: page(101, 200, true, true) });
    expect(shown(s)).toEqual(range(101, 300));
    s = timelineReducer(s, { type: "older", beforeSeq: 101, page: page(1, 100, false, true) });
    expect(shown(s)).toEqual(range(1, 300));
    expect(hasOlder(s.window)).toBe(false);
    expect(buildRows(s)[0]).toMatchObject({ kind: "item", item: { text: "m1" } });
  });

  it("dedupes by id: an item in two pages (or a page and a live event) is one row, the more advanced copy", () => {
    const streaming = msg(300, "Hel", "streaming");
    const first = latest(201, 300, true);
    let s = run(snapshot({ ...first, items: [...first.items.slice(0, -1), streaming] }), live(msg(300, "Hello", "streaming")));
    s = timelineReducer(s, { type: "older", beforeSeq: 201, page: { ...page(150, 200, true, true), items: [...page(150, 200, true, true).items, msg(201), streaming] } });
    expect(shown(s)).toEqual(range(150, 300));
    expect(Object.keys(s.items)).toHaveLength(151);
    expect((s.items.i300 as MessageItem).text).toBe("Hello"); // the page's stale copy did not win
  });

  it("a live item after the latest page joins it; the turn it ends shows its status row", () => {
    let s = run(snapshot(latest(201, 300, true)), live(msg(301, "new")));
    expect(shown(s).at(-1)).toBe(301);
    s = timelineReducer(s, { type: "event", event: { type: "turn", turn: turn(30, "failed") } });
    expect(buildRows(s).at(-1)).toMatchObject({ kind: "turn", key: "turn:t30" });
  });

  it("the window around an item replaces the shown one; live items wait until newer pages reach the latest", () => {
    let s = run(snapshot(latest(201, 300, true)), { type: "around", page: page(41, 60, true, true) });
    expect(shown(s)).toEqual(range(41, 60));
    expect(s.window).toEqual({ fromSeq: 41, toSeq: 60 });
    // A live item is kept but not shown: showing it would leave a gap after 60.
    s = timelineReducer(s, live(msg(301, "live")));
    expect(shown(s)).toEqual(range(41, 60));
    // Both ways from there.
    s = timelineReducer(s, { type: "older", beforeSeq: 41, page: page(1, 40, false, true) });
    s = timelineReducer(s, { type: "newer", afterSeq: 60, page: page(61, 200, true, true) });
    expect(shown(s)).toEqual(range(1, 200));
    expect(hasNewer(s.window)).toBe(true);
    s = timelineReducer(s, { type: "newer", afterSeq: 200, page: page(201, 300, true, false) });
    expect(hasNewer(s.window)).toBe(false);
    expect(shown(s)).toEqual(range(1, 301));
  });

  it("a snapshot (a reconnect) keeps an old window; `reset` goes back to the latest page", () => {
    let s = run(snapshot(latest(201, 300, true)), { type: "around", page: page(41, 60, true, true) });
    s = timelineReducer(s, snapshot(latest(211, 310, true)));
    expect(shown(s)).toEqual(range(41, 60));
    s = timelineReducer(s, snapshot(latest(211, 310, true), true));
    expect(shown(s)).toEqual(range(211, 310));
  });

  it("a resync that no longer joins what is shown starts over at the latest page (no gap)", () => {
    let s = run(snapshot(latest(201, 300, true)), snapshot(latest(251, 350, true)));
    expect(shown(s)).toEqual(range(201, 350)); // overlapping: the window grows
    s = timelineReducer(s, snapshot(latest(501, 600, true)));
    expect(shown(s)).toEqual(range(501, 600));
  });

  it("a page asked for from an edge the window has left is dropped", () => {
    const s0 = run(snapshot(latest(201, 300, true)), { type: "around", page: page(41, 60, true, true) });
    const s1 = timelineReducer(s0, { type: "older", beforeSeq: 201, page: page(101, 200, true, true) });
    expect(s1).toBe(s0);
    expect(timelineReducer(s0, { type: "newer", afterSeq: 300, page: page(301, 310, true, false) })).toBe(s0);
  });

  it("a failed turn without items shows only when its time falls inside the window", () => {
    const early = { ...turn(99, "failed"), startedAt: at(5), endedAt: at(5) };
    let s = run(snapshot({ ...latest(201, 300, true), turns: [...turnsOf(range(201, 300)), early] }));
    expect(buildRows(s).some((r) => r.kind === "turn")).toBe(false);
    s = timelineReducer(s, { type: "older", beforeSeq: 201, page: page(1, 200, false, true) });
    expect(buildRows(s).findIndex((r) => r.key === "turn:t99")).toBe(5);
  });
});
