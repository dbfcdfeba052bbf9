import { describe, expect, it } from "vitest";
import { COMPACTION_FACT, SKILLS_CATALOG_FACT, type FactItem, type MessageItem, type TimelineItem, type TurnInfo } from "@seam/shared";
import { createModelViews, VIEWS_MAX, viewOfTimeline } from "../../src/agent/model-view.js";
import type { Store } from "../../src/persistence/store.js";

const at = "2026-01-01T00:00:00.000Z";
const turn = (id: string, mode: TurnInfo["mode"] = "model"): TurnInfo =>
  ({ id, sessionId: "s", status: "completed", steps: 1, reason: null, mode, inputTokens: null, outputTokens: null, startedAt: at, endedAt: at });
const message = (seq: number, role: "user" | "assistant", text: string, state: MessageItem["state"] = "complete", turnId = "t1"): MessageItem =>
  ({ kind: "message", id: `m${seq}`, seq, turnId, createdAt: at, role, text, state });
const fact = (seq: number, factKind: string, text: string, payload: unknown = null): FactItem =>
  ({ kind: "fact", id: `f${seq}`, seq, turnId: null, createdAt: at, factKind, text, payload });

/** A store over in-memory items that records what the view asked for. */
function memory(items: TimelineItem[], turns: TurnInfo[]) {
  const calls: string[] = [];
  const store = {
    items: {
      since: async (_id: string, from: number) => {
        calls.push(`since:${from}`);
        return items.filter((i) => i.seq >= from).sort((a, b) => a.seq - b.seq);
      },
      lastSeq: async () => {
        calls.push("lastSeq");
        return Math.max(0, ...items.map((i) => i.seq));
      },
      lastFact: async (_id: string, kind: string) => {
        calls.push(`lastFact:${kind}`);
        return (items.filter((i): i is FactItem => i.kind === "fact" && i.factKind === kind).at(-1)) ?? null;
      },
    },
    turns: {
      byIds: async (_id: string, ids: readonly string[]) => {
        calls.push(`turns:${[...ids].join(",")}`);
        return turns.filter((t) => ids.includes(t.id));
      },
    },
  } as unknown as Pick<Store, "items" | "turns">;
  return { store, calls };
}

