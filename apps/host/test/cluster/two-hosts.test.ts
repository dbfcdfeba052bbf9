/**
 * Two real host processes on one PostgreSQL database (SCALE-2, SCALE-3): raced for 100 sessions, every
 * session's turn runs on exactly one host; a page (a live stream) on host A follows a turn run by host B
 * and stops it; host B killed with SIGKILL mid-turn → host A takes the session over once the lease lapses,
 * the turn shows interrupted, nothing committed is lost and the session goes on. PostgreSQL run only.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEvent, TurnInfo } from "@seam/shared";
import { startScriptedModel, type ScriptedModel } from "../../../../packages/testkit/src/index.js";
import { onPostgres, testDbUrl } from "../support/db-url.js";
import { startHostProcess, type HostProcess } from "./host-process.js";

/**
 * Short enough for the SIGKILL test, long enough that a busy CI box (200 racing turns on 2 cores) never
 * stalls a live host past its lease: a stall that long is, by design, taken for a dead host.
 */
const LEASE_MS = 8000;
const SESSIONS = 100;

const until = async <T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 60_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe.skipIf(!onPostgres)("two hosts on one PostgreSQL (SCALE-2, SCALE-3)", { timeout: 240_000 }, () => {
  let model: ScriptedModel;
  let a: HostProcess;
  let b: HostProcess;
  let databaseUrl: string;
  let workspace: string;
  const sql = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    workspace = mkdtempSync(join(tmpdir(), "seam-cluster-ws-"));
    databaseUrl = testDbUrl(join(workspace, "cluster.db"));
    model = await startScriptedModel({
      maxConnections: 512,
      scripts: [{
        name: "cluster",
        turns: [
          { match: "^slow", steps: [{ text: Array.from({ length: 20 }, (_, i) => `tick${i} `), delayMs: 150 }] },
          { match: "^hang", steps: [{ text: ["partial answer ", "never finished"], hang: true }] },
          { match: ".*", steps: [{ text: "fine" }] },
        ],
      }],
    });
    const opts = { databaseUrl, modelBaseUrl: model.baseURL, modelId: "cluster", leaseMs: LEASE_MS };
    // Both start at once on an empty database: one applies the migrations, the other waits for it.
    [a, b] = await Promise.all([startHostProcess("a", { ...opts, webPort: 39981 }), startHostProcess("b", { ...opts, webPort: 39982 })]);
  });

  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await model?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it("100 sessions raced by two hosts: each turn runs on exactly one host, never twice; the leases are released after", async () => {
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => a.client.session.create.mutate({ workspace, title: `race ${i}` })));
    const outcomes = await Promise.all(sessions.map(async (s) => {
      const [onA, onB] = await Promise.allSettled([
        a.client.session.send.mutate({ sessionId: s.id, text: "slow from a" }),
        b.client.session.send.mutate({ sessionId: s.id, text: "slow from b" }),
      ]);
      return { id: s.id, onA, onB };
    }));
    for (const o of outcomes) {
      const won = [o.onA, o.onB].filter((r) => r.status === "fulfilled");
      const lost = [o.onA, o.onB].filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(won, `session ${o.id}`).toHaveLength(1);
      expect(String(lost[0]?.reason?.message)).toMatch(/already running in this session|running on another Seam host/);
    }
    await until("every raced turn to end", async () => (await sql<{ n: string }>(`SELECT count(*) AS n FROM "Turn" WHERE "status" = 'running'`))[0]!.n === "0", 120_000);

    const turns = await sql<{ sessionId: string; n: string; ends: string }>(
      `SELECT "sessionId", count(*) AS n, string_agg("status" || ': ' || coalesce("reason", ''), '; ') AS ends FROM "Turn" WHERE "sessionId" = ANY($1) GROUP BY "sessionId"`,
      [sessions.map((s) => s.id)],
    );
    expect(turns).toHaveLength(SESSIONS);
    // Exactly one turn per session, and it ran to its end (its status and reason shown if not).
    for (const t of turns) expect([t.sessionId, t.n, t.ends]).toEqual([t.sessionId, "1", "completed: "]);
    // Each turn's user message is the winner's, once.
    const messages = await sql<{ sessionId: string; n: string }>(
      `SELECT "sessionId", count(*) AS n FROM "Message" WHERE "role" = 'user' AND "sessionId" = ANY($1) GROUP BY "sessionId"`,
      [sessions.map((s) => s.id)],
    );
    expect(messages.every((m) => m.n === "1")).toBe(true);
    expect(await sql(`SELECT * FROM "SessionLease"`)).toEqual([]);
    expect((await sql<{ n: string }>(`SELECT count(*) AS n FROM "Host" WHERE "stoppedAt" IS NULL`))[0]!.n).toBe("2");
  });

  it("a page on host A streams a turn run by host B, sees it running in the list, and stops it", async () => {
    const session = await a.client.session.create.mutate({ workspace, title: "followed" });
    const topic = `session:${session.id}` as const;
    const events: SessionEvent[] = [];
    let started!: () => void;
    const ready = new Promise<void>((r) => (started = r));
    const sub = a.client.live.stream.subscribe({ topics: [topic] }, {
      onData: (event) => {
        if (event.kind === "started") started();
        if (event.kind === "data" && event.topic === topic) events.push(event.data as SessionEvent);
      },
    });
    try {
      await ready;
      await b.client.session.send.mutate({ sessionId: session.id, text: "slow on b" });
      // What the page shows: the assistant message as it arrived, then every delta of it.
      const deltas = () => {
        const item = events.find((e): e is Extract<SessionEvent, { type: "item" }> => e.type === "item" && e.item.kind === "message" && e.item.role === "assistant")?.item;
        const first = item?.kind === "message" ? item.text : "";
        return first + events.filter((e): e is Extract<SessionEvent, { type: "delta" }> => e.type === "delta" && e.itemId === item?.id).map((e) => e.text).join("");
      };
      await until("deltas of B's turn on A", async () => deltas().includes("tick3"));
      // A's list says the session is running (on B).
      expect((await a.client.session.list.query()).find((s) => s.id === session.id)?.running).toBe(true);
      // A sends: refused, the turn runs elsewhere; A stops it: B stops it.
      await expect(a.client.session.send.mutate({ sessionId: session.id, text: "again" })).rejects.toThrow(/running on another Seam host/);
      expect(await a.client.session.stop.mutate({ id: session.id })).toEqual({ stopped: true });
      const ended = await until("the stopped turn on A's stream", async () =>
        events.find((e): e is Extract<SessionEvent, { type: "turn" }> => e.type === "turn" && e.turn.status !== "running")?.turn);
      expect(ended.status).toBe("stopped");
      expect(deltas()).toMatch(/^tick0 tick1 tick2 tick3/);
      expect(events.some((e) => e.type === "item" && e.item.kind === "message" && e.item.role === "user")).toBe(true);
      // Now A may run the next turn of the session itself.
      const next = await a.client.session.send.mutate({ sessionId: session.id, text: "hello" });
      await until("A's own turn to end", async () => (await a.client.session.get.query({ id: session.id })).lastTurn?.status === "completed" && next);
    } finally {
      sub.unsubscribe();
    }
  });

  it("host B killed mid-turn: host A takes the session over, the turn shows interrupted, nothing committed is lost", async () => {
    const session = await a.client.session.create.mutate({ workspace, title: "orphaned" });
    const { turnId } = await b.client.session.send.mutate({ sessionId: session.id, text: "hang on b" });
    await until("B's turn to be running", async () => (await sql(`SELECT 1 FROM "Turn" WHERE "id" = $1 AND "status" = 'running'`, [turnId])).length === 1);
    await b.kill();
    const killedAt = Date.now();

    const turn = await until("A to mark B's turn interrupted", async () => {
      const detail = await a.client.session.get.query({ id: session.id });
      return detail.lastTurn?.status === "interrupted" ? detail.lastTurn : undefined;
    }, 60_000) as TurnInfo;
    const tookMs = Date.now() - killedAt;
    expect(turn.id).toBe(turnId);
    expect(turn.reason).toMatch(/stopped answering; another host took the session over/);
    console.log(`takeover after SIGKILL: ${tookMs} ms (lease ${LEASE_MS} ms)`);
    const detail = await a.client.session.get.query({ id: session.id });
    expect(detail.items.find((i) => i.kind === "message" && i.role === "user")).toMatchObject({ text: "hang on b", state: "complete" });
    expect(detail.items.filter((i) => i.kind === "message" && i.state === "streaming")).toEqual([]);
    expect(await sql(`SELECT * FROM "SessionLease" WHERE "sessionId" = $1`, [session.id])).toEqual([]);
    // The session goes on, on A.
    await a.client.session.send.mutate({ sessionId: session.id, text: "hello again" });
    await until("A's turn to complete", async () => (await a.client.session.get.query({ id: session.id })).lastTurn?.status === "completed");
  });
});
