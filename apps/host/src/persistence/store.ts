import { messageFor } from "@seam/shared";
import type { FactItem, MessageItem, SearchHit, TimelineItem, ToolCallItem, TurnInfo, TurnStatus } from "@seam/shared";
import { HostError, isCapability, type Capability } from "../core/errors.js";
import type { Prisma, PrismaClient } from "../generated/prisma/client.js";
import { toHostError, toJson, fromJson } from "./errors.js";
import { writeHistory, type HistoryInput } from "./history-copy.js";
import type { Provider } from "./provider.js";
import { sqliteSearch, type SearchOptions } from "./search.js";
import { postgresSearch } from "./search-pg.js";
import { factItem, messageItem, sessionRow, toolCallItem, turnInfo, type SessionRow } from "./rows.js";

export type { SessionRow } from "./rows.js";
export type { HistoryInput } from "./history-copy.js";
export type { SearchOptions } from "./search.js";

/** The durable history the agent loop and the routers use (CORE-13, CORE-16). No Prisma types cross it. */
export interface Store {
  sessions: {
    create(input: { title: string; workspace: string }): Promise<SessionRow>;
    /** Most recently updated first. */
    list(): Promise<SessionRow[]>;
    get(id: string): Promise<SessionRow | null>;
    rename(id: string, title: string): Promise<SessionRow>;
    /** Sets the session's permission mode; null follows the default mode. */
    setMode(id: string, mode: SessionRow["mode"]): Promise<SessionRow>;
    /** Deletes the session with its turns and items. */
    remove(id: string): Promise<void>;
    touch(id: string): Promise<void>;
    /** A new session with a whole history (a fork's prefix, an imported export) in one transaction: all of it or nothing (CTX-5). */
    createWithHistory(input: HistoryInput): Promise<SessionRow>;
  };
  turns: {
    create(sessionId: string, mode: "model" | "direct"): Promise<TurnInfo>;
    /** A new running turn with the user's message that starts it, in one transaction: both or neither. */
    start(sessionId: string, mode: "model" | "direct", text: string): Promise<{ turn: TurnInfo; message: MessageItem }>;
    finish(id: string, result: { status: TurnStatus; reason?: string | null; steps?: number; usage?: { inputTokens?: number; outputTokens?: number } }): Promise<TurnInfo>;
    /** Oldest first. */
    list(sessionId: string): Promise<TurnInfo[]>;
    setSteps(id: string, steps: number): Promise<void>;
    /** The turns of the session among `ids` (the turns a page of items belongs to), oldest first; unknown ids are left out. */
    byIds(sessionId: string, ids: readonly string[]): Promise<TurnInfo[]>;
    /** The session's most recently started turn (the running one, if any runs), or null. */
    last(sessionId: string): Promise<TurnInfo | null>;
    /** The session's most recent finished turn of `mode`, or null (CTX-1: the meter's last reported input after a restart). */
    lastEnded(sessionId: string, mode: "model" | "direct"): Promise<TurnInfo | null>;
  };
  /** Items share one monotonic `seq` per session, so the timeline and the model's history are the same list. */
  items: {
    appendMessage(sessionId: string, m: { turnId: string | null; role: "user" | "assistant"; text: string; state: MessageItem["state"] }): Promise<MessageItem>;
    updateMessage(id: string, m: { text: string; state: MessageItem["state"] }): Promise<MessageItem>;
    /** Recorded with status "running". */
    appendToolCall(sessionId: string, c: { turnId: string | null; callId: string; name: string; args: unknown; startedAt: Date }): Promise<ToolCallItem>;
    finishToolCall(id: string, r: { status: "ok" | "error" | "cancelled"; canonical: unknown; rendered: string; error: { code: string; message: string } | null; endedAt: Date }): Promise<ToolCallItem>;
    appendFact(sessionId: string, f: { turnId: string | null; factKind: string; text: string; payload: unknown }): Promise<FactItem>;
    /** Messages, tool calls and facts merged, ordered by seq. */
    list(sessionId: string): Promise<TimelineItem[]>;
    /** Items with `seq >= fromSeq`, ordered by seq (indexed on (sessionId, seq); CTX-4: the model view's delta). */
    since(sessionId: string, fromSeq: number): Promise<TimelineItem[]>;
    /** The session's latest fact of a kind, or null (CTX-2: the compaction the model view starts from). */
    lastFact(sessionId: string, factKind: string): Promise<FactItem | null>;
    /**
     * The seq of the session's latest item (0 for none or no such session): one indexed row, bumped in the same
     * transaction as every append on any host, so the model view knows without reading items that none is new.
     */
    lastSeq(sessionId: string): Promise<number>;
    /**
     * Up to `limit` consecutive items ordered by seq (CTX-4): those right before `beforeSeq`, right after
     * `afterSeq`, or with neither the latest. `more`: further items exist beyond the page in that direction.
     * Reads at most `limit + 1` rows of each item table through the (sessionId, seq) index, whatever the length.
     */
    page(sessionId: string, q: { beforeSeq?: number; afterSeq?: number; limit: number }): Promise<{ items: TimelineItem[]; more: boolean }>;
    /** The seq of item `itemId` of the session, or null when the session has no such item. */
    seqOf(sessionId: string, itemId: string): Promise<number | null>;
  };
  /** Key → JSON value. Never secrets. `set(key, undefined)` deletes the key. */
  settings: {
    get(key: string): Promise<unknown | undefined>;
    set(key: string, value: unknown): Promise<void>;
  };
  /**
   * Full-text search over every session's settled messages and tool calls (CTX-5): best match first,
   * then the most recent. The query is plain words (never search syntax); `[]` when it has none.
   */
  search(query: string, opts: SearchOptions): Promise<SearchHit[]>;
  /**
   * At host start: turns still "running" → "interrupted" (reason "host restarted during the turn"),
   * streaming messages → "interrupted", running tool calls → "cancelled" with error {code:"interrupted"}.
   * With `sessionId`, only that session's (a session taken over from a host that died, SCALE-2), with
   * the reason `reason` (default the restart's).
   */
  recoverInterrupted(opts?: { sessionId?: string; reason?: string }): Promise<{ turns: number; messages: number; toolCalls: number }>;
  /**
   * The host's warm-up (#17 item 2): runs the writes of a turn (a session, its turn and step count, a fact such
   * as the skill catalog, a message written and updated, the turn's end) in one transaction that is rolled back, so Prisma has planned those queries
   * before the first real turn. Nothing is written.
   */
  warmWrites(): Promise<void>;
}

