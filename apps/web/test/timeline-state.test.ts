import type { MessageItem, SessionDetail, SessionInfo, ToolCallItem, TurnInfo } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { appendUnseen, buildRows, emptyTimeline, newerItem, runningTurn, timelineReducer, type TimelineState } from "@/app/_components/chat/timeline-state";

const session: SessionInfo = { id: "s1", title: "T", workspace: "/w", createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z", running: true, mode: null, waiting: 0 };

const msg = (id: string, seq: number, text: string, state: MessageItem["state"] = "streaming", turnId = "t1"): MessageItem => ({
  id, seq, turnId, createdAt: `2026-01-01T00:00:0${seq}Z`, kind: "message", role: "assistant", text, state,
});
const call = (id: string, seq: number, status: ToolCallItem["status"]): ToolCallItem => ({
  id, seq, turnId: "t1", createdAt: `2026-01-01T00:00:0${seq}Z`, kind: "tool_call", callId: id, name: "read_file", args: {},
  status, canonical: null, rendered: null, error: null, startedAt: "2026-01-01T00:00:00Z", endedAt: null,
});
const turn = (id: string, status: TurnInfo["status"], reason: string | null = null): TurnInfo => ({
  id, sessionId: "s1", status, steps: 1, reason, mode: "model", inputTokens: null, outputTokens: null, startedAt: "2026-01-01T00:00:00Z", endedAt: null,
});
const detail = (items: SessionDetail["items"], turns: TurnInfo[] = [], hasOlder = false): SessionDetail => ({ session, items, turns, hasOlder, hasNewer: false, lastTurn: null });

describe("appendUnseen", () => {
  it("appends only the deltas the snapshot does not already end with", () => {
    expect(appendUnseen("Hello wor", ["wor", "ld", "!"])).toBe("Hello world!");
    expect(appendUnseen("Hello", ["!", "?"])).toBe("Hello!?");
    expect(appendUnseen("Hello!?", ["!", "?"])).toBe("Hello!?");
  });
});

describe("newerItem", () => {
  it("never lets a stale streaming copy replace a finished one", () => {
    expect(newerItem(msg("m", 1, "done", "complete"), msg("m", 1, "do"))).toMatchObject({ state: "complete", text: "done" });
    expect(newerItem(call("c", 1, "ok"), call("c", 1, "running"))).toMatchObject({ status: "ok" });
    expect(newerItem(call("c", 1, "running"), call("c", 1, "error"))).toMatchObject({ status: "error" });
  });
  it("keeps the longer streaming text when it extends the incoming one", () => {
    expect(newerItem(msg("m", 1, "Hello world"), msg("m", 1, "Hello"))).toMatchObject({ text: "Hello world" });
    expect(newerItem(msg("m", 1, "Hxx"), msg("m", 1, "Hello"))).toMatchObject({ text: "Hello" });
  });
});

describe("timelineReducer", () => {
  it("applies deltas to streaming messages only", () => {
    let s: TimelineState = timelineReducer(emptyTimeline, { type: "event", event: { type: "item", item: msg("m", 1, "Hi") } });
    s = timelineReducer(s, { type: "event", event: { type: "delta", itemId: "m", text: " there" } });
    expect((s.items.m as MessageItem).text).toBe("Hi there");
    s = timelineReducer(s, { type: "event", event: { type: "item", item: msg("m", 1, "Hi there.", "complete") } });
    s = timelineReducer(s, { type: "event", event: { type: "delta", itemId: "m", text: "late" } });
    expect((s.items.m as MessageItem).text).toBe("Hi there.");
  });

  it("merges a snapshot with deltas that arrived while it was in flight, without doubling text", () => {
    let s = timelineReducer(emptyTimeline, { type: "event", event: { type: "item", item: msg("m", 1, "") } });
    for (const d of ["Once ", "upon ", "a "]) s = timelineReducer(s, { type: "event", event: { type: "delta", itemId: "m", text: d } });
    // The snapshot was taken after "Once upon " and the client had buffered "upon " and "a ".
    s = timelineReducer(s, { type: "snapshot", detail: detail([msg("m", 1, "Once upon ")]), deltas: new Map([["m", ["upon ", "a "]]]) });
    expect((s.items.m as MessageItem).text).toBe("Once upon a ");
    expect(s.loaded).toBe(true);
  });

  it("recovers text missed while disconnected from the snapshot", () => {
    let s = timelineReducer(emptyTimeline, { type: "event", event: { type: "item", item: msg("m", 1, "One ") } });
    s = timelineReducer(s, { type: "event", event: { type: "delta", itemId: "m", text: "four " } }); // two, three missed
    s = timelineReducer(s, { type: "snapshot", detail: detail([msg("m", 1, "One two three four ")]), deltas: new Map([["m", ["four "]]]) });
    expect((s.items.m as MessageItem).text).toBe("One two three four ");
  });
});

describe("buildRows", () => {
  it("puts a stopped turn's status row after that turn's last item", () => {
    const s = timelineReducer(emptyTimeline, {
      type: "snapshot",
      detail: detail(
        [msg("m1", 1, "a", "complete", "t1"), call("c1", 2, "cancelled"), msg("m2", 3, "b", "complete", "t2")],
        [turn("t1", "stopped", "Stopped by the user."), turn("t2", "completed")],
      ),
      deltas: new Map(),
    });
    expect(buildRows(s).map((r) => r.key)).toEqual(["m1", "c1", "turn:t1", "m2"]);
  });
});

describe("buildRows placement and order", () => {
  it("orders items by seq, whatever order they arrived in", () => {
    let s = timelineReducer(emptyTimeline, { type: "event", event: { type: "item", item: msg("m2", 2, "b", "complete") } });
    s = timelineReducer(s, { type: "event", event: { type: "item", item: msg("m1", 1, "a", "complete") } });
    expect(buildRows(s).map((r) => r.key)).toEqual(["m1", "m2"]);
  });

  it("places a failed turn without items by time, and leaves completed turns out", () => {
    const failed = { ...turn("t9", "failed", "The model refused."), startedAt: "2026-01-01T00:00:01Z", endedAt: "2026-01-01T00:00:01Z" };
    const s = timelineReducer(emptyTimeline, {
      type: "snapshot",
      detail: detail([msg("m1", 1, "a", "complete", "t1"), msg("m2", 3, "b", "complete", "t2")], [turn("t1", "completed"), failed, turn("t2", "completed")]),
      deltas: new Map(),
    });
    const rows = buildRows(s);
    expect(rows.map((r) => r.key)).toEqual(["m1", "turn:t9", "m2"]);
    expect(rows[1]).toMatchObject({ kind: "turn", turn: { status: "failed", reason: "The model refused." } });
  });

  it("puts a turn that ended before every item first", () => {
    const early = { ...turn("t0", "interrupted"), startedAt: "2025-12-31T00:00:00Z", endedAt: "2025-12-31T00:00:01Z" };
    const s = timelineReducer(emptyTimeline, { type: "snapshot", detail: detail([msg("m1", 1, "a", "complete")], [early]), deltas: new Map() });
    expect(buildRows(s).map((r) => r.key)).toEqual(["turn:t0", "m1"]);
  });
});

describe("runningTurn", () => {
  it("finds the running turn, if any", () => {
    const s = timelineReducer(emptyTimeline, { type: "snapshot", detail: detail([], [turn("t1", "completed"), turn("t2", "running")]), deltas: new Map() });
    expect(runningTurn(s)?.id).toBe("t2");
    expect(runningTurn(emptyTimeline)).toBeUndefined();
  });
});
