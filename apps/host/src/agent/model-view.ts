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
  /** Changes when the view is rebuilt (after a compaction or a prune); within one generation items only grow. */
  readonly generation: number;
  /** `items[0 .. settledCount)` are finished and stay as they are in later snapshots of the same generation. */
  readonly settledCount: number;
}

/** Per-session model views, kept current by reading only the items that are new or still changing. */
export interface ModelViews {
  /** The session's view, brought up to date with the database. */
  current(sessionId: string): Promise<ViewSnapshot>;
  /** Drops a session's view (deleted, or compacted: the next `current` rebuilds it from the database). */
  forget(sessionId: string): void;
  /**
   * An item this host has just appended or updated (with its turn, when the turn is new). A new item right after
   * everything the view holds, or a new state of the one unsettled item it ends with, is taken in without being
   * read back; anything else is left to the next read, which also catches what other hosts wrote.
   */
  written(sessionId: string, item: TimelineItem, turn?: Pick<TurnInfo, "id" | "mode">): void;
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

/** A view's items and messages, grown one item at a time; what is settled is converted once. */
class ViewBuilder {
  private static generations = 0;
  readonly generation = ++ViewBuilder.generations;
  readonly pruned = new Set<string>();
  /** Items after the compaction's `upToSeq`, in seq order, and whether each is shown to the model. */
  readonly raw: TimelineItem[] = [];
  private readonly shown: boolean[] = [];
  /** What the model sees, in order (the summary first). */
  readonly visible: TimelineItem[];
  /** `raw[0 .. settledRaw)` never change; they are `visible[0 .. settledVisible)`. */
  settledRaw = 0;
  private settledVisible: number;
  /** Messages of `visible[0 .. cut)`: a cut before an item that starts a new message, so the rest converts alone. */
  private cut = 0;
  private readonly prefix: ChatMessage[] = [];
  private lastCatalog = -1;
  private snap: ViewSnapshot | null = null;

  constructor(readonly compaction: FactItem | null, readonly direct: Set<string>) {
    this.visible = compaction ? [compaction] : [];
    this.settledVisible = this.visible.length; // the summary is settled
  }

  private shows(item: TimelineItem): boolean {
    if (item.kind !== "fact") return true;
    if (item.factKind === COMPACTION_FACT) return false;
    // A compaction hides the catalogs before it; the catalog hook appends the catalog again (SKL-6).
    return !(item.factKind === SKILLS_CATALOG_FACT && this.compaction && item.seq < this.compaction.seq);
  }

  append(items: readonly TimelineItem[]) {
    for (const item of items) {
      const shown = this.shows(item);
      this.raw.push(item);
      this.shown.push(shown);
      if (!shown) continue;
      if (item.kind === "fact" && item.factKind === CONTEXT_PRUNED_FACT) {
        const payload = ContextPrunedPayload.safeParse(item.payload);
        if (payload.success) for (const id of payload.data.itemIds) this.pruned.add(id);
      }
      if (item.kind === "fact" && item.factKind === SKILLS_CATALOG_FACT) this.lastCatalog = this.visible.length;
      this.visible.push(item);
    }
    this.snap = null;
  }

  /** Drops the items from the first unsettled one on (they are read again). */
  truncate() {
    if (this.raw.length === this.settledRaw) return;
    this.raw.length = this.settledRaw;
    this.shown.length = this.settledRaw;
    this.visible.length = this.settledVisible;
    if (this.lastCatalog >= this.visible.length) {
      this.lastCatalog = this.visible.findLastIndex((i) => i.kind === "fact" && i.factKind === SKILLS_CATALOG_FACT);
    }
    this.snap = null;
  }

  /** Moves the settled mark past every finished item and converts the settled part up to its last cut. */
  settle() {
    let cut = this.cut;
    while (this.settledRaw < this.raw.length && isSettled(this.raw[this.settledRaw] as TimelineItem)) {
      if (this.shown[this.settledRaw]) {
        const item = this.visible[this.settledVisible] as TimelineItem;
        if (this.startsMessage(item)) cut = this.settledVisible;
        this.settledVisible++;
      }
      this.settledRaw++;
    }
    if (cut > this.cut) {
      for (const m of viewMessages(this.visible.slice(this.cut, cut), this.shape())) this.prefix.push(m);
      this.cut = cut;
    }
  }

  /** A message, a fact the model reads or a direct call ends the message before it (see `viewMessages`). */
  private startsMessage(item: TimelineItem): boolean {
    if (item.kind === "message") return true;
    if (item.kind === "fact") return item.text !== "";
    return item.turnId !== null && this.direct.has(item.turnId);
  }

  private shape() {
    return { direct: this.direct, pruned: this.pruned };
  }