type Tx = Prisma.TransactionClient;

/** Ids bound in one `IN (…)` query: under SQLite's 999 bound values (Prisma's limit there), with room for the rest of the query. */
const IDS_PER_QUERY = 500;

/** Settings are keyed by the capability that owns them ("lsp", "web", "model" for the llm); any other key, the db. */
const settingOwner = (key: string): Capability => (key === "model" ? "llm" : isCapability(key) ? key : "db");

export const INTERRUPTED_REASON = "host restarted during the turn";
/** The reason of a turn whose host stopped answering and whose session another host took over (SCALE-2). */
export const TAKEN_OVER_REASON = "the host running the turn stopped answering; another host took the session over";
const TX_OPTIONS = { maxWait: 10_000, timeout: 30_000 };

/**
 * The better-sqlite3 adapter has one connection, and any statement issued while an interactive
 * transaction is open runs inside it: it sees uncommitted rows and is rolled back with it (a
 * concurrent `session.create` "succeeded" and vanished). Every store call therefore passes through
 * one FIFO gate, so calls never interleave on the connection. Closing waits for queued calls.
 */
export interface Gate {
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Rejects later calls with `closed:db`; resolves when the calls already queued have finished. */
  close(): Promise<void>;
}

export function createGate(): Gate {
  let tail: Promise<unknown> = Promise.resolve();
  let closed = false;
  return {
    run(fn) {
      if (closed) return Promise.reject(new HostError("closed:db", messageFor("closed:db")));
      const run = tail.then(fn, fn);
      tail = run.catch(() => {});
      return run;
    },
    async close() {
      closed = true;
      await tail;
    },
  };
}

