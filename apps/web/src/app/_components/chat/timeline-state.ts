import type { ContextUsage, ItemPage, SessionDetail, SessionEvent, SessionInfo, TimelineItem, ToolProgress, TurnInfo } from "@seam/shared";

/**
 * The run of consecutive items the timeline shows (CTX-4): pages are loaded around it and it grows as they
 * arrive. `fromSeq`: the first shown seq (0 when nothing is older); `toSeq`: the last one, Infinity while
 * the window reaches the latest item and live items join it. Items outside it (a live item while the user
 * reads an old window, a page that arrived for a window since left) are kept but not shown, so the
 * shown run never has a gap.
 */
export interface TimelineWindow { fromSeq: number; toSeq: number }

/** Local copy of one session's timeline: `session.get`'s latest page, older/newer pages, and the live `session:<id>` events. */
export interface TimelineState {
  session: SessionInfo | null;
  items: Record<string, TimelineItem>;
  turns: Record<string, TurnInfo>;
  /** Live output of running tool calls by item id (a command's tail), bounded; the finished result replaces it. */
  outputs: Record<string, string>;
  /** The latest progress report of running tool calls by item id (MCP-12); optional so older snapshots need no change. */
  progress?: Record<string, ToolProgress>;
  /** The size of the next model request as the host last measured it (CTX-1), or null before the first reading. */
  context: ContextUsage | null;
  loaded: boolean;
  /** What is shown; null before the first page (every item shows). */
  window: TimelineWindow | null;
}

export const emptyTimeline: TimelineState = { session: null, items: {}, turns: {}, outputs: {}, context: null, loaded: false, window: null };

/** How much live output one card keeps while its call runs (the tail; the result holds the rest). */
export const LIVE_OUTPUT_MAX_CHARS = 256 * 1024;

export type TimelineAction =
  | { type: "event"; event: SessionEvent }
  /** `session.get`: the latest page. `reset` moves the window to it (back to the latest from an old window). */
  | { type: "snapshot"; detail: SessionDetail; deltas: Map<string, string[]>; reset?: boolean }
  /** A page before `beforeSeq` (older) or after `afterSeq` (newer), as requested from the window's edge. */
  | { type: "older"; beforeSeq: number; page: ItemPage }
  | { type: "newer"; afterSeq: number; page: ItemPage }
  /** The window around one item (`?item=`): it replaces the window. */
  | { type: "around"; page: ItemPage };

/** The window's edges: more items before (`hasOlder`) / after (`hasNewer`) what is shown. */
export const hasOlder = (w: TimelineWindow | null) => w !== null && w.fromSeq > 0;
export const hasNewer = (w: TimelineWindow | null) => w !== null && w.toSeq !== Infinity;

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
    case "progress":
      return { ...state, progress: { ...state.progress, [event.itemId]: { progress: event.progress, total: event.total, message: event.message } } };
    case "turn":
      return { ...state, turns: { ...state.turns, [event.turn.id]: newerTurn(state.turns[event.turn.id], event.turn) } };
    case "session":
      return { ...state, session: event.session };
    case "context":
      return { ...state, context: event.context };
  }
}

function mergeItems(state: TimelineState, items: readonly TimelineItem[], deltas?: Map<string, string[]>) {
  const merged: Record<string, TimelineItem> = { ...state.items };
  for (const snap of items) {
    let incoming = snap;
    const pending = deltas?.get(snap.id);
    if (pending?.length && snap.kind === "message" && snap.state === "streaming") {
      incoming = { ...snap, text: appendUnseen(snap.text, pending) };
    }
    merged[snap.id] = newerItem(state.items[snap.id], incoming);
  }
  return merged;
}

function mergeTurns(state: TimelineState, turns: readonly (TurnInfo | null)[]) {
  const merged: Record<string, TurnInfo> = { ...state.turns };
  for (const t of turns) if (t) merged[t.id] = newerTurn(state.turns[t.id], t);
  return merged;
}

/** The window a page spans on its own. */
const windowOf = (page: ItemPage): TimelineWindow => ({
  fromSeq: page.hasOlder && page.items.length > 0 ? page.items[0]!.seq : 0,
  toSeq: page.hasNewer && page.items.length > 0 ? page.items.at(-1)!.seq : Infinity,
});

/** The highest seq shown in the window, or -1. */
function lastShownSeq(state: TimelineState, w: TimelineWindow) {
  let max = -1;
  for (const item of Object.values(state.items)) if (item.seq >= w.fromSeq && item.seq <= w.toSeq && item.seq > max) max = item.seq;
  return max;
}

function applySnapshot(state: TimelineState, action: Extract<TimelineAction, { type: "snapshot" }>): TimelineState {
  const { detail } = action;
  const latest = windowOf(detail);
  let window = state.window;
  if (window === null || action.reset) {
    window = latest;
  } else if (!hasNewer(window) && latest.fromSeq > lastShownSeq(state, window) + 1) {
    // A resync after a long disconnection: the latest page does not join what is shown, so it starts over there.
    window = latest;
  }
  return {
    ...state,
    session: detail.session,
    items: mergeItems(state, detail.items, action.deltas),
    turns: mergeTurns(state, [...detail.turns, detail.lastTurn]),
    loaded: true,
    window,
  };
}

function applyPage(state: TimelineState, action: Extract<TimelineAction, { type: "older" | "newer" | "around" }>): TimelineState {
  const w = state.window;
  const span = windowOf(action.page);
  let window: TimelineWindow;
  if (action.type === "around") window = span;
  // A page asked for from an edge the window has since left (a jump, a reset) does not join it: dropped.
  else if (w === null) return state;
  else if (action.type === "older") {
    if (action.beforeSeq !== w.fromSeq) return state;
    window = { ...w, fromSeq: span.fromSeq };
  } else {
    if (action.afterSeq !== w.toSeq) return state;
    window = { ...w, toSeq: span.toSeq };
  }
  return { ...state, items: mergeItems(state, action.page.items), turns: mergeTurns(state, action.page.turns), window };
}

export function timelineReducer(state: TimelineState, action: TimelineAction): TimelineState {
  switch (action.type) {
    case "event":
      return applyEvent(state, action.event);
    case "snapshot":
      return applySnapshot(state, action);
    default:
      return applyPage(state, action);
  }
}

export type TimelineRow = { key: string; kind: "item"; item: TimelineItem } | { key: string; kind: "turn"; turn: TurnInfo };

const ABNORMAL = new Set(["stopped", "failed", "interrupted"]);

/**
 * The window's items in order, with a status row after the last item of every stopped / failed /
 * interrupted turn. A turn without items is placed by time, and only when that falls inside the window.
 */
export function buildRows(state: TimelineState): TimelineRow[] {
  const w = state.window ?? { fromSeq: 0, toSeq: Infinity };
  const items = Object.values(state.items)
    .filter((item) => item.seq >= w.fromSeq && item.seq <= w.toSeq)
    .sort((a, b) => a.seq - b.seq);
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
      if ((at === -1 && hasOlder(w)) || (at === items.length - 1 && hasNewer(w))) continue;
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