  snapshot(): ViewSnapshot {
    if (this.snap) return this.snap;
    const items = this.visible.slice();
    const shape = this.shape();
    const prefix = this.prefix.slice();
    const cut = this.cut;
    const catalog = this.lastCatalog >= 0 ? (this.visible[this.lastCatalog] as FactItem) : null;
    let messages: ChatMessage[] | null = null;
    this.snap = {
      items, shape, compaction: this.compaction, generation: this.generation, settledCount: this.settledVisible,
      messages: () => (messages ??= prefix.concat(viewMessages(items.slice(cut), shape))),
      catalog() {
        if (!catalog) return null;
        const payload = SkillsCatalogPayload.safeParse(catalog.payload);
        return { fact: catalog, digest: payload.success ? payload.data.digest : null };
      },
    };
    return this.snap;
  }
}

/** A view straight from a full timeline (tests, and callers that already hold every item). */
export function viewOfTimeline(items: readonly TimelineItem[], turns: readonly TurnInfo[]): ViewSnapshot {
  let latest: FactItem | null = null;
  for (const item of items) if (item.kind === "fact" && item.factKind === COMPACTION_FACT) latest = item;
  const compaction = compactionOf(latest);
  const builder = new ViewBuilder(compaction?.fact ?? null, new Set(turns.filter((t) => t.mode === "direct").map((t) => t.id)));
  builder.append(compaction ? items.filter((i) => i.seq > compaction.upToSeq) : items);
  builder.settle();
  return builder.snapshot();
}

interface Entry {
  builder: ViewBuilder;
  /** The seq after the last item read. */
  nextSeq: number;
  knownTurns: Set<string>;
  /** Reads of one session run one after the other. */
  busy: Promise<unknown>;
}

/** A fact that changes what earlier items look like to the model: the view is rebuilt when one arrives. */
const reshapes = (item: TimelineItem) => item.kind === "fact" && (item.factKind === COMPACTION_FACT || item.factKind === CONTEXT_PRUNED_FACT);

export function createModelViews(store: Pick<Store, "items" | "turns">): ModelViews {
  const entries = new Map<string, Entry>();

  /** The view knows a turn once it knows whether it is direct (its items are then shown as direct calls). */
  const knowTurn = (entry: Entry, turn: Pick<TurnInfo, "id" | "mode">) => {
    if (turn.mode === "direct") entry.builder.direct.add(turn.id);
    entry.knownTurns.add(turn.id);
  };

  const learnTurns = async (sessionId: string, entry: Entry, items: readonly TimelineItem[]) => {
    const unknown = new Set<string>();
    for (const item of items) if (item.turnId && !entry.knownTurns.has(item.turnId)) unknown.add(item.turnId);
    if (unknown.size === 0) return;
    for (const turn of await store.turns.byIds(sessionId, [...unknown])) knowTurn(entry, turn);
    // An id with no turn row (deleted meanwhile) is not asked for again.
    for (const id of unknown) entry.knownTurns.add(id);
  };

  const build = async (sessionId: string): Promise<Entry> => {
    const compaction = compactionOf(await store.items.lastFact(sessionId, COMPACTION_FACT));
    const raw = await store.items.since(sessionId, (compaction?.upToSeq ?? 0) + 1);
    const entry: Entry = {
      builder: new ViewBuilder(compaction?.fact ?? null, new Set()),
      nextSeq: (raw.at(-1)?.seq ?? compaction?.upToSeq ?? 0) + 1, knownTurns: new Set(), busy: Promise.resolve(),
    };
    await learnTurns(sessionId, entry, raw);
    entry.builder.append(raw);
    entry.builder.settle();
    return entry;
  };

  /** Reads the items from the first unsettled one on; returns false when a compaction or a prune asks for a rebuild. */
  const refresh = async (sessionId: string, entry: Entry): Promise<boolean> => {
    const { builder } = entry;
    const unsettled = builder.raw[builder.settledRaw];
    // Everything read is settled: one row says whether anything was appended since (here or on another host).
    if (!unsettled && (await store.items.lastSeq(sessionId)) < entry.nextSeq) return true;
    const fresh = await store.items.since(sessionId, unsettled ? unsettled.seq : entry.nextSeq);
    const known = new Set(builder.raw.slice(builder.settledRaw).map((i) => i.id));
    if (fresh.some((i) => reshapes(i) && !known.has(i.id))) return false;
    if (!unsettled && fresh.length === 0) return true;
    await learnTurns(sessionId, entry, fresh);
    builder.truncate();
    builder.append(fresh);
    entry.nextSeq = Math.max(entry.nextSeq, (fresh.at(-1)?.seq ?? 0) + 1);
    builder.settle();
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
        return built.builder.snapshot();
      }
    }
    touch(sessionId, entry);
    const target = entry;
    const run = target.busy.then(async (): Promise<ViewSnapshot> => {
      if (entries.get(sessionId) !== target) return current(sessionId);
      if (await refresh(sessionId, target)) return target.builder.snapshot();
      entries.delete(sessionId);
      return current(sessionId);
    });
    target.busy = run.catch(() => {});
    return run;
  };

  const written = (sessionId: string, item: TimelineItem, turn?: Pick<TurnInfo, "id" | "mode">) => {
    const entry = entries.get(sessionId);
    if (!entry) return;
    // After any read already queued: that read may have taken the item in already (its seq is then behind).
    entry.busy = entry.busy.then(() => {
      const { builder } = entry;
      if (entries.get(sessionId) !== entry || reshapes(item)) return;
      if (turn && item.turnId === turn.id) knowTurn(entry, turn);
      if (item.turnId && !entry.knownTurns.has(item.turnId)) return;
      const unsettled = builder.raw.length - builder.settledRaw;
      if (unsettled === 0 && item.seq === entry.nextSeq) {
        builder.append([item]);
        entry.nextSeq = item.seq + 1;
      } else if (unsettled === 1 && builder.raw.at(-1)?.id === item.id && item.seq === entry.nextSeq - 1) {
        builder.truncate();
        builder.append([item]);
      } else return;
      builder.settle();
    }).catch(() => {});
  };

  return {
    current,
    written,
    forget(sessionId) {
      entries.delete(sessionId);
    },
  };
}
