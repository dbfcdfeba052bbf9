import { describe, expect, it } from "vitest";
import { createScope } from "../src/core/scope.js";
import { createHost } from "../src/host.js";
import { shellParserLoaded } from "../src/permissions/shell.js";
import { warmUp } from "../src/warm-up.js";
import { mkdtempSync, rmSync } from "node:fs";
import { HostError } from "../src/core/errors.js";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("warm-up after start (#17 item 2)", () => {
  it("a host starts without the bash grammar; its warm-up loads it", async () => {
    const home = mkdtempSync(join(tmpdir(), "seam-warm-"));
    const scope = createScope("warm");
    try {
      const host = await createHost(scope, { home, env: { SEAM_MODEL_PROVIDER: "none" }, version: "test" });
      expect(shellParserLoaded()).toBe(false);
      await host.warmUp();
      expect(shellParserLoaded()).toBe(true);
      expect((await host.capabilities.list()).find((r) => r.id === "permissions")?.ready).toBe(true);
    } finally {
      await scope.dispose();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("never fails: a broken step is logged and the rest still runs", async () => {
    const ran: string[] = [];
    const errors: string[] = [];
    const log = { info: (m: string) => errors.push(m), warn: (m: string) => errors.push(m), error: (m: string) => errors.push(m) };
    await warmUp({
      log,
      model: {
        current: () => Promise.reject(new Error("no settings")),
        contextWindow: () => Promise.reject(new Error("no window")),
        toolBudget: async () => ({ maxTools: 1, maxPercent: 1, window: null }),
        resolve: () => Promise.reject(new Error("no model")),
      },
      store: { sessions: { get: async () => { ran.push("sessions"); return null; } }, items: { since: async () => [], lastFact: async () => null, lastSeq: async () => 0 }, turns: { list: async () => [], byIds: async () => [], lastEnded: async () => null }, warmWrites: async () => { ran.push("writes"); } } as never,
      registry: { visible: () => [] },
      others: [async () => { ran.push("other"); }, () => Promise.reject(new Error("grammar missing"))],
    });
    expect(ran.sort()).toEqual(["other", "sessions", "writes"]);
    expect(errors.some((e) => e.includes("no window"))).toBe(true);
    expect(errors.some((e) => e.includes("grammar missing"))).toBe(true);
    // The closing collection ran (V8's gc switched on at runtime) and reported nothing.
    expect(errors.filter((e) => e.includes("collect"))).toEqual([]);
  });
  it("builds the configured model; a model not configured yet is not a warning", async () => {
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };
    const store = { sessions: { get: async () => null }, items: { since: async () => [], lastFact: async () => null, lastSeq: async () => 0 }, turns: { list: async () => [], byIds: async () => [], lastEnded: async () => null }, warmWrites: async () => {} } as never;
    const model = (resolve: () => Promise<unknown>) => ({
      current: () => Promise.reject(new Error("unused")), contextWindow: async () => ({ value: null, source: "unknown" as const, compactAt: 0.8 }),
      toolBudget: async () => ({ maxTools: 1, maxPercent: 1, window: null }), resolve: resolve as never,
    });
    let prepared = 0;
    const configured = { model: { label: "m", stream: () => (async function* () {})(), prepare: async () => { prepared++; } }, maxSteps: 1, compactAt: 0.8 };
    await warmUp({ log, model: model(async () => configured), store, registry: { visible: () => [] }, others: [] });
    expect(prepared).toBe(1);
    expect(warnings.filter((w) => !w.includes("current"))).toEqual([]);

    // Direct mode (null) and a model whose key is missing (bad_input) are the first turn's to report.
    await warmUp({ log, model: model(async () => null), store, registry: { visible: () => [] }, others: [] });
    await warmUp({ log, model: model(() => Promise.reject(new HostError("bad_input:llm", "OPENAI_API_KEY is not set."))), store, registry: { visible: () => [] }, others: [] });
    expect(warnings.filter((w) => !w.includes("current"))).toEqual([]);
  });
});
