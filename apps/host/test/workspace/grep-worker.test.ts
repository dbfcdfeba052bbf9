import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime } from "../../src/agent/runtime.js";
import { grepWorkerCounts, type GrepResult } from "../../src/workspace/grep.js";
import { workspaceTools } from "../../src/workspace/workspace.js";
import { workspaceFixture } from "./fixture.js";

// `(a+)+$` on "aaa…ab" backtracks through ~2^40 ways to split the a's: it never finishes in practice.
const EVIL_PATTERN = "(a+)+$";
const EVIL_LINE = `${"a".repeat(40)}b`;

/** Resolves once `check` holds, polling without blocking; fails after `ms`. */
async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The longest gap between 10 ms interval ticks while `work` runs: how long the event loop was blocked. */
async function maxLoopGap<T>(work: Promise<T>): Promise<{ value: T; maxGapMs: number; ticks: number }> {
  let last = performance.now();
  let maxGapMs = 0;
  let ticks = 0;
  const interval = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    ticks++;
  }, 10);
  try {
    const value = await work;
    return { value, maxGapMs: Math.max(maxGapMs, performance.now() - last), ticks };
  } finally {
    clearInterval(interval);
  }
}

describe("grep in a worker thread (SEC-3)", () => {
  it("stops a catastrophically backtracking pattern at its deadline without blocking the main thread", async () => {
    await using f = await workspaceFixture({ grepTimeoutMs: 1_000 });
    await f.write("src/ok.ts", "fine\n");
    await f.write("src/evil.txt", `first line\n${EVIL_LINE}\nlast line\n`);
    const before = grepWorkerCounts();

    const started = performance.now();
    let timerFiredAt: number | undefined;
    setTimeout(() => (timerFiredAt = performance.now()), 10);
    const call = f.call("grep", { pattern: EVIL_PATTERN });
    const { value: outcome, ticks } = await maxLoopGap(call);
    const finishedAt = performance.now();
    const elapsed = finishedAt - started;

    expect(outcome.status).toBe("error");
    expect(outcome.error?.code).toBe("grep_timeout");
    expect(outcome.canonical).toBeNull();
    expect(outcome.rendered).toMatch(/^Error \[grep_timeout\]: grep did not finish within 1 s and was stopped: the pattern is too expensive/);
    expect(outcome.rendered).toContain("Narrow `path` or `glob`, or simplify the regular expression");
    // Stopped at the deadline, not when the regex gave up (it never would).
    expect(elapsed).toBeGreaterThanOrEqual(950);
    // The main thread kept running while the worker spun: the 10 ms timer fired before grep gave up,
    // and the interval kept ticking (a blocked loop would tick once, after the regex).
    expect(timerFiredAt).toBeDefined();
    expect(timerFiredAt!).toBeLessThan(finishedAt);
    expect(ticks).toBeGreaterThan(5);
    expect(grepWorkerCounts()).toEqual({ started: before.started + 1, live: 0 });
  });

  it("terminates the worker when its signal aborts", async () => {
    await using f = await workspaceFixture();
    await f.write("evil.txt", `${EVIL_LINE}\n`);
    const grep = workspaceTools({ grepTimeoutMs: 60_000 }).find((t) => t.name === "grep")!;
    const before = grepWorkerCounts();
    const controller = new AbortController();
    const pending = grep.run({ pattern: EVIL_PATTERN }, { signal: controller.signal, sessionId: "s", workspace: f.ws, callId: "c" });
    const settled = pending.then(() => "resolved", (error: unknown) => error);
    await until(() => grepWorkerCounts().live === before.live + 1);
    // Let the worker get into the regex before pulling the plug.
    await new Promise((resolve) => setTimeout(resolve, 100));

    controller.abort();
    // Settling at all proves the worker was stopped: the regex itself would never finish.
    const error = await settled;
    expect(error).toMatchObject({ code: "closed:workspace", publicCode: "cancelled" });
    // run() settles only after the worker's exit event: nothing is left running.
    expect(grepWorkerCounts()).toEqual({ started: before.started + 1, live: before.live });
  });

  it("terminates the worker when the tool runtime times the call out", async () => {
    await using f = await workspaceFixture();
    await f.write("evil.txt", `${EVIL_LINE}\n`);
    const registry = createToolRegistry();
    for (const tool of workspaceTools({ grepTimeoutMs: 60_000 })) registry.register(tool);
    const runtime = createToolRuntime({ registry, defaults: { timeoutMs: 300 } });
    const before = grepWorkerCounts();

    const outcome = await runtime.invoke({
      sessionId: "s", workspace: f.ws, callId: "c1", name: "grep", args: { pattern: EVIL_PATTERN }, signal: new AbortController().signal,
    });
    expect(outcome.error?.code).toBe("timeout");
    expect(grepWorkerCounts().started).toBe(before.started + 1);
    // The runtime does not wait for the tool, but the abort it sends must end the worker promptly.
    await until(() => grepWorkerCounts().live === before.live, 2_000);
  });

  it("rejects an invalid pattern on the main thread without starting a worker", async () => {
    await using f = await workspaceFixture();
    await f.write("a.txt", "x\n");
    const before = grepWorkerCounts();
    expect((await f.call("grep", { pattern: "(a+" })).error?.code).toBe("invalid_arguments");
    expect((await f.call("grep", { pattern: "a", glob: "[z-a]" })).error?.code).toBe("invalid_arguments");
    expect(grepWorkerCounts()).toEqual(before);
  });

  it("returns the usual results from one worker per call, which has exited when the call returns", async () => {
    await using f = await workspaceFixture({ grepTimeoutMs: 10_000 });
    await f.write("src/evil.txt", `${EVIL_LINE}\n`);
    await f.write("src/b.ts", "const x = 1;\n  needle here  \n");
    await f.write("notes.md", "needle\n");
    const before = grepWorkerCounts();
    const outcome = await f.call("grep", { pattern: "NEEDLE|a{40}b", ignoreCase: true, glob: "src/**" });
    expect(outcome.status).toBe("ok");
    expect((outcome.canonical as GrepResult)).toEqual({
      matches: [
        { path: "src/b.ts", line: 2, text: "needle here" },
        { path: "src/evil.txt", line: 1, text: EVIL_LINE },
      ],
      truncated: false,
      filesScanned: 2,
      skipped: { tooLarge: 0, binary: 0, symlinks: 0 },
    });
    expect(outcome.rendered).toBe(`src/b.ts:2: needle here\nsrc/evil.txt:1: ${EVIL_LINE}\n[2 matches; 2 files searched.]`);
    expect(grepWorkerCounts()).toEqual({ started: before.started + 1, live: 0 });
  });
});
