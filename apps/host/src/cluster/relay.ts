/**
 * Live events across hosts (SCALE-3) over PostgreSQL LISTEN/NOTIFY. A host writes each event it shares
 * as a row of "LiveEvent" and announces it on channel `seam_live` with the payload "<seq> <topic>"; every
 * other host fetches the announced rows and hands them to its own subscribers. Notifications are only
 * delivered once the row is committed, so the row is always there to fetch; a listener that lost its
 * connection catches up from the last seq it saw. Text deltas of one item that pile up within a flush
 * are merged into one row.
 */
import pg from "pg";
import type { Log } from "../core/log.js";

export const CHANNEL = "seam_live";

export interface RelayedEvent { seq: bigint; hostId: string; topic: string; payload: unknown }

export interface Relay {
  /** Queues an event for the other hosts (written within `flushMs`). */
  publish(topic: string, payload: unknown): void;
  /** Events of the other hosts, in the order they were written. */
  subscribe(fn: (event: RelayedEvent) => void): () => void;
  /** Writes what is queued now (tests, shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface RelayOptions {
  pool: pg.Pool;
  /** A connection of its own for LISTEN (settings as the pool's). */
  listenConfig: pg.ClientConfig;
  hostId: string;
  log: Log;
  /** Default 15 ms: how long events gather before one write. */
  flushMs?: number;
}

interface Queued { topic: string; payload: unknown }

type Delta = { type: "delta"; itemId: string; text: string };
const isDelta = (p: unknown): p is Delta =>
  typeof p === "object" && p !== null && (p as Delta).type === "delta" && typeof (p as Delta).itemId === "string" && typeof (p as Delta).text === "string";

export async function createRelay(opts: RelayOptions): Promise<Relay> {
  const { pool, hostId, log } = opts;
  const flushMs = opts.flushMs ?? 15;
  const subscribers = new Set<{ fn: (event: RelayedEvent) => void }>();
  let queue: Queued[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  // ── publishing ──
  const write = async (batch: Queued[]) => {
    const topics = batch.map((e) => e.topic);
    const payloads = batch.map((e) => JSON.stringify(e.payload));
    await pool.query(
      `WITH e AS (
         INSERT INTO "LiveEvent" ("hostId", "topic", "payloadJson")
         SELECT $1, t, p FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS x(t, p, n) ORDER BY n
         RETURNING "seq", "topic")
       SELECT pg_notify('${CHANNEL}', e."seq" || ' ' || e."topic") FROM e ORDER BY e."seq"`,
      [hostId, topics, payloads],
    );
  };
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return writing;
    writing = writing.then(() => write(batch)).catch((error: unknown) => {
      log.warn(`could not share ${batch.length} live event(s) with the other hosts: ${String((error as Error)?.message ?? error)}`);
    });
    return writing;
  };

  // ── listening ──
  let lastSeq = -1n;
  let pending = new Set<bigint>();
  let fetching = false;
  let listener: pg.Client | undefined;
  let reconnectDelay = 250;

  const deliver = (rows: { seq: string; hostId: string; topic: string; payloadJson: string }[]) => {
    for (const row of rows) {
      const seq = BigInt(row.seq);
      if (seq > lastSeq) lastSeq = seq;
      if (row.hostId === hostId) continue;
      let payload: unknown;
      try {
        payload = JSON.parse(row.payloadJson);
      } catch {
        continue;
      }
      const event = { seq, hostId: row.hostId, topic: row.topic, payload };
      for (const s of [...subscribers]) {
        try {
          s.fn(event);
        } catch (error) {
          log.warn(`a live-event subscriber failed: ${String((error as Error)?.message ?? error)}`);
        }
      }
    }
  };
  const fetchPending = async () => {
    if (fetching || closed) return;
    fetching = true;
    try {
      while (pending.size > 0 && !closed) {
        const seqs = [...pending].map(String);
        pending = new Set();
        const { rows } = await pool.query(`SELECT "seq", "hostId", "topic", "payloadJson" FROM "LiveEvent" WHERE "seq" = ANY($1::bigint[]) ORDER BY "seq"`, [seqs]);
        deliver(rows);
      }
    } catch (error) {
      log.warn(`could not read shared live events: ${String((error as Error)?.message ?? error)}`);
    } finally {
      fetching = false;
    }
  };
  /** After a reconnect: whatever was written while the listener was away. */
  const catchUp = async () => {
    if (lastSeq < 0n) return;
    const { rows } = await pool.query(`SELECT "seq", "hostId", "topic", "payloadJson" FROM "LiveEvent" WHERE "seq" > $1 ORDER BY "seq" LIMIT 10000`, [String(lastSeq)]);
    deliver(rows);
  };
  const listen = async (): Promise<void> => {
    const client = new pg.Client(opts.listenConfig);
    client.on("notification", (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      const seq = n.payload.split(" ", 1)[0]!;
      if (!/^\d+$/.test(seq)) return;
      pending.add(BigInt(seq));
      void fetchPending();
    });
    const lost = () => {
      if (listener !== client) return;
      listener = undefined;
      client.removeAllListeners("notification");
      void client.end().catch(() => {});
      if (closed) return;
      log.warn(`the live-event listener lost its connection; reconnecting in ${reconnectDelay} ms`);
      setTimeout(() => void reconnect(), reconnectDelay).unref();
      reconnectDelay = Math.min(reconnectDelay * 2, 10_000);
    };
    client.on("error", lost);
    client.on("end", lost);
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
    reconnectDelay = 250;
  };
  const reconnect = async () => {
    if (closed) return;
    try {
      await listen();
      await catchUp();
    } catch (error) {
      log.warn(`could not listen for live events: ${String((error as Error)?.message ?? error)}`);
      setTimeout(() => void reconnect(), reconnectDelay).unref();
      reconnectDelay = Math.min(reconnectDelay * 2, 10_000);
    }
  };
  await listen();
  // Start from what is there now: events written before this host listened are not replayed.
  const { rows } = await pool.query<{ max: string | null }>(`SELECT max("seq") AS max FROM "LiveEvent"`);
  lastSeq = rows[0]?.max ? BigInt(rows[0].max) : 0n;

  return {
    publish(topic, payload) {
      if (closed) return;
      const last = queue.at(-1);
      if (last && last.topic === topic && isDelta(last.payload) && isDelta(payload) && last.payload.itemId === payload.itemId) {
        last.payload = { ...last.payload, text: last.payload.text + payload.text };
      } else {
        queue.push({ topic, payload });
      }
      timer ??= setTimeout(() => void flush(), flushMs);
    },
    subscribe(fn) {
      const entry = { fn };
      subscribers.add(entry);
      return () => void subscribers.delete(entry);
    },
    flush,
    async close() {
      await flush();
      closed = true;
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
    },
  };
}
