import { describe, expect, it } from "vitest";
import type { TimelineItem } from "@seam/shared";
import { startScriptedModel } from "../../../../packages/testkit/src/index.js";
import { createStepHooks } from "../../src/agent/hooks.js";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime } from "../../src/agent/runtime.js";
import { createSessionService } from "../../src/agent/session.js";
import { createModel } from "../../src/llm/llm.js";
import { createSecretSource } from "../../src/llm/secrets.js";
import { openDatabase } from "../../src/persistence/db.js";
import { create, sessionScopes } from "../../src/skills/skills.js";
import { quietLog, roots, skillsFixture } from "./fixture.js";

const show = (i: TimelineItem) =>
  i.kind === "fact" ? `fact:${i.factKind}` : i.kind === "message" ? `${i.role}:${i.text}` : `tool:${i.name}:${i.status}`;

describe("skills in a live session (wiring as host.ts would do it)", () => {
  it("the catalog is injected before the first step, the model loads a skill, later turns stay quiet until skills change", async () => {
    const model = await startScriptedModel({
      scripts: [{ name: "skills", turns: [{ match: "", steps: [{ toolCalls: [{ name: "skill", args: { name: "alpha" } }] }, { text: ["done"] }] }] }],
    });
    await using fx = await skillsFixture();
    try {
      await fx.bundle(roots.projectDsh, "alpha", "First skill", { body: "ALPHA BODY\n" });
      const db = await openDatabase(fx.scope.child("db"), { home: `${fx.base}/data` });
      const skills = create(fx.scope.child("skills"), { store: db.store, userHome: fx.home, bundledDir: null, watch: false, log: quietLog() });
      const registry = createToolRegistry();
      registry.register(skills.skillTool);
      const hooks = createStepHooks();
      hooks.add("skills:catalog", skills.catalogHook());
      const llm = createModel({ provider: "openai-compatible", baseURL: model.baseURL, model: "skills", maxSteps: 5 }, createSecretSource({ home: fx.base, env: {} }));
      const sessions = createSessionService(fx.scope.child("sessions"), {
        store: db.store, registry, runtime: createToolRuntime({ registry }), hooks, model: async () => ({ model: llm, maxSteps: 5 }),
      });
      const session = await sessions.create({ workspace: fx.workspace });
      const turn = async (text: string) => {
        await sessions.send({ sessionId: session.id, text });
        let detail = await sessions.detail(session.id);
        while (detail.session.running) {
          await new Promise((r) => setTimeout(r, 10));
          detail = await sessions.detail(session.id);
        }
        return detail.items;
      };

      const first = await turn("hello");
      expect(first.map(show)).toEqual(["user:hello", "fact:skills_catalog", "tool:skill:ok", "assistant:done"]);
      const call = first.find((i) => i.kind === "tool_call");
      expect(call?.kind === "tool_call" && call.rendered).toContain("ALPHA BODY");
      const requests = model.requests().map((r) => JSON.stringify(r.body));
      expect(requests[0]).toContain("<available_skills>");
      expect(requests[1]).toContain('<skill_content name=\\"alpha\\">');

      const second = await turn("again");
      expect(second.slice(first.length).map(show)).toEqual(["user:again", "tool:skill:ok", "assistant:done"]);

      await fx.bundle(roots.projectDsh, "beta", "Second skill");
      skills.invalidate(`${fx.base}/${roots.projectDsh}/beta/SKILL.md`);
      const third = await turn("third");
      expect(third.slice(second.length).map(show)).toEqual(["user:third", "fact:skills_catalog", "tool:skill:ok", "assistant:done"]);
    } finally {
      await model.close();
    }
  });
  it("a session created or opened has its workspace's catalog ready before its first message; a failing hook harms nothing", async () => {
    await using fx = await skillsFixture();
    const db = await openDatabase(fx.scope.child("db"), { home: `${fx.base}/data` });
    const skills = create(fx.scope.child("skills"), { store: db.store, userHome: fx.home, bundledDir: null, watch: false, log: quietLog() });
    const listed: string[] = [];
    skills.addProvider({ id: "counting", list: async (q) => { listed.push(q.cwd ?? ""); return []; }, get: async () => null });
    const registry = createToolRegistry();
    const sessions = createSessionService(fx.scope.child("sessions"), {
      store: db.store, registry, runtime: createToolRuntime({ registry }), hooks: createStepHooks(), model: async () => null,
    });
    fx.scope.add(sessions.onOpened(() => { throw new Error("a hook that fails"); }), "failing");
    fx.scope.add(sessions.onOpened(({ id, workspace }) => skills.prepare(workspace, id)), "prepare");
    const until = async (n: number) => { while (listed.length < n) await new Promise((r) => setTimeout(r, 5)); };

    const session = await sessions.create({ workspace: fx.workspace });
    await until(1);
    expect(listed).toEqual([fx.workspace]);
    // The first step's list is the one prepared: served from the cache, no new scan.
    const observation = await skills.list(fx.workspace, sessionScopes(session.id));
    expect(observation.complete).toBe(true);
    expect(listed).toHaveLength(1);
    // Opening it again while nothing changed scans nothing; after a change, opening it gets the new list ready.
    await sessions.detail(session.id);
    await new Promise((r) => setTimeout(r, 20));
    expect(listed).toHaveLength(1);
    skills.invalidate(`${fx.base}/${roots.projectDsh}/x/SKILL.md`);
    await sessions.detail(session.id);
    await until(2);
    expect(listed).toEqual([fx.workspace, fx.workspace]);
  });
});
