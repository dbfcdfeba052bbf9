/**
 * Several hosts on one PostgreSQL database (SCALE-2, SCALE-3). Each host has an id and heartbeats; the
 * right to run a session's turns is a lease in the database, taken when a turn starts, renewed while it
 * runs and released when it ends. A host that dies stops renewing: once its leases lapse, another host
 * takes the sessions over and marks the dead host's running turns interrupted. Live events are shared
 * through the relay, so a page on any host follows a session whose turn runs on another.
 *
 * Only PostgreSQL runs this; on SQLite a host is alone with its database and needs none of it.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import type { SessionEvent } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import { createLog, type Log } from "../core/log.js";
import type { Scope } from "../core/scope.js";
import { pgConfig } from "../persistence/pg-config.js";
import { createLeases, type Leases } from "./leases.js";
import { createRelay, type Relay } from "./relay.js";

/** Default lease: a host that has not renewed for this long is presumed dead. */
export const LEASE_MS_DEFAULT = 15_000;
/** Live events are kept this long for hosts that reconnect; older rows are deleted. */
const EVENT_KEEP = "10 minutes";

/** A claim on running one session's turns. */
export interface TurnClaim {
  release(): Promise<void>;
}

/** Topics on the relay. */
const SESSION_TOPIC = "session:";
const LIST_TOPIC = "sessions";
const CONTROL_TOPIC = "control";
type Control = { type: "stop"; sessionId: string };

export type TakeoverCause = "taken_over" | "restarted";

/** What the session service needs from the cluster (see agent/session.ts `SessionLink`). */
export interface Cluster {
  readonly hostId: string;
  claim(sessionId: string): Promise<TurnClaim>;
  share(sessionId: string | null, event: SessionEvent | null): void;
  onShared(fn: (sessionId: string | null, event: SessionEvent | null) => void): () => void;
  runningElsewhere(sessionId: string): boolean;
  requestStop(sessionId: string): void;
  onStopRequest(fn: (sessionId: string) => void): () => void;
  /**
   * Sessions whose running turns are to be marked interrupted: another host stopped answering for them
   * (`taken_over`), or an earlier run of this host was killed while running them (`restarted`).
   */
  onTakeover(fn: (sessionId: string, why: TakeoverCause) => Promise<void>): () => void;
  /** Sessions this host lost to another (it did not renew in time): their turns must stop. */
  onLost(fn: (sessionId: string) => void): () => void;
  /** Starts the heartbeat (every lease/3), once the takeover and loss handlers are registered. */
  start(): void;
  /** One heartbeat now: renew, take orphans over (tests; the loop runs every lease/3). */
  beat(): Promise<void>;
  /** Sends what the relay has queued (tests). */
  flush(): Promise<void>;
}

export interface ClusterOptions {
  url: string;
  /**
   * This host's id, kept in its data directory so a restart is the same host: the leases its killed
   * predecessor left are dropped at once and their turns marked interrupted as by a restart (default: random).
   */
  hostId?: string;
  /** SEAM_LEASE_MS; default 15 s. */
  leaseMs?: number;
  log?: Log;
}

export function leaseMsFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.SEAM_LEASE_MS;
  if (raw === undefined || raw === "") return LEASE_MS_DEFAULT;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 1000 || ms > 600_000) {
    throw new HostError("bad_input:db", `SEAM_LEASE_MS must be a whole number of milliseconds from 1000 to 600000 (got "${raw}")`);
  }
  return ms;
}

