import { describe, expect, it, vi } from "vitest";
import { createLog } from "../../src/core/log.js";
import { createScope, DisposeError, SLOW_DISPOSE_MS, type SlowDispose } from "../../src/core/scope.js";

describe("Scope (CORE-10)", () => {
  it("runs teardowns last-in first-out, once, even when disposed twice", async () => {
    const scope = createScope("test");
    const ran: string[] = [];
    scope.add(() => void ran.push("a"), "a");
    scope.add(async () => void ran.push("b"), "b");
    await scope.effect(() => () => void ran.push("c"), "c");
    await Promise.all([scope.dispose(), scope.dispose()]);
    await scope.dispose();
    expect(ran).toEqual(["c", "b", "a"]);
    expect(scope.disposed).toBe(true);
  });

  it("keeps running teardowns after one throws and reports the failed label", async () => {
    const scope = createScope("test");
    const ran: string[] = [];
    scope.add(() => void ran.push("first"), "first");
    scope.add(() => { throw new Error("boom"); }, "broken");
    scope.add(() => void ran.push("last"), "last");
    const error = await scope.dispose().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DisposeError);
    const failure = error as DisposeError;
    expect(failure.failures.map((f) => f.label)).toEqual(["broken"]);
    expect(failure.message).toContain("broken");
    expect(ran).toEqual(["last", "first"]);
    // The second dispose reports the same outcome and runs nothing again.
    await expect(scope.dispose()).rejects.toBe(error);
    expect(ran).toEqual(["last", "first"]);
  });

  it("runs an early disposer once and forgets it", async () => {
    const scope = createScope("test");
    let count = 0;
    const early = scope.add(() => void count++, "counted");
    await early();
    await early();
    await scope.dispose();
    expect(count).toBe(1);
  });

  it("disposes children with the parent, before the parent's earlier entries", async () => {
    const parent = createScope("parent");
    const ran: string[] = [];
    parent.add(() => void ran.push("parent-first"), "first");
    const child = parent.child("child");
    child.add(() => void ran.push("child-a"), "a");
    child.add(() => void ran.push("child-b"), "b");
    parent.add(() => void ran.push("parent-last"), "last");
    await parent.dispose();
    expect(ran).toEqual(["parent-last", "child-b", "child-a", "parent-first"]);
    expect(child.disposed).toBe(true);
    expect(child.label).toBe("parent/child");
  });

  it("labels a child's failing teardown with the child path", async () => {
    const parent = createScope("parent");
    parent.child("kid").add(() => { throw new Error("nope"); }, "leaky");
    const error = await parent.dispose().catch((e: unknown) => e);
    expect((error as DisposeError).failures.map((f) => f.label)).toEqual(["kid/leaky"]);
  });

  it("forgets a separately disposed child, so the parent does not run it again", async () => {
    const parent = createScope("parent");
    let teardowns = 0;
    const child = parent.child("child");
    child.add(() => void teardowns++, "count");
    await child.dispose();
    await parent.dispose();
    expect(teardowns).toBe(1);
  });

  it("does not keep 10,000 children that were created and disposed one after another", async () => {
    const parent = createScope("parent");
    let childTeardowns = 0;
    for (let i = 0; i < 10_000; i++) {
      const child = parent.child(`c${i}`);
      child.add(() => {
        childTeardowns++;
        throw new Error(`child ${i} failed`);
      }, "failing");
      await expect(child.dispose()).rejects.toBeInstanceOf(DisposeError);
    }
    const ran: string[] = [];
    parent.add(() => void ran.push("own"), "own");
    // A child still listed in the parent would re-report its failure here.
    await expect(parent.dispose()).resolves.toBeUndefined();
    expect(childTeardowns).toBe(10_000);
    expect(ran).toEqual(["own"]);
  });

  it("disposes a resource acquired by effect() after dispose started and rejects the effect", async () => {
    const scope = createScope("test");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let released = 0;
    const pending = scope.effect(async () => {
      await gate;
      return () => void released++;
    }, "slow");
    await scope.dispose();
    release();
    await expect(pending).rejects.toThrow(/disposed while "slow" started/);
    expect(released).toBe(1);
  });

  it("keeps a failing late release as the cause of the effect's rejection", async () => {
    const scope = createScope("test");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const pending = scope.effect(async () => {
      await gate;
      return () => { throw new Error("release failed"); };
    }, "slow");
    await scope.dispose();
    release();
    const error = (await pending.then(() => null, (e: unknown) => e)) as Error;
    expect(error.message).toMatch(/disposed while "slow" started/);
    expect((error.cause as Error).message).toBe("release failed");
  });

  it("refuses new registrations once disposed", async () => {
    const scope = createScope("test");
    await scope.dispose();
    expect(() => scope.add(() => {}, "late")).toThrow(/disposed/);
    expect(() => scope.child("late")).toThrow(/disposed/);
    await expect(scope.effect(() => () => {}, "late")).rejects.toThrow(/disposed/);
  });

  it("aborts its signal when dispose starts, before teardowns run", async () => {
    const scope = createScope("test");
    let abortedDuringTeardown = false;
    scope.add(() => void (abortedDuringTeardown = scope.signal.aborted), "check");
    expect(scope.signal.aborted).toBe(false);
    await scope.dispose();
    expect(scope.signal.aborted).toBe(true);
    expect(abortedDuringTeardown).toBe(true);
  });

  it("supports await using", async () => {
    const ran: string[] = [];
    {
      await using scope = createScope("test");
      scope.add(() => void ran.push("a"), "a");
      scope.add(() => void ran.push("b"), "b");
      expect(ran).toEqual([]);
    }
    expect(ran).toEqual(["b", "a"]);
  });
});