export function createStore(prisma: PrismaClient, opts: { gate?: Gate; now?: () => Date; provider?: Provider } = {}): Store {
  const now = opts.now ?? (() => new Date());
  const gate = opts.gate ?? createGate();
  /** One store call through the gate; `capability` owns the records (sessions, turns and items: the session). */
  const op = <T>(what: string, fn: () => Promise<T>, capability: Capability = "session"): Promise<T> =>
    gate.run(async () => {
      try {
        return await fn();
      } catch (error) {
        throw toHostError(error, { capability, what });
      }
    });
  const tx = <T>(fn: (tx: Tx) => Promise<T>) => prisma.$transaction(fn, TX_OPTIONS);

  /** Next item seq of the session; also bumps its updatedAt. Must run inside the inserting transaction. */
  const nextSeq = async (t: Tx, sessionId: string, at: Date) => {
    const s = await t.session.update({ where: { id: sessionId }, data: { lastSeq: { increment: 1 }, updatedAt: at }, select: { lastSeq: true } });
    return s.lastSeq;
  };
  const requireSession = async (id: string) => {
    const s = await prisma.session.findUnique({ where: { id }, select: { id: true } });
    if (!s) throw new HostError("not_found:session", `session ${id} not found`, { id });
  };

  // The writes of a turn, shared by the store's calls and `warmWrites` (the same query shapes).
  type Writer = Tx | PrismaClient;
  const insertTurn = async (t: Tx, sessionId: string, mode: TurnInfo["mode"], at: Date) => {
    await t.session.update({ where: { id: sessionId }, data: { updatedAt: at }, select: { id: true } });
    return t.turn.create({ data: { sessionId, mode, status: "running", startedAt: at } });
  };
  const insertMessage = async (t: Tx, sessionId: string, m: Parameters<Store["items"]["appendMessage"]>[1], at: Date) =>
    createMessage(t, sessionId, m, await nextSeq(t, sessionId, at), at);
  const createMessage = (t: Tx, sessionId: string, m: Parameters<Store["items"]["appendMessage"]>[1], seq: number, at: Date) =>
    t.message.create({ data: { sessionId, turnId: m.turnId, seq, role: m.role, text: m.text, state: m.state, createdAt: at } });
  /** A turn and its user message: the seq bump also bumps the session's updatedAt, so the turn needs no update of its own. */
  const insertStart = async (t: Tx, sessionId: string, mode: TurnInfo["mode"], text: string, at: Date) => {
    const seq = await nextSeq(t, sessionId, at);
    const turn = await t.turn.create({ data: { sessionId, mode, status: "running", startedAt: at } });
    const message = await createMessage(t, sessionId, { turnId: turn.id, role: "user", text, state: "complete" }, seq, at);
    return { turn, message };
  };
  const insertFact = async (t: Tx, sessionId: string, f: Parameters<Store["items"]["appendFact"]>[1], at: Date) => {
    const payloadJson = f.payload === undefined ? null : toJson(f.payload, "fact payload");
    const seq = await nextSeq(t, sessionId, at);
    return t.fact.create({ data: { sessionId, turnId: f.turnId, seq, kind: f.factKind, text: f.text, payloadJson, createdAt: at } });
  };
  const writeSteps = (c: Writer, id: string, steps: number) => c.turn.update({ where: { id }, data: { steps } });
  const writeMessage = (c: Writer, id: string, m: Parameters<Store["items"]["updateMessage"]>[1]) =>
    c.message.update({ where: { id }, data: { text: m.text, state: m.state } });
  const endTurn = (c: Writer, id: string, r: Parameters<Store["turns"]["finish"]>[1]) => c.turn.updateMany({
    where: { id, status: "running" },
    data: {
      status: r.status,
      reason: r.reason ?? null,
      endedAt: now(),
      ...(r.steps !== undefined && { steps: r.steps }),
      ...(r.usage?.inputTokens !== undefined && { inputTokens: r.usage.inputTokens }),
      ...(r.usage?.outputTokens !== undefined && { outputTokens: r.usage.outputTokens }),
    },
  });

  const sessions: Store["sessions"] = {
    create: (i) => op("session", async () => sessionRow(await prisma.session.create({ data: { title: i.title, workspace: i.workspace } }))),
    list: () => op("sessions", async () => (await prisma.session.findMany({ orderBy: [{ updatedAt: "desc" }, { id: "desc" }] })).map(sessionRow)),
    get: (id) => op(`session ${id}`, async () => {
      const s = await prisma.session.findUnique({ where: { id } });
      return s ? sessionRow(s) : null;
    }),
    rename: (id, title) => op(`session ${id}`, async () => sessionRow(await prisma.session.update({ where: { id }, data: { title } }))),
    setMode: (id, mode) => op(`session ${id}`, async () => sessionRow(await prisma.session.update({ where: { id }, data: { mode } }))),
    remove: (id) => op(`session ${id}`, async () => { await prisma.session.delete({ where: { id } }); }),
    touch: (id) => op(`session ${id}`, async () => { await prisma.session.update({ where: { id }, data: { updatedAt: now() } }); }),
    createWithHistory: (h) => op("session", () => tx((t) => writeHistory(t, h))),
  };

  const turns: Store["turns"] = {
    create: (sessionId, mode) => op(`session ${sessionId}`, async () => {
      const at = now();
      return turnInfo(await tx((t) => insertTurn(t, sessionId, mode, at)));
    }),
    start: (sessionId, mode, text) => op(`session ${sessionId}`, async () => {
      const at = now();
      const { turn, message } = await tx((t) => insertStart(t, sessionId, mode, text, at));
      return { turn: turnInfo(turn), message: messageItem(message) };
    }),
    finish: (id, r) => op(`turn ${id}`, async () => {
      if (r.status === "running") throw new HostError("bad_input:session", "a turn cannot finish as running");
      // Only a running turn ends here: one another host already marked interrupted (it took the session
      // over, SCALE-2) keeps that end, and the late finisher gets the turn as recorded.
      await endTurn(prisma, id, r);
      const t = await prisma.turn.findUnique({ where: { id } });
      if (!t) throw new HostError("not_found:session", `turn ${id} not found`);
      return turnInfo(t);
    }),
    list: (sessionId) => op(`session ${sessionId}`, async () => {
      await requireSession(sessionId);
      const rows = await prisma.turn.findMany({ where: { sessionId }, orderBy: [{ startedAt: "asc" }, { id: "asc" }] });
      return rows.map(turnInfo);
    }),
    setSteps: (id, steps) => op(`turn ${id}`, async () => { await writeSteps(prisma, id, steps); }),
    byIds: (sessionId, ids) => op(`session ${sessionId}`, async () => {
      const unique = [...new Set(ids)];
      // In slices: one query may bind at most 999 values on SQLite (Prisma's limit), and a long session's view asks for more turns.
      const rows = [];
      for (let i = 0; i < unique.length; i += IDS_PER_QUERY) {
        rows.push(...await prisma.turn.findMany({ where: { sessionId, id: { in: unique.slice(i, i + IDS_PER_QUERY) } } }));
      }
      rows.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return rows.map(turnInfo);
    }),
    lastEnded: (sessionId, mode) => op(`session ${sessionId}`, async () => {
      const row = await prisma.turn.findFirst({ where: { sessionId, mode, status: { not: "running" } }, orderBy: [{ startedAt: "desc" }, { id: "desc" }] });
      return row ? turnInfo(row) : null;
    }),
    last: (sessionId) => op(`session ${sessionId}`, async () => {
      const row = await prisma.turn.findFirst({ where: { sessionId }, orderBy: [{ startedAt: "desc" }, { id: "desc" }] });
      return row ? turnInfo(row) : null;
    }),
  };

  /** A session's messages, tool calls and facts matching `where`, merged in seq order (each read through the (sessionId, seq) index). */
  const itemsInOrder = async (where: { sessionId: string; seq?: { gte: number } }): Promise<TimelineItem[]> => {
    const orderBy = { seq: "asc" } as const;
    const [messages, calls, facts] = [
      await prisma.message.findMany({ where, orderBy }),
      await prisma.toolCall.findMany({ where, orderBy }),
      await prisma.fact.findMany({ where, orderBy }),
    ];
    const all: TimelineItem[] = [...messages.map(messageItem), ...calls.map(toolCallItem), ...facts.map(factItem)];
    return all.sort((a, b) => a.seq - b.seq);
  };

  const items: Store["items"] = {
    appendMessage: (sessionId, m) => op(`session ${sessionId}`, async () => {
      const at = now();
      return messageItem(await tx((t) => insertMessage(t, sessionId, m, at)));
    }),
    updateMessage: (id, m) => op(`message ${id}`, async () =>
      messageItem(await writeMessage(prisma, id, m)),
    ),
    appendToolCall: (sessionId, c) => op(`session ${sessionId}`, async () => {
      const argsJson = toJson(c.args, "tool call arguments");
      return toolCallItem(await tx(async (t) => {
        const seq = await nextSeq(t, sessionId, now());
        return t.toolCall.create({
          data: { sessionId, turnId: c.turnId, seq, callId: c.callId, name: c.name, argsJson, status: "running", startedAt: c.startedAt },
        });
      }));
    }),
    finishToolCall: (id, r) => op(`tool call ${id}`, async () => {
      const canonicalJson = r.canonical === undefined ? null : toJson(r.canonical, "tool result");
      const row = await prisma.toolCall.update({
        where: { id },
        data: {
          status: r.status,
          canonicalJson,
          rendered: r.rendered,
          errorCode: r.error?.code ?? null,
          errorMessage: r.error?.message ?? null,
          endedAt: r.endedAt,
        },
      });
      return toolCallItem(row);
    }),
    appendFact: (sessionId, f) => op(`session ${sessionId}`, async () => {
      const at = now();
      return factItem(await tx((t) => insertFact(t, sessionId, f, at)));
    }),
    list: (sessionId) => op(`session ${sessionId}`, async () => {
      await requireSession(sessionId);
      return itemsInOrder({ sessionId });
    }),
    page: (sessionId, q) => op(`session ${sessionId}`, async () => {
      await requireSession(sessionId);
      // Each table's nearest `limit + 1` rows in the direction of travel; merged, the nearest `limit` are the page.
      const older = q.afterSeq === undefined;
      const seq = q.afterSeq !== undefined ? { gt: q.afterSeq } : q.beforeSeq !== undefined ? { lt: q.beforeSeq } : undefined;
      const args = { where: { sessionId, ...(seq && { seq }) }, orderBy: { seq: older ? "desc" : "asc" } as const, take: q.limit + 1 };
      const [messages, calls, facts] = [await prisma.message.findMany(args), await prisma.toolCall.findMany(args), await prisma.fact.findMany(args)];
      const all: TimelineItem[] = [...messages.map(messageItem), ...calls.map(toolCallItem), ...facts.map(factItem)];
      all.sort((a, b) => (older ? b.seq - a.seq : a.seq - b.seq));
      const items = all.slice(0, q.limit);
      if (older) items.reverse();
      return { items, more: all.length > q.limit };
    }),
    seqOf: (sessionId, itemId) => op(`session ${sessionId}`, async () => {
      const where = { id: itemId, sessionId };
      const select = { seq: true } as const;
      const found =
        (await prisma.message.findFirst({ where, select })) ??
        (await prisma.toolCall.findFirst({ where, select })) ??
        (await prisma.fact.findFirst({ where, select }));
      return found?.seq ?? null;
    }),
    since: (sessionId, fromSeq) => op(`session ${sessionId}`, () => itemsInOrder({ sessionId, seq: { gte: fromSeq } })),
    lastFact: (sessionId, factKind) => op(`session ${sessionId}`, async () => {
      const row = await prisma.fact.findFirst({ where: { sessionId, kind: factKind }, orderBy: { seq: "desc" } });
      return row ? factItem(row) : null;
    }),
    lastSeq: (sessionId) => op(`session ${sessionId}`, async () =>
      (await prisma.session.findUnique({ where: { id: sessionId }, select: { lastSeq: true } }))?.lastSeq ?? 0),
  };

  const settings: Store["settings"] = {
    get: (key) => op(`setting ${key}`, async () => {
      const row = await prisma.setting.findUnique({ where: { key } });
      return row ? fromJson(row.valueJson) : undefined;
    }, settingOwner(key)),
    set: (key, value) => op(`setting ${key}`, async () => {
      if (value === undefined) {
        await prisma.setting.deleteMany({ where: { key } });
        return;
      }
      const valueJson = toJson(value, `setting ${key}`);
      await prisma.setting.upsert({ where: { key }, create: { key, valueJson }, update: { valueJson } });
    }, settingOwner(key)),
  };

  const recoverInterrupted: Store["recoverInterrupted"] = (opts = {}) => op("recovery", async () => {
    const at = now();
    const of = opts.sessionId === undefined ? {} : { sessionId: opts.sessionId };
    return tx(async (t) => {
      const turnsDone = await t.turn.updateMany({ where: { ...of, status: "running" }, data: { status: "interrupted", reason: opts.reason ?? INTERRUPTED_REASON, endedAt: at } });
      // Text streamed since the last checkpoint is lost with the host; a message left with none is not kept.
      await t.message.deleteMany({ where: { ...of, state: "streaming", text: "" } });
      const messagesDone = await t.message.updateMany({ where: { ...of, state: "streaming" }, data: { state: "interrupted" } });
      const callsDone = await t.toolCall.updateMany({
        where: { ...of, status: "running" },
        data: { status: "cancelled", errorCode: "interrupted", errorMessage: "the host restarted while the tool was running", endedAt: at },
      });
      return { turns: turnsDone.count, messages: messagesDone.count, toolCalls: callsDone.count };
    });
  });

  const index = opts.provider === "postgresql" ? postgresSearch(prisma) : sqliteSearch(prisma);
  const search: Store["search"] = (query, o) => op("search", () => index.search(query, o));

  const warmWrites: Store["warmWrites"] = () => op("warm-up", async () => {
    const rollback = new Error("warm-up: rolled back");
    try {
      await tx(async (t) => {
        const at = now();
        const session = await t.session.create({ data: { title: "warm-up", workspace: "warm-up" } });
        const { turn } = await insertStart(t, session.id, "model", "warm-up", at);
        await writeSteps(t, turn.id, 1);
        await insertFact(t, session.id, { turnId: turn.id, factKind: "warm-up", text: "warm-up", payload: { digest: "warm-up" } }, at);
        const message = await insertMessage(t, session.id, { turnId: turn.id, role: "assistant", text: "", state: "streaming" }, at);
        await writeMessage(t, message.id, { text: "warm-up", state: "complete" });
        await endTurn(t, turn.id, { status: "completed", steps: 1, usage: { inputTokens: 1, outputTokens: 1 } });
        await t.turn.findUnique({ where: { id: turn.id } });
        throw rollback;
      });
    } catch (error) {
      if (error !== rollback) throw error;
    }
  });

  return { sessions, turns, items, settings, search, recoverInterrupted, warmWrites };
}
