/**
 * The cluster's parts in one process (SCALE-2, SCALE-3): two `createCluster`s on one PostgreSQL database act
 * as two hosts. Leases, takeovers (by the heartbeat and at a claim), a lost lease, and the relay's events.
 * PostgreSQL run only; `two-hosts.test.ts` does the same with real processes.
 */
import { join } from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "@seam/shared";
import { createCluster, leaseMsFrom } from "../../src/cluster/cluster.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { openDatabase, type Database } from "../../src/persistence/db.js";
import { onPostgres, testDbUrl } from "../support/db-url.js";
import { tmpDir } from "../persistence/tmp.js";

const scopes: Scope[] = [];
afterEach(async () => {
  for (const s of scopes.splice(0).reverse()) await s.dispose();
});

async function setup() {
  const dir = tmpDir();
  const scope = createScope("cluster-test");
  scopes.push(scope);
  scope.add(async () => { await dir[Symbol.asyncDispose](); }, "dir");
  const url = testDbUrl(join(dir.path, "cluster.db"));
  const db = await openDatabase(scope.child("db"), { home: dir.path, url });
  // Long leases: nothing lapses unless a test says so; no heartbeat runs unless a test beats.
  const one = await createCluster(scope.child("one"), { url, leaseMs: 60_000 });
  const two = await createCluster(scope.child("two"), { url, leaseMs: 60_000 });
  const sql = async (text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  return { db, one, two, sql, url };
}

async function sessionWithRunningTurn(db: Database) {
  const s = await db.store.sessions.create({ title: "t", workspace: "/w" });
  const turn = await db.store.turns.create(s.id, "model");
  return { sessionId: s.id, turnId: turn.id };
}

describe.skipIf(!onPostgres)("cluster on PostgreSQL (SCALE-2, SCALE-3)", () => {
  it("one host at a time holds a session; its claims share the lease; a release frees it", async () => {
    const { db, one, two, sql } = await setup();
    const s = await db.store.sessions.create({ title: "t", workspace: "/w" });
    const first = await one.claim(s.id);
    const again = await one.claim(s.id);
    await expect(two.claim(s.id)).rejects.toMatchObject({ code: "conflict:session", message: expect.stringMatching(/running on another Seam host \(.+ pid \d+\)/) });
    await first.release();
    await expect(two.claim(s.id)).rejects.toMatchObject({ code: "conflict:session" });
    await again.release();
    expect(await sql(`SELECT * FROM "SessionLease"`)).toEqual([]);
    const theirs = await two.claim(s.id);
    expect(await sql(`SELECT "hostId" FROM "SessionLease"`)).toEqual([{ hostId: two.hostId }]);
    await theirs.release();
  });

  it("a claim on a lapsed lease of another host takes its session over first", async () => {
    const { db, one, two, sql } = await setup();
    const { sessionId } = await sessionWithRunningTurn(db);
    await one.claim(sessionId);
    await sql(`UPDATE "SessionLease" SET "expiresAt" = now() - interval '1 second'`);
    const taken: string[] = [];
    two.onTakeover(async (id) => void taken.push(id));
    await two.claim(sessionId);
    expect(taken).toEqual([sessionId]);
  });

  it("the heartbeat takes over orphaned turns once, and tells a host that lost its lease", async () => {
    const { db, one, two, sql } = await setup();
    const orphan = await sessionWithRunningTurn(db);
    const taken: string[] = [];
    one.onTakeover(async (id) => { taken.push(id); await db.store.recoverInterrupted({ sessionId: id }); });
    two.onTakeover(async (id) => { taken.push(id); await db.store.recoverInterrupted({ sessionId: id }); });
    await Promise.all([one.beat(), two.beat()]);
    expect(taken).toEqual([orphan.sessionId]);
    expect((await db.store.turns.list(orphan.sessionId))[0]?.status).toBe("interrupted");
    expect(await sql(`SELECT * FROM "SessionLease"`)).toEqual([]);

    const live = await sessionWithRunningTurn(db);
    await one.claim(live.sessionId);
    const lost: string[] = [];
    one.onLost((id) => lost.push(id));
    await one.beat();
    expect(lost).toEqual([]);
    await sql(`UPDATE "SessionLease" SET "hostId" = $1`, [two.hostId]);
    await one.beat();
    expect(lost).toEqual([live.sessionId]);
  });

  it("shares events with the other host in order, merges an item's deltas, and never echoes its own", async () => {
    const { one, two } = await setup();
    const atTwo: { sessionId: string | null; event: SessionEvent | null }[] = [];
    const atOne: unknown[] = [];
    two.onShared((sessionId, event) => atTwo.push({ sessionId, event }));
    one.onShared((sessionId, event) => atOne.push({ sessionId, event }));
    one.share("s1", { type: "delta", itemId: "m1", text: "Hel" });
    one.share("s1", { type: "delta", itemId: "m1", text: "lo" });
    one.share("s1", { type: "output", itemId: "c1", chunk: "$ ls" });
    one.share(null, null);
    await one.flush();
    await expect.poll(() => atTwo.length).toBe(3);
    expect(atTwo).toEqual([
      { sessionId: "s1", event: { type: "delta", itemId: "m1", text: "Hello" } },
      { sessionId: "s1", event: { type: "output", itemId: "c1", chunk: "$ ls" } },
      { sessionId: null, event: null },
    ]);
    const stops: string[] = [];
    one.onStopRequest((id) => stops.push(id));
    two.requestStop("s1");
    await two.flush();
    await expect.poll(() => stops).toEqual(["s1"]);
    expect(atOne).toEqual([]);
  });

  it("a host restarted after a kill (same id) drops its earlier run's leases and marks those turns interrupted as restarted", async () => {
    const { db, one, sql, url } = await setup();
    const { sessionId } = await sessionWithRunningTurn(db);
    await one.claim(sessionId);
    // The earlier run was killed: its lease is still live. The new run has the same id (hostIdOf(home)).
    const scope = createScope("restarted");
    scopes.push(scope);
    const again = await createCluster(scope, { url, hostId: one.hostId, leaseMs: 60_000 });
    expect(await sql(`SELECT * FROM "SessionLease"`)).toEqual([]);
    const seen: [string, string][] = [];
    again.onTakeover(async (id, why) => void seen.push([id, why]));
    await again.beat();
    expect(seen).toEqual([[sessionId, "restarted"]]);
  });

  it("SEAM_LEASE_MS is a whole number of milliseconds from 1000 to 600000", () => {
    expect(leaseMsFrom({})).toBe(15_000);
    expect(leaseMsFrom({ SEAM_LEASE_MS: "3000" })).toBe(3000);
    for (const bad of ["999", "600001", "1.5", "soon"]) {
      expect(() => leaseMsFrom({ SEAM_LEASE_MS: bad })).toThrow(expect.objectContaining({ code: "bad_input:db", message: expect.stringContaining(`"${bad}"`) }));
    }
  });
});

