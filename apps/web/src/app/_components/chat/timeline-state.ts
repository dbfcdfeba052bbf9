import type { ContextUsage, SessionDetail, SessionEvent, SessionInfo, TimelineItem, TurnInfo } from "@seam/shared";

/** Local copy of one session's timeline: a `session.get` snapshot plus the live `session:<id>` events. */
export interface TimelineState {
  session: SessionInfo | null;
  items: Record<string, TimelineItem>;
  turns: Record<string, TurnInfo>;
  /** Live output of running tool calls by item id (a command's tail), bounded; the finished result replaces it. */
  outputs: Record<string, string>;
  /** The size of the next model request as the host last measured it (CTX-1), or null before the first reading. */
  context: ContextUsage | null;
  loaded: boolean;
}

export const emptyTimeline: TimelineState = { session: null, items: {}, turns: {}, outputs: {}, context: null, loaded: false };

/** How much live output one card keeps while its call runs (the tail; the result holds the rest). */
export const LIVE_OUTPUT_MAX_CHARS = 256 * 1024;

export type TimelineAction =
  | { type: "event"; event: SessionEvent }
  | { type: "snapshot"; detail: SessionDetail; deltas: Map<string, string[]> };

const itemDone = (item: TimelineItem) =>
  item.kind === "message" ? item.state !== "streaming" : item.kind === "tool_call" ? item.status !== "running" : true;

/**
 * Picks the more advanced of two versions of one item. States only move forward (streaming →
 * complete, running → ok), and streaming text only grows, so a stale copy never wins.
 */
export function newerItem(local: TimelineItem | undefined, incoming: TimelineItem): TimelineItem {
  if (!local || local.kind !== incoming.kind) return incoming;
  const a = itemDone(local);
  const b = itemDone(incoming);
  if (a !== b) return a ? local : incoming;
  if (
    local.kind === "message" &&
    incoming.kind === "message" &&
    !b &&
    local.text.length > incoming.text.length &&
    local.text.startsWith(incoming.text)
  ) {
    return local;
  }
  return incoming;
}

function newerTurn(local: TurnInfo | undefined, incoming: TurnInfo): TurnInfo {
  if (local && local.status !== "running" && incoming.status === "running") return local;
  return incoming;
}

/**
 * Deltas received while a snapshot was in flight: the snapshot already holds some leading part of
 * them (the part that arrived before it was taken). Append only the rest.
 */
export function appendUnseen(text: string, deltas: string[]): string {
  for (let k = deltas.length; k > 0; k--) {
    if (text.endsWith(deltas.slice(0, k).join(""))) return text + deltas.slice(k).join("");
  }
  return text + deltas.join("");
}

function applyEvent(state: TimelineState, event: SessionEvent): TimelineState {
  switch (event.type) {
    case "item":
      return { ...state, items: { ...state.items, [event.item.id]: newerItem(state.items[event.item.id], event.item) } };
    case "delta": {
      const item = state.items[event.itemId];
      if (!item || item.kind !== "message" || item.state !== "streaming") return state;
      return { ...state, items: { ...state.items, [item.id]: { ...item, text: item.text + event.text } } };
    }
    case "output": {
      const next = (state.outputs[event.itemId] ?? "") + event.chunk;
      return { ...state, outputs: { ...state.outputs, [event.itemId]: next.length > LIVE_OUTPUT_MAX_CHARS ? next.slice(-LIVE_OUTPUT_MAX_CHARS) : next } };
    }
    case "turn":
      return { ...state, turns: { ...state.turns, [event.turn.id]: newerTurn(state.turns[event.turn.id], event.turn) } };
    case "session":
      return { ...state, session: event.session };
    case "context":
      return { ...state, context: event.context };
  }
}

function applySnapshot(state: TimelineState, detail: SessionDetail, deltas: Map<string, string[]>): TimelineState {
  const items: Record<string, TimelineItem> = { ...state.items };
  for (const snap of detail.items) {
    let incoming = snap;
    const pending = deltas.get(snap.id);
    if (pending?.length && snap.kind === "message" && snap.state === "streaming") {
      incoming = { ...snap, text: appendUnseen(snap.text, pending) };
    }
    items[snap.id] = newerItem(state.items[snap.id], incoming);
  }
  const turns: Record<string, TurnInfo> = { ...state.turns };
  for (const t of detail.turns) turns[t.id] = newerTurn(state.turns[t.id], t);
  return { session: detail.session, items, turns, outputs: state.outputs, context: state.context, loaded: true };
}

export function timelineReducer(state: TimelineState, action: TimelineAction): TimelineState {
  return action.type === "event" ? applyEvent(state, action.event) : applySnapshot(state, action.detail, action.deltas);
}

export type TimelineRow = { key: string; kind: "item"; item: TimelineItem } | { key: string; kind: "turn"; turn: TurnInfo };

const ABNORMAL = new Set(["stopped", "failed", "interrupted"]);

/** Items in order, with a status row after the last item of every stopped / failed / interrupted turn. */
export function buildRows(state: TimelineState): TimelineRow[] {
  const items = Object.values(state.items).sort((a, b) => a.seq - b.seq);
  const after = new Map<number, TurnInfo[]>();
  const lastIndexOfTurn = new Map<string, number>();
  items.forEach((item, i) => item.turnId && lastIndexOfTurn.set(item.turnId, i));
  const turns = Object.values(state.turns)
    .filter((t) => ABNORMAL.has(t.status))
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  for (const turn of turns) {
    let at = lastIndexOfTurn.get(turn.id);
    if (at === undefined) {
      // A turn without items: place it by time.
      const when = turn.endedAt ?? turn.startedAt;
      at = -1;
      items.forEach((item, i) => item.createdAt <= when && (at = i));
    }
    after.set(at, [...(after.get(at) ?? []), turn]);
  }
  const rows: TimelineRow[] = [];
  for (const t of after.get(-1) ?? []) rows.push({ key: `turn:${t.id}`, kind: "turn", turn: t });
  items.forEach((item, i) => {
    rows.push({ key: item.id, kind: "item", item });
    for (const t of after.get(i) ?? []) rows.push({ key: `turn:${t.id}`, kind: "turn", turn: t });
  });
  return rows;
}

export function runningTurn(state: TimelineState): TurnInfo | undefined {
  return Object.values(state.turns).find((t) => t.status === "running");
}