describe("the model view (CTX-4)", () => {
  it("CTX-4: reads the database once, then only from the first unsettled item on; a streaming message is read again until it settles", async () => {
    const items: TimelineItem[] = [message(1, "user", "hi"), message(2, "assistant", "Once", "streaming")];
    const { store, calls } = memory(items, [turn("t1")]);
    const views = createModelViews(store);
    expect((await views.current("s")).messages()).toEqual([{ role: "user", text: "hi" }, { role: "assistant", text: "Once", toolCalls: [] }]);
    expect(calls).toEqual([`lastFact:${COMPACTION_FACT}`, "since:1", "turns:t1"]);

    items[1] = message(2, "assistant", "Once upon a time", "complete");
    items.push(message(3, "user", "more"));
    calls.length = 0;
    const view = await views.current("s");
    expect(view.messages().map((m) => (m.role === "tool" ? m.output : m.text))).toEqual(["hi", "Once upon a time", "more"]);
    // The unsettled message (seq 2) and what came after it; its turn is known already.
    expect(calls).toEqual(["since:2"]);

    // Everything read is settled now: one row says nothing is new, and no item is read.
    calls.length = 0;
    expect(await views.current("s")).toBe(view);
    expect(calls).toEqual(["lastSeq"]);

    // An item appended elsewhere (another host) moves the session's last seq: it is read.
    items.push(message(4, "assistant", "the end", "complete"));
    calls.length = 0;
    expect((await views.current("s")).messages().at(-1)).toEqual({ role: "assistant", text: "the end", toolCalls: [] });
    expect(calls).toEqual(["lastSeq", "since:4"]);
  });

  it("CTX-4: after a compaction the view starts at the summary, hides older catalogs and rebuilds from the database", async () => {
    const items: TimelineItem[] = [
      message(1, "user", "old question"), message(2, "assistant", "old answer"),
      fact(3, SKILLS_CATALOG_FACT, "<available_skills>a</available_skills>", { digest: "d1", names: ["a"] }),
      message(4, "user", "recent question"), message(5, "assistant", "recent answer"),
    ];
    const { store, calls } = memory(items, [turn("t1")]);
    const views = createModelViews(store);
    expect((await views.current("s")).catalog()?.digest).toBe("d1");
    items.push(fact(6, COMPACTION_FACT, "Summary of the earlier conversation:\n\nS", { upToSeq: 2, itemsCompacted: 2, tokensBefore: 10, tokensAfter: 5, trigger: "manual", focus: null }));
    calls.length = 0;
    const view = await views.current("s");
    // A new compaction fact in the delta makes the view rebuild from it.
    expect(calls).toEqual(["lastSeq", "since:6", `lastFact:${COMPACTION_FACT}`, "since:3", "turns:t1"]);
    expect(view.messages()).toEqual([
      { role: "user", text: "Summary of the earlier conversation:\n\nS" },
      { role: "user", text: "recent question" },
      { role: "assistant", text: "recent answer", toolCalls: [] },
    ]);
    expect(view.catalog()).toBeNull();
    expect(viewOfTimeline(items, [turn("t1")]).messages()).toEqual(view.messages());
  });

  it("CTX-4: after a compaction, an item that settles later keeps every settled item before it in the view", async () => {
    const summary = fact(3, COMPACTION_FACT, "Summary of the earlier conversation:\n\nS", { upToSeq: 2, itemsCompacted: 2, tokensBefore: 10, tokensAfter: 5, trigger: "manual", focus: null });
    const running: TimelineItem = {
      kind: "tool_call", id: "c5", seq: 5, turnId: "t1", createdAt: at, callId: "call-5", name: "read_file", args: { path: "a.txt" },
      status: "running", canonical: null, rendered: null, error: null, startedAt: at, endedAt: null,
    };
    const items: TimelineItem[] = [message(1, "user", "old"), message(2, "assistant", "old answer"), summary, message(4, "user", "read a.txt"), running];
    const { store } = memory(items, [turn("t1")]);
    const views = createModelViews(store);
    const first = await views.current("s");
    expect(first.settledCount).toBe(2); // the summary and the user's message
    items[4] = { ...running, status: "ok", rendered: "contents", endedAt: at };
    const view = await views.current("s");
    expect(view.items.map((i) => i.seq)).toEqual([3, 4, 5]);
    expect(view.messages()).toEqual(viewOfTimeline(items, [turn("t1")]).messages());
  });

  /** A pseudo-random session grown item by item: messages, running calls that finish later, empty facts, direct calls. */
  async function grow(tell: boolean) {
    const items: TimelineItem[] = [];
    const turns = [turn("t1"), turn("d1", "direct")];
    const { store, calls } = memory(items, turns);
    const views = createModelViews(store);
    let seq = 0;
    const call = (turnId: string, status: "running" | "ok"): TimelineItem => ({
      kind: "tool_call", id: `c${++seq}`, seq, turnId, createdAt: at, callId: `call-${seq}`, name: "read_file", args: { path: `${seq}.txt` },
      status, canonical: null, rendered: status === "ok" ? `contents ${seq}` : null, error: null, startedAt: at, endedAt: status === "ok" ? at : null,
    });
    // Told writes skip some items (written elsewhere) and tell the turns only sometimes.
    const write = (item: TimelineItem, n: number) => {
      if (tell && n % 5 !== 0) views.written("s", item, n % 2 ? turns.find((t) => t.id === item.turnId) : undefined);
    };
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) % 6;
    for (let step = 0; step < 120; step++) {
      const r = next();
      const item = r === 0 ? message(++seq, "user", `u${seq}`)
        : r === 1 ? message(++seq, "assistant", `a${seq}`)
        : r === 2 ? call("t1", "running")
        : r === 3 ? fact(++seq, "auxiliary", "", null)
        : r === 4 ? call("d1", "ok")
        : fact(++seq, "note", `n${seq}`);
      items.push(item);
      write(item, step);
      // Running calls finish a little later.
      if (step % 3 === 0) {
        for (const [i, it] of items.entries()) {
          if (it.kind === "tool_call" && it.status === "running") {
            items[i] = { ...it, status: "ok", rendered: `done ${it.seq}`, endedAt: at };
            write(items[i] as TimelineItem, step + i);
          }
        }
      }
      const view = await views.current("s");
      expect(view.messages(), `step ${step}`).toEqual(viewOfTimeline(items, turns).messages());
    }
    return calls;
  }

  it("CTX-4: a view grown item by item (calls running, then finished; direct calls; facts) gives the same messages as one built at once", async () => {
    const calls = await grow(false);
    // Every step read from the first unsettled item on, never the whole session again.
    expect(calls.filter((c) => c.startsWith("lastFact:"))).toHaveLength(1);
  });

  it("CTX-4: told this host's writes, in any mix with writes from elsewhere, the view still gives the same messages, and reads fewer items", async () => {
    const untold = (await grow(false)).filter((c) => c.startsWith("since:")).length;
    const told = (await grow(true)).filter((c) => c.startsWith("since:")).length;
    expect(told).toBeLessThan(untold);
  });

  it("CTX-4: an item written here right after what the view holds, or the new state of its one unsettled item, is not read back; anything else is", async () => {
    const items: TimelineItem[] = [message(1, "user", "hi"), message(2, "assistant", "hello")];
    const { store, calls } = memory(items, [turn("t1"), turn("t2"), turn("t3")]);
    const views = createModelViews(store);
    await views.current("s");

    // The user's message of a new turn, told with the turn: only the last-seq row is read.
    const push = (item: TimelineItem, told = true, withTurn = true) => {
      items.push(item);
      if (told) views.written("s", item, withTurn && item.turnId ? turn(item.turnId) : undefined);
    };
    push(message(3, "user", "next", "complete", "t2"));
    calls.length = 0;
    expect((await views.current("s")).messages().at(-1)).toEqual({ role: "user", text: "next" });
    expect(calls).toEqual(["lastSeq"]);

    // A streaming answer, then its final state.
    push(message(4, "assistant", "Par", "streaming", "t2"));
    items[3] = message(4, "assistant", "Partly done", "complete", "t2");
    views.written("s", items[3] as TimelineItem);
    calls.length = 0;
    expect((await views.current("s")).messages().at(-1)).toEqual({ role: "assistant", text: "Partly done", toolCalls: [] });
    expect(calls).toEqual(["lastSeq"]);

    // Seq 5 written elsewhere, then seq 6 told here: 6 does not follow what the view holds, so both are read.
    push(message(5, "user", "from another host", "complete", "t2"), false);
    push(message(6, "assistant", "reply", "complete", "t2"));
    calls.length = 0;
    expect((await views.current("s")).messages().slice(-2).map((m) => (m.role === "tool" ? m.output : m.text))).toEqual(["from another host", "reply"]);
    expect(calls).toEqual(["lastSeq", "since:5"]);

    // An item of a turn the view has not seen, told without the turn: read, with its turn.
    push(message(7, "user", "new turn", "complete", "t3"), true, false);
    calls.length = 0;
    expect((await views.current("s")).messages().at(-1)).toEqual({ role: "user", text: "new turn" });
    expect(calls).toEqual(["lastSeq", "since:7", "turns:t3"]);
  });

  it("CTX-4: a deleted session's view is dropped, and at most VIEWS_MAX sessions are kept", async () => {
    const { store, calls } = memory([message(1, "user", "hi")], [turn("t1")]);
    const views = createModelViews(store);
    await views.current("s");
    views.forget("s");
    calls.length = 0;
    await views.current("s");
    expect(calls[0]).toBe(`lastFact:${COMPACTION_FACT}`);
    for (let i = 0; i < VIEWS_MAX; i++) await views.current(`other-${i}`);
    calls.length = 0;
    await views.current("s");
    expect(calls[0]).toBe(`lastFact:${COMPACTION_FACT}`);
  });
});
