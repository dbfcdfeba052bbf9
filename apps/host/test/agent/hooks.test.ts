import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedModel, type ScriptedModel } from "../../../../packages/testkit/src/index.js";
import { createStepHooks } from "../../src/agent/hooks.js";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime } from "../../src/agent/runtime.js";
import { createSessionService } from "../../src/agent/session.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { createModel } from "../../src/llm/llm.js";
import { createSecretSource } from "../../src/llm/secrets.js";
import { openDatabase } from "../../src/persistence/db.js";

describe("step hooks (CORE-13 pre-step hooks)", () => {
  it("run in order, isolate failures, and can be removed", async () => {
    const hooks = createStepHooks();
    const seen: string[] = [];
    const errors: string[] = [];
    hooks.add("a", () => void seen.push("a"));
    const removeB = hooks.add("b", () => { throw new Error("boom"); });
    hooks.add("c", async () => void seen.push("c"));
    const ctx = { sessionId: "s", workspace: "/", turnId: "t", step: 1, signal: new AbortController().signal, appendFact: async () => { throw new Error("unused"); } };
    await hooks.run(ctx, (label) => errors.push(label));
    expect(seen).toEqual(["a", "c"]);
    expect(errors).toEqual(["b"]);
    removeB();
    await hooks.run(ctx, (label) => errors.push(label));
    expect(errors).toEqual(["b"]);
  });

  describe("in a real turn", () => {
    let model: ScriptedModel;
    let scope: Scope;
    let sessions: HostApi["sessions"];
    let home: string;
    const hooks = createStepHooks();

    beforeAll(async () => {
      model = await startScriptedModel({ scripts: [{ name: "hooks", turns: [{ match: "", steps: [{ text: ["done"] }] }] }] });
      home = mkdtempSync(join(tmpdir(), "seam-hooks-"));
      scope = createScope("test");
      const db = await openDatabase(scope.child("db"), { home });
      const registry = createToolRegistry();
      const secrets = createSecretSource({ home, env: {} });
      const llm = createModel({ provider: "openai-compatible", baseURL: model.baseURL, model: "hooks", maxSteps: 5 }, secrets);
      sessions = createSessionService(scope.child("sessions"), {
        store: db.store, registry, runtime: createToolRuntime({ registry }), hooks, model: async () => ({ model: llm, maxSteps: 5 }),
      });
    });
    afterAll(async () => {
      await scope.dispose();
      await model.close();
      rmSync(home, { recursive: true, force: true });
    });

    it("a fact appended before the step is persisted in order and sent to the model", async () => {
      hooks.add("catalog", async (ctx) => {
        if (ctx.step === 1) await ctx.appendFact({ factKind: "skills_catalog", text: "<system-reminder>catalog v1</system-reminder>", payload: { digest: "x" } });
      });
      const session = await sessions.create({ workspace: home });
      await sessions.send({ sessionId: session.id, text: "hello" });
      let detail = await sessions.detail(session.id);
      for (let i = 0; i < 200 && detail.session.running; i++) {
        await new Promise((r) => setTimeout(r, 10));
        detail = await sessions.detail(session.id);
      }
      expect(detail.items.map((i) => i.kind === "fact" ? `fact:${i.factKind}` : i.kind === "message" ? `${i.role}:${i.text}` : i.kind)).toEqual([
        "user:hello", "fact:skills_catalog", "assistant:done",
      ]);
      const body = model.requests().at(-1)!.body as { messages: { role: string; content: unknown }[] };
      expect(JSON.stringify(body.messages)).toContain("catalog v1");
    });
  });
});
