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

  it("CTX-4: a view grown item by item (calls running, then finished; direct calls; facts) gives the same messages as one built at once", async () => {
    const items: TimelineItem[] = [];
    const turns = [turn("t1"), turn("d1", "direct")];
    const { store } = memory(items, turns);
    const views = createModelViews(store);
    let seq = 0;
    const call = (turnId: string, status: "running" | "ok"): TimelineItem => ({
      kind: "tool_call", id: `c${++seq}`, seq, turnId, createdAt: at, callId: `call-${seq}`, name: "read_file", args: { path: `${seq}.txt` },
      status, canonical: null, rendered: status === "ok" ? `contents ${seq}` : null, error: null, startedAt: at, endedAt: status === "ok" ? at : null,
    });
    // A fixed pseudo-random walk: messages, running calls that finish later, empty facts, direct calls.
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) % 6;
    for (let step = 0; step < 120; step++) {
      const r = next();
      if (r === 0) items.push(message(++seq, "user", `u${seq}`));
      else if (r === 1) items.push(message(++seq, "assistant", `a${seq}`));
      else if (r === 2) items.push(call("t1", "running"));
      else if (r === 3) items.push(fact(++seq, "auxiliary", "", null));
      else if (r === 4) items.push(call("d1", "ok"));
      else items.push(fact(++seq, "note", `n${seq}`));
      // Running calls finish a little later.
      if (step % 3 === 0) {
        for (const [i, item] of items.entries()) {
          if (item.kind === "tool_call" && item.status === "running") items[i] = { ...item, status: "ok", rendered: `done ${item.seq}`, endedAt: at };
        }
      }
      const view = await views.current("s");
      expect(view.messages(), `step ${step}`).toEqual(viewOfTimeline(items, turns).messages());
    }
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