export async function createCluster(scope: Scope, opts: ClusterOptions): Promise<Cluster> {
  const log = opts.log ?? createLog("cluster");
  const leaseMs = opts.leaseMs ?? LEASE_MS_DEFAULT;
  const hostId = opts.hostId ?? randomUUID();
  const config = pgConfig(opts.url);
  const pool = new pg.Pool({ ...config, max: 4, application_name: "seam-cluster" });
  pool.on("error", (error) => log.warn(`cluster connection error: ${messageOf(error)}`));
  const leases: Leases = createLeases(pool, { hostId, leaseMs });
  await leases.register(`${hostname()} pid ${process.pid}`);
  /** Sessions whose turns an earlier run of this host left running: recovered as after a restart. */
  const earlierRun = new Set(await leases.forgetEarlierRun());
  const relay: Relay = await createRelay({ pool, listenConfig: { ...config, application_name: "seam-live" }, hostId, log });

  /** Sessions this host holds, with how many claims of this host use each lease. */
  const held = new Map<string, number>();
  /**
   * Which taking of each held lease this is. A renewal only judges the leases held before it started: one
   * taken (or released and taken again) while it ran may be missing from its answer without being lost.
   */
  const takings = new Map<string, number>();
  let taking = 0;
  /** The last lease statement per session: a take waits for a release still on its way, and the reverse. */
  const chains = new Map<string, Promise<unknown>>();
  const serial = <T>(sessionId: string, fn: () => Promise<T>): Promise<T> => {
    const next = (chains.get(sessionId) ?? Promise.resolve()).catch(() => {}).then(fn);
    chains.set(sessionId, next);
    void next.finally(() => { if (chains.get(sessionId) === next) chains.delete(sessionId); }).catch(() => {});
    return next;
  };
  let elsewhere = new Set<string>();
  const shared = new Set<{ fn: (sessionId: string | null, event: SessionEvent | null) => void }>();
  const stopRequests = new Set<{ fn: (sessionId: string) => void }>();
  const takeovers = new Set<{ fn: (sessionId: string, why: TakeoverCause) => Promise<void> }>();
  const losses = new Set<{ fn: (sessionId: string) => void }>();
  const add = <T>(set: Set<{ fn: T }>, fn: T) => {
    const entry = { fn };
    set.add(entry);
    return () => void set.delete(entry);
  };

  relay.subscribe(({ topic, payload }) => {
    if (topic === CONTROL_TOPIC) {
      const control = payload as Control;
      if (control?.type === "stop" && typeof control.sessionId === "string") for (const s of [...stopRequests]) s.fn(control.sessionId);
      return;
    }
    const sessionId = topic.startsWith(SESSION_TOPIC) ? topic.slice(SESSION_TOPIC.length) : null;
    if (topic !== LIST_TOPIC && sessionId === null) return;
    const event = (sessionId === null ? null : payload) as SessionEvent | null;
    if (sessionId !== null && event?.type === "turn") {
      if (event.turn.status === "running") elsewhere.add(sessionId);
      else elsewhere.delete(sessionId);
    }
    for (const s of [...shared]) s.fn(sessionId, event);
  });

  /** Marks the running turns of a session whose host stopped answering interrupted (never throws). */
  const takeOver = async (sessionId: string) => {
    const why: TakeoverCause = earlierRun.delete(sessionId) ? "restarted" : "taken_over";
    try {
      log.warn(why === "restarted"
        ? `marking the turn an earlier run of this host left in session ${sessionId} interrupted`
        : `taking over session ${sessionId}: the host running its turn stopped answering`, { session: sessionId });
      for (const t of [...takeovers]) await t.fn(sessionId, why);
    } catch (error) {
      log.error(`could not take over session ${sessionId}: ${messageOf(error)}`, { session: sessionId });
    }
  };

  let beating: Promise<void> | undefined;
  let lastPrune = 0;
  const beatOnce = async () => {
    const before = new Map(takings);
    const still = await leases.renew();
    for (const [id, which] of before) {
      if (still.has(id) || takings.get(id) !== which) continue;
      held.delete(id);
      takings.delete(id);
      log.warn(`lost the lease of session ${id} to another host; stopping its turn here`, { session: id });
      for (const l of [...losses]) l.fn(id);
    }
    for (const sessionId of await leases.orphans()) {
      if (held.has(sessionId)) continue;
      if (!(await leases.take(sessionId)).taken) continue;
      try {
        await takeOver(sessionId);
      } finally {
        await leases.release(sessionId).catch(() => {});
      }
    }
    elsewhere = await leases.heldElsewhere();
    if (Date.now() - lastPrune > 60_000) {
      lastPrune = Date.now();
      await pool.query(`DELETE FROM "LiveEvent" WHERE "createdAt" < now() - interval '${EVENT_KEEP}'`);
    }
  };
  const beat = () => {
    beating ??= beatOnce()
      .catch((error: unknown) => log.warn(`heartbeat failed: ${messageOf(error)}`))
      .finally(() => { beating = undefined; });
    return beating;
  };
  let timer: NodeJS.Timeout | undefined;

  scope.add(async () => {
    clearInterval(timer);
    await beating;
    await relay.close();
    await leases.retire().catch((error: unknown) => log.warn(`could not release this host's leases: ${messageOf(error)}`));
    await pool.end().catch(() => {});
  }, "cluster");

  return {
    hostId,
    async claim(sessionId) {
      // A turn that starts here as the last one ends shares its lease rather than racing its release.
      const count = held.get(sessionId);
      if (count !== undefined) held.set(sessionId, count + 1);
      else {
        const took = await serial(sessionId, () => leases.take(sessionId));
        if (!took.taken) {
          throw new HostError("conflict:session", `A turn of this session is running on another Seam host (${took.holder.label ?? (took.holder.hostId || "unknown")}); stop it or wait for it to finish.`, { reason: "running_elsewhere" });
        }
        held.set(sessionId, (held.get(sessionId) ?? 0) + 1);
        takings.set(sessionId, ++taking);
        // The lease lapsed on a host that stopped answering before the heartbeat got to it: its turn ends first.
        if (took.from !== null) await takeOver(sessionId);
      }
      let released = false;
      return {
        release: async () => {
          if (released) return;
          released = true;
          const left = (held.get(sessionId) ?? 1) - 1;
          if (left > 0) return void held.set(sessionId, left);
          held.delete(sessionId);
          takings.delete(sessionId);
          await serial(sessionId, () => leases.release(sessionId));
        },
      };
    },
    share(sessionId, event) {
      relay.publish(sessionId === null ? LIST_TOPIC : `${SESSION_TOPIC}${sessionId}`, event);
    },
    onShared: (fn) => add(shared, fn),
    runningElsewhere: (sessionId) => elsewhere.has(sessionId),
    requestStop(sessionId) {
      relay.publish(CONTROL_TOPIC, { type: "stop", sessionId } satisfies Control);
    },
    onStopRequest: (fn) => add(stopRequests, fn),
    onTakeover: (fn) => add(takeovers, fn),
    onLost: (fn) => add(losses, fn),
    start() {
      if (timer) return;
      timer = setInterval(() => void beat(), Math.max(250, Math.floor(leaseMs / 3)));
      timer.unref();
      // Sessions whose host died before this one started are taken over at once.
      void beat();
    },
    beat,
    flush: () => relay.flush(),
  };
}
