import {
  COMPACTION_FACT, CompactionPayload, CONTEXT_PRUNED_FACT, ContextPrunedPayload, SKILLS_CATALOG_FACT, SkillsCatalogPayload,
  type FactItem, type TimelineItem, type TurnInfo,
} from "@seam/shared";
import type { ChatMessage } from "../llm/llm.js";
import type { Store } from "../persistence/store.js";
import { viewMessages, type HistoryShape } from "./history.js";

/** What the model sees of a session's history at one moment (CTX-4). */
export interface ViewSnapshot {
  /** In the model's order: the latest compaction's summary first (if any), then every later item the model is shown. */
  readonly items: readonly TimelineItem[];
  readonly shape: Required<HistoryShape>;
  /** The latest compaction fact, if any (its text is `items[0]`). */
  readonly compaction: FactItem | null;
  /** The chat messages of `items` (computed once per snapshot). */
  messages(): ChatMessage[];
  /** The skills catalog the model currently sees, with its digest (SKL-6), or null. */
  catalog(): { fact: FactItem; digest: string | null } | null;
}

/** Per-session model views, kept current by reading only the items that are new or still changing. */
export interface ModelViews {
  /** The session's view, brought up to date with the database. */
  current(sessionId: string): Promise<ViewSnapshot>;
  /** Drops a session's view (deleted, or compacted: the next `current` rebuilds it from the database). */
  forget(sessionId: string): void;
}

/** Sessions whose views are kept; the least recently used one is dropped beyond this. */
export const VIEWS_MAX = 64;

/** A finished item never changes; a streaming message or a running call may. */
export const isSettled = (item: TimelineItem) =>
  item.kind === "fact" || (item.kind === "message" ? item.state !== "streaming" : item.status !== "running");

const compactionOf = (fact: FactItem | null): { fact: FactItem; upToSeq: number } | null => {
  if (!fact) return null;
  const payload = CompactionPayload.safeParse(fact.payload);
  return payload.success ? { fact, upToSeq: payload.data.upToSeq } : null;
};

/**
 * The model's view of `raw` — every item after the latest compaction's `upToSeq`, in seq order. The
 * summary goes first; older compaction facts and catalogs the compaction hid are left out (the catalog hook
 * appends the catalog again); pruned tool results become stubs.
 */
export function snapshotOf(raw: readonly TimelineItem[], compaction: FactItem | null, direct: ReadonlySet<string>): ViewSnapshot {
  const pruned = new Set<string>();
  const items: TimelineItem[] = compaction ? [compaction] : [];
  for (const item of raw) {
    if (item.kind === "fact") {
      if (item.factKind === COMPACTION_FACT) continue;
      if (item.factKind === SKILLS_CATALOG_FACT && compaction && item.seq < compaction.seq) continue;
      if (item.factKind === CONTEXT_PRUNED_FACT) {
        const payload = ContextPrunedPayload.safeParse(item.payload);
        if (payload.success) for (const id of payload.data.itemIds) pruned.add(id);
      }
    }
    items.push(item);
  }
  const shape = { direct, pruned };
  let messages: ChatMessage[] | null = null;
  return {
    items, shape, compaction,
    messages: () => (messages ??= viewMessages(items, shape)),
    catalog() {
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i];
        if (item?.kind !== "fact" || item.factKind !== SKILLS_CATALOG_FACT) continue;
        const payload = SkillsCatalogPayload.safeParse(item.payload);
        return { fact: item, digest: payload.success ? payload.data.digest : null };
      }
      return null;
    },
  };
}

/** A view straight from a full timeline (tests, and callers that already hold every item). */
export function viewOfTimeline(items: readonly TimelineItem[], turns: readonly TurnInfo[]): ViewSnapshot {
  let latest: FactItem | null = null;
  for (const item of items) if (item.kind === "fact" && item.factKind === COMPACTION_FACT) latest = item;
  const compaction = compactionOf(latest);
  const raw = compaction ? items.filter((i) => i.seq > compaction.upToSeq) : items;
  return snapshotOf(raw, compaction?.fact ?? null, new Set(turns.filter((t) => t.mode === "direct").map((t) => t.id)));
}