describe("Scope slow-dispose warning (CORE-10)", () => {
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open };
  };
  const warnings = () => {
    const seen: { message: string; data: SlowDispose }[] = [];
    return { seen, warn: (message: string, data: SlowDispose) => void seen.push({ message, data }) };
  };

  it("warns once, naming the scope and the teardowns still pending, when dispose outlives the threshold", async () => {
    const { seen, warn } = warnings();
    const scope = createScope("svc", { slowDisposeMs: 20, warn });
    const slow = gate();
    const ran: string[] = [];
    scope.add(() => void ran.push("first"), "first");
    scope.add(() => slow.opened, "stuck");
    scope.add(() => void ran.push("last"), "last");
    const disposing = scope.dispose();
    await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 2_000, interval: 5 });
    expect(seen[0]!.data).toMatchObject({ scope: "svc", pending: ["stuck", "first"] });
    expect(seen[0]!.data.elapsedMs).toBeGreaterThanOrEqual(15);
    expect(seen[0]!.message).toMatch(/^scope "svc" is still disposing after \d+ ms; pending: stuck, first$/);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(seen).toHaveLength(1);
    slow.open();
    await disposing;
    expect(ran).toEqual(["last", "first"]);
    expect(seen).toHaveLength(1);
  });

  it("stays quiet when dispose finishes in time", async () => {
    const { seen, warn } = warnings();
    const scope = createScope("quick", { slowDisposeMs: 50, warn });
    scope.add(() => new Promise<void>((resolve) => setTimeout(resolve, 5)), "brief");
    await scope.dispose();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([]);
  });

  it("reports a stuck teardown inside a child once, through the parent, with the child path", async () => {
    const { seen, warn } = warnings();
    const parent = createScope("host", { slowDisposeMs: 20, warn });
    const slow = gate();
    parent.add(() => {}, "db");
    const session = parent.child("s1");
    session.child("mcp").add(() => slow.opened, "server");
    session.add(() => {}, "after-mcp");
    const disposing = parent.dispose();
    await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 2_000, interval: 5 });
    expect(seen[0]!.data).toMatchObject({ scope: "host", pending: ["s1/mcp/server", "db"] });
    slow.open();
    await disposing;
    // The child scopes inherited the threshold but did not warn on their own.
    expect(seen).toHaveLength(1);
  });

  it("lets a child disposed on its own warn under its full label", async () => {
    const { seen, warn } = warnings();
    const parent = createScope("host", { slowDisposeMs: 20, warn });
    const slow = gate();
    const child = parent.child("session");
    child.add(() => slow.opened, "loop");
    const disposing = child.dispose();
    await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 2_000, interval: 5 });
    expect(seen[0]!.data).toMatchObject({ scope: "host/session", pending: ["loop"] });
    slow.open();
    await disposing;
    await parent.dispose();
    expect(seen).toHaveLength(1);
  });

  it("defaults to console.error after 10 s, accepts a Log's warn, and survives a throwing logger", async () => {
    expect(SLOW_DISPOSE_MS).toBe(10_000);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const slow = gate();
      const scope = createScope("defaults", { slowDisposeMs: 10 });
      scope.add(() => slow.opened, "stuck");
      const disposing = scope.dispose();
      await vi.waitFor(() => expect(errors).toHaveBeenCalledTimes(1), { timeout: 2_000, interval: 5 });
      expect(errors.mock.calls[0]![0]).toMatch(/scope "defaults" is still disposing after .*; pending: stuck/);
      slow.open();
      await disposing;
    } finally {
      errors.mockRestore();
    }

    const lines: string[] = [];
    const log = createLog("scope", (line) => lines.push(line));
    const slow = gate();
    const logged = createScope("logged", { slowDisposeMs: 10, warn: log.warn });
    logged.add(() => slow.opened, "stuck");
    const disposing = logged.dispose();
    await vi.waitFor(() => expect(lines).toHaveLength(1), { timeout: 2_000, interval: 5 });
    expect(lines[0]).toMatch(/ WARN \[scope\] scope "logged" is still disposing .*"pending":\["stuck"\]/);
    slow.open();
    await disposing;

    const late = gate();
    const broken = createScope("broken", { slowDisposeMs: 10, warn: () => { throw new Error("logger down"); } });
    let ran = false;
    broken.add(() => void (ran = true), "after");
    broken.add(() => late.opened, "stuck");
    const pending = broken.dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    late.open();
    await expect(pending).resolves.toBeUndefined();
    expect(ran).toBe(true);
  });

  it("can be turned off with Infinity", async () => {
    const { seen, warn } = warnings();
    const scope = createScope("off", { slowDisposeMs: Infinity, warn });
    scope.add(() => new Promise<void>((resolve) => setTimeout(resolve, 40)), "slowish");
    await scope.dispose();
    expect(seen).toEqual([]);
  });
});
