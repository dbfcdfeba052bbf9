import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createRestartBudget, createRestartLoop, restartDelay, systemClock, type RestartBudget, type RestartPolicy } from "../../src/core/supervisor.js";

/** MCP's schedule (MCP-5): 500 ms doubling to 30 s, 10 attempts, reset after 30 s up. */
const BACKOFF: RestartPolicy = { initialDelayMs: 500, factor: 2, maxDelayMs: 30_000, maxAttempts: 10, resetAfterUpMs: 30_000 };
/** The LSP pool's (LSP-4): replace at once, once per query, at most 2 failures in a minute. */
const REPLACE_ONCE: RestartPolicy = { initialDelayMs: 0, factor: 1, maxDelayMs: 0, maxAttempts: 1, budget: { max: 2, windowMs: 60_000 } };

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse("2026-01-01T00:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

/** The next `n` decisions: a restart's delay, or why it gave up. */
const delays = (budget: RestartBudget, n: number) =>
  Array.from({ length: n }, () => {
    const d = budget.failed();
    return d.restart ? d.delayMs : d.reason;
  });

describe("restart budget", () => {
  it("follows the schedule, then gives up as exhausted (and stays so)", () => {
    expect(Array.from({ length: 10 }, (_, i) => restartDelay(BACKOFF, i + 1))).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000]);
    const budget = createRestartBudget(BACKOFF);
    expect(delays(budget, 12)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000, 30_000, "exhausted", "exhausted"]);
  });

  it("reports attempt k of n", () => {
    const budget = createRestartBudget(BACKOFF);
    budget.failed();
    expect(budget.failed()).toEqual({ restart: true, attempt: 2, maxAttempts: 10, delayMs: 1_000 });
  });

  it("resets the attempt count only after the peer stayed up resetAfterUpMs", () => {
    const budget = createRestartBudget(BACKOFF);
    expect(delays(budget, 2)).toEqual([500, 1_000]);
    budget.up();
    vi.advanceTimersByTime(29_999);
    budget.down();
    vi.advanceTimersByTime(60_000);
    expect(delays(budget, 1)).toEqual([2_000]);
    budget.up();
    budget.up(); // re-arms, does not stack
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(30_000);
    expect(delays(budget, 1)).toEqual([500]);
  });

  it("without resetAfterUpMs, up() resets nothing; resetAttempts() starts a fresh outage", () => {
    const budget = createRestartBudget(REPLACE_ONCE);
    expect(budget.failed()).toEqual({ restart: true, attempt: 1, maxAttempts: 1, delayMs: 0 });
    budget.up();
    expect(vi.getTimerCount()).toBe(0);
    expect(budget.failed()).toEqual({ restart: false, reason: "exhausted" });
    budget.resetAttempts();
    vi.advanceTimersByTime(1_000);
    expect(budget.recentFailures()).toBe(2);
    expect(budget.spent()).toBe(false);
    // The third failure in the window spends the budget: given up until reset(), whatever the attempts.
    expect(budget.failed()).toEqual({ restart: false, reason: "over_budget" });
    expect(budget.spent()).toBe(true);
    budget.resetAttempts();
    expect(budget.failed()).toEqual({ restart: false, reason: "over_budget" });
    budget.reset();
    expect(budget.spent()).toBe(false);
    expect(budget.failed()).toMatchObject({ restart: true, attempt: 1 });
  });

  it("an exhausted outage says so even when the window budget is spent too", () => {
    const budget = createRestartBudget({ ...REPLACE_ONCE, budget: { max: 1, windowMs: 60_000 } });
    expect(budget.failed()).toMatchObject({ restart: true });
    expect(budget.failed()).toEqual({ restart: false, reason: "exhausted" });
    expect(budget.spent()).toBe(true);
  });

  it("forgets failures that left the window", () => {
    const budget = createRestartBudget(REPLACE_ONCE);
    budget.failed();
    budget.resetAttempts();
    vi.advanceTimersByTime(60_000);
    budget.failed();
    budget.resetAttempts();
    expect(budget.recentFailures()).toBe(1);
    expect(budget.failed()).toMatchObject({ restart: true });
  });

  it("answers disposed after dispose and cancels the up-time timer", () => {
    const budget = createRestartBudget(BACKOFF, systemClock);
    budget.up();
    budget.dispose();
    expect(vi.getTimerCount()).toBe(0);
    expect(budget.failed()).toEqual({ restart: false, reason: "disposed" });
  });
});

describe("restart loop", () => {
  const loop = (start: () => Promise<void>, extra: { isFatal?: (e: unknown) => boolean } = {}) => {
    const retries: string[] = [];
    const gaveUp: string[] = [];
    const l = createRestartLoop({
      policy: { ...BACKOFF, maxAttempts: 3 },
      start,
      ...extra,
      onRetry: (d, error) => retries.push(`${d.attempt}/${d.maxAttempts} in ${d.delayMs}: ${String(error)}`),
      onGiveUp: (reason, error) => gaveUp.push(`${reason}: ${String(error)}`),
    });
    return { l, retries, gaveUp };
  };

  it("starts the peer after the delay; a start that throws is the next failure, until exhausted", async () => {
    let starts = 0;
    const { l, retries, gaveUp } = loop(async () => {
      starts++;
      throw new Error(`start ${starts}`);
    });
    expect(l.failed("crash")).toMatchObject({ restart: true, attempt: 1, delayMs: 500 });
    await vi.advanceTimersByTimeAsync(499);
    expect(starts).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(starts).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000 + 2_000);
    expect(starts).toBe(3);
    expect(retries).toEqual(["1/3 in 500: crash", "2/3 in 1000: Error: start 1", "3/3 in 2000: Error: start 2"]);
    expect(gaveUp).toEqual(["exhausted: Error: start 3"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a start that succeeds ends the loop until the next failure", async () => {
    let starts = 0;
    const { l, gaveUp } = loop(async () => {
      starts++;
      l.up();
    });
    l.failed("crash");
    await vi.advanceTimersByTimeAsync(500);
    expect(starts).toBe(1);
    await vi.advanceTimersByTimeAsync(30_000); // up long enough: fresh budget
    expect(l.failed("crash again")).toMatchObject({ attempt: 1, delayMs: 500 });
    expect(gaveUp).toEqual([]);
  });

  it("gives up at once on a fatal failure", () => {
    const start = vi.fn(async () => {});
    const { l, retries, gaveUp } = loop(start, { isFatal: (e) => e === "barrier" });
    expect(l.failed("barrier")).toEqual({ restart: false, reason: "fatal" });
    expect(retries).toEqual([]);
    expect(gaveUp).toEqual(["fatal: barrier"]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("dispose mid-wait cancels the pending restart; later failures are ignored", async () => {
    const start = vi.fn(async () => {});
    const { l, gaveUp } = loop(start);
    l.failed("crash");
    l.up();
    expect(vi.getTimerCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(200);
    l.dispose();
    l.dispose();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(start).not.toHaveBeenCalled();
    expect(l.failed("late")).toEqual({ restart: false, reason: "disposed" });
    expect(gaveUp).toEqual([]);
  });

  it("a start that fails after dispose does not schedule anything", async () => {
    let fail!: (e: unknown) => void;
    const { l, retries } = loop(() => new Promise<void>((_, reject) => (fail = reject)));
    l.failed("crash");
    await vi.advanceTimersByTimeAsync(500);
    l.dispose();
    fail(new Error("closed"));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(retries).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