interface Entry {
  compaction: FactItem | null;
  /** Items after the compaction's `upToSeq`, in seq order. */
  raw: TimelineItem[];
  /** `raw[0 .. settled)` never change: a later read starts at `raw[settled]`. */
  settled: number;
  /** The seq after the last item read. */
  nextSeq: number;
  knownTurns: Set<string>;
  direct: Set<string>;
  snapshot: ViewSnapshot;
  /** Reads of one session run one after the other. */
  busy: Promise<unknown>;
}

export function createModelViews(store: Pick<Store, "items" | "turns">): ModelViews {
  const entries = new Map<string, Entry>();

  const learnTurns = async (sessionId: string, entry: Pick<Entry, "knownTurns" | "direct">, items: readonly TimelineItem[]) => {
    const unknown = new Set<string>();
    for (const item of items) if (item.turnId && !entry.knownTurns.has(item.turnId)) unknown.add(item.turnId);
    if (unknown.size === 0) return;
    for (const turn of await store.turns.byIds(sessionId, [...unknown])) if (turn.mode === "direct") entry.direct.add(turn.id);
    for (const id of unknown) entry.knownTurns.add(id);
  };

  const settle = (entry: Entry) => {
    while (entry.settled < entry.raw.length && isSettled(entry.raw[entry.settled] as TimelineItem)) entry.settled++;
  };

  const build = async (sessionId: string): Promise<Entry> => {
    const compaction = compactionOf(await store.items.lastFact(sessionId, COMPACTION_FACT));
    const raw = await store.items.since(sessionId, (compaction?.upToSeq ?? 0) + 1);
    const entry: Entry = {
      compaction: compaction?.fact ?? null, raw, settled: 0, nextSeq: (raw.at(-1)?.seq ?? compaction?.upToSeq ?? 0) + 1,
      knownTurns: new Set(), direct: new Set(), snapshot: snapshotOf([], null, new Set()), busy: Promise.resolve(),
    };
    await learnTurns(sessionId, entry, raw);
    settle(entry);
    entry.snapshot = snapshotOf(entry.raw, entry.compaction, entry.direct);
    return entry;
  };

  /** Reads the items from the first unsettled one on; returns false when a new compaction asks for a rebuild. */
  const refresh = async (sessionId: string, entry: Entry): Promise<boolean> => {
    const from = entry.settled < entry.raw.length ? (entry.raw[entry.settled] as TimelineItem).seq : entry.nextSeq;
    const fresh = await store.items.since(sessionId, from);
    if (fresh.some((i) => i.kind === "fact" && i.factKind === COMPACTION_FACT && (!entry.compaction || i.seq > entry.compaction.seq))) return false;
    const unchanged = entry.settled === entry.raw.length && fresh.length === 0;
    if (unchanged) return true;
    await learnTurns(sessionId, entry, fresh);
    entry.raw.length = entry.settled;
    for (const item of fresh) entry.raw.push(item);
    entry.nextSeq = Math.max(entry.nextSeq, (fresh.at(-1)?.seq ?? 0) + 1);
    settle(entry);
    entry.snapshot = snapshotOf(entry.raw, entry.compaction, entry.direct);
    return true;
  };

  const touch = (sessionId: string, entry: Entry) => {
    entries.delete(sessionId); // re-inserted: Map order is the LRU order
    entries.set(sessionId, entry);
    if (entries.size > VIEWS_MAX) entries.delete(entries.keys().next().value as string);
  };

  const current = async (sessionId: string): Promise<ViewSnapshot> => {
    let entry = entries.get(sessionId);
    if (!entry) {
      const built = await build(sessionId);
      // Another caller may have built it meanwhile; keep the first so reads stay serialized on one entry.
      entry = entries.get(sessionId);
      if (!entry) {
        touch(sessionId, built);
        return built.snapshot;
      }
    }
    touch(sessionId, entry);
    const target = entry;
    const run = target.busy.then(async (): Promise<ViewSnapshot> => {
      if (entries.get(sessionId) !== target) return current(sessionId);
      if (await refresh(sessionId, target)) return target.snapshot;
      entries.delete(sessionId);
      return current(sessionId);
    });
    target.busy = run.catch(() => {});
    return run;
  };

  return {
    current,
    forget(sessionId) {
      entries.delete(sessionId);
    },
  };
}
