/**
 * The one restart policy of long-lived peers (STYLE §3): MCP servers, language servers. A peer's
 * schedule is data (`RestartPolicy`); `createRestartBudget` turns failures into decisions, and
 * `createRestartLoop` also carries out a decision on a clock: it waits, starts the peer again, and
 * treats a failed start like any other failure. Peers keep their own states and messages; this only
 * decides whether, when and how often they come back.
 */

/** Timers a supervisor arms, labelled so a test clock can tell them apart and fire them by name. */
export type RestartTimer = "retry" | "stable";

/** Timers and time; injectable so tests can assert a schedule exactly. `L` lets a peer add its own labels. */
export interface Clock<L extends string = RestartTimer> {
  setTimeout(fn: () => void, ms: number, label: L): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

/** Real timers, unref'd: a pending restart never keeps the host alive. */
export const systemClock: Clock<string> = {
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  now: () => Date.now(),
};

/** How a peer comes back after it failed. */
export interface RestartPolicy {
  /** Delay before the first restart of an outage; 0 restarts at once. */
  initialDelayMs: number;
  /** Each further restart of the same outage waits this many times longer… */
  factor: number;
  /** …but never longer than this. */
  maxDelayMs: number;
  /** Restarts per outage; the failure after the last one gives up (`exhausted`). */
  maxAttempts: number;
  /** A peer up this long starts its next outage with a fresh attempt count (omit: only `resetAttempts`/`reset` do). */
  resetAfterUpMs?: number;
  /** More than `max` failures within `windowMs`, outages regardless, give up until `reset()` (`over_budget`). */
  budget?: { max: number; windowMs: number };
}

/** The delay before restart `attempt` (1-based) of an outage. */
export const restartDelay = (policy: Pick<RestartPolicy, "initialDelayMs" | "factor" | "maxDelayMs">, attempt: number): number =>
  Math.min(policy.initialDelayMs * policy.factor ** (attempt - 1), policy.maxDelayMs);

export type GiveUpReason = "exhausted" | "over_budget" | "fatal" | "disposed";

export type RestartDecision =
  | { restart: true; attempt: number; maxAttempts: number; delayMs: number }
  | { restart: false; reason: GiveUpReason };

/** The counting half: failures in, decisions out. */
export interface RestartBudget {
  /**
   * Counts a failure (also in the budget's window) and decides. An outage that used all its attempts
   * is `exhausted`; otherwise a spent window budget is `over_budget`, and stays so until `reset()`.
   */
  failed(): RestartDecision;
  /** The peer is up: after `resetAfterUpMs` (if set) its next outage starts with a fresh attempt count. */
  up(): void;
  /** The peer went down: an up-time that did not last does not reset anything. */
  down(): void;
  /** Starts a fresh outage now: the attempt count goes back to zero; the window and a spent budget stay. */
  resetAttempts(): void;
  /** Forgets everything (a person restarted the peer). */
  reset(): void;
  /** Failures within the budget's window, including the last one. */
  recentFailures(): number;
  /** Whether the window budget is spent: the peer stays given up until `reset()`. */
  spent(): boolean;
  /** Cancels the up-time timer; `failed()` answers `disposed` from now on. Idempotent. */
  dispose(): void;
}

/** Counts failures against `policy`. The clock measures the window and times the up-time reset. */
export function createRestartBudget(policy: RestartPolicy, clock: Clock = systemClock): RestartBudget {
  let attempts = 0;
  let failures: number[] = [];
  let overBudget = false;
  let disposed = false;
  let stable: unknown;

  const stopStable = () => {
    if (stable === undefined) return;
    clock.clearTimeout(stable);
    stable = undefined;
  };
  const countInWindow = (): boolean => {
    if (!policy.budget) return false;
    const now = clock.now();
    const { max, windowMs } = policy.budget;
    failures = failures.filter((t) => now - t < windowMs);
    failures.push(now);
    return failures.length > max;
  };

  return {
    failed() {
      if (disposed) return { restart: false, reason: "disposed" };
      if (countInWindow()) overBudget = true;
      if (attempts >= policy.maxAttempts) return { restart: false, reason: "exhausted" };
      if (overBudget) return { restart: false, reason: "over_budget" };
      attempts += 1;
      return { restart: true, attempt: attempts, maxAttempts: policy.maxAttempts, delayMs: restartDelay(policy, attempts) };
    },
    up() {
      stopStable();
      if (disposed || policy.resetAfterUpMs === undefined) return;
      stable = clock.setTimeout(() => {
        stable = undefined;
        attempts = 0;
      }, policy.resetAfterUpMs, "stable");
    },
    down: stopStable,
    resetAttempts() {
      attempts = 0;
    },
    reset() {
      stopStable();
      attempts = 0;
      failures = [];
      overBudget = false;
    },
    recentFailures: () => failures.length,
    spent: () => overBudget,
    dispose() {
      disposed = true;
      stopStable();
    },
  };
}

export interface RestartLoopOptions {
  policy: RestartPolicy;
  clock?: Clock;
  /** Starts the peer again once a restart's delay passed; a rejection counts as the next failure. */
  start(): Promise<void>;
  /** Failures that must not be retried at all (they give up as `fatal`). */
  isFatal?(error: unknown): boolean;
  /** A restart was scheduled (before its timer is armed): the peer shows "retrying k/n". */
  onRetry?(decision: Extract<RestartDecision, { restart: true }>, error: unknown): void;
  /** The loop stopped restarting (not called once disposed). */
  onGiveUp?(reason: Exclude<GiveUpReason, "disposed">, error: unknown): void;
}

/** A budget that also carries out its decisions. */
export interface RestartLoop extends Omit<RestartBudget, "failed"> {
  /** Counts a failure and schedules the restart it earns, or gives up. Ignored once disposed. */
  failed(error: unknown): RestartDecision;
}

/** Restarts a peer on `policy`'s schedule until it gives up or is disposed (a pending restart is then cancelled). */
export function createRestartLoop(opts: RestartLoopOptions): RestartLoop {
  const clock = opts.clock ?? systemClock;
  const budget = createRestartBudget(opts.policy, clock);
  let retry: unknown;
  let disposed = false;

  const stopRetry = () => {
    if (retry === undefined) return;
    clock.clearTimeout(retry);
    retry = undefined;
  };

  function failed(error: unknown): RestartDecision {
    if (disposed) return { restart: false, reason: "disposed" };
    const decision: RestartDecision = opts.isFatal?.(error) ? { restart: false, reason: "fatal" } : budget.failed();
    if (!decision.restart) {
      if (decision.reason !== "disposed") opts.onGiveUp?.(decision.reason, error);
      return decision;
    }
    opts.onRetry?.(decision, error);
    stopRetry();
    retry = clock.setTimeout(() => {
      retry = undefined;
      if (!disposed) opts.start().catch(failed);
    }, decision.delayMs, "retry");
    return decision;
  }

  return {
    ...budget,
    failed,
    dispose() {
      disposed = true;
      stopRetry();
      budget.dispose();
    },
  };
}
