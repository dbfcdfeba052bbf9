import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FactItem, TimelineItem } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { createScope } from "../../src/core/scope.js";
import { openDatabase } from "../../src/persistence/db.js";
import { catalogEntries, renderCatalog } from "../../src/skills/render.js";
import { create } from "../../src/skills/skills.js";
import type { WatcherFactory } from "../../src/skills/watch.js";
import { compactionFact, fakeStep, quietLog, roots, skillsFixture, skillText } from "./fixture.js";

const facts = (items: TimelineItem[]) => items.filter((i): i is FactItem => i.kind === "fact" && i.factKind === "skills_catalog");
const names = (f: FactItem | undefined) => (f?.payload as { names: string[] } | undefined)?.names;

describe("catalog facts (SKL-6)", () => {
  it("first non-empty catalog, unchanged → nothing, changed → replacement, emptied → explicit empty", async () => {
    const items: TimelineItem[] = [];
    await using fx = await skillsFixture({ timeline: async () => items });
    const hook = fx.skills.catalogHook();
    const step = () => hook(fakeStep(items, { workspace: fx.workspace }));

    await step();
    expect(items).toEqual([]); // never had one and empty → nothing

    const beta = await fx.bundle(roots.projectDsh, "beta", "Second <skill> & \"quoted\" 'text'", { body: "secret body text\n" });
    await fx.bundle(roots.userDsh, "alpha", "First skill", { extra: ["when_to_use: When starting"] });
    await fx.bundle(roots.userDsh, "user-only", "Only for /user-only", { extra: ["model-invocable: false"] });
    fx.skills.invalidate(beta);
    await step();
    expect(facts(items)).toHaveLength(1);
    const first = facts(items)[0]!;
    expect(first.text).toBe([
      "<system-reminder>",
      "Skills are instructions for specific kinds of work. When a task matches a skill's description, call the skill tool with its name to load the instructions before you start. This list replaces any earlier list of skills.",
      "<available_skills>",
      '<skill name="alpha">',
      "<description>First skill</description>",
      "<when_to_use>When starting</when_to_use>",
      "</skill>",
      '<skill name="beta">',
      "<description>Second &lt;skill&gt; &amp; &quot;quoted&quot; &apos;text&apos;</description>",
      "</skill>",
      "</available_skills>",
      "</system-reminder>",
    ].join("\n"));
    expect(first.text).not.toContain(fx.base);
    expect(first.text).not.toContain("secret body text");
    expect(first.payload).toEqual({ digest: expect.stringMatching(/^[0-9a-f]{64}$/), names: ["alpha", "beta"] });

    await step();
    expect(facts(items)).toHaveLength(1); // unchanged digest

    await writeFile(beta, skillText("beta", "Second <skill> & \"quoted\" 'text'", { body: "a new body\n" }));
    fx.skills.invalidate(beta);
    await step();
    expect(facts(items)).toHaveLength(1); // a body edit does not change the catalog

    await fx.bundle(roots.projectAgents, "gamma", "Third");
    fx.skills.invalidate(join(fx.base, roots.projectAgents));
    await step();
    expect(facts(items)).toHaveLength(2);
    expect(names(facts(items)[1])).toEqual(["alpha", "beta", "gamma"]);

    await fx.remove("project/.dsh");
    await fx.remove("project/.agents");
    await fx.remove("home/.dsh");
    fx.skills.invalidate(join(fx.base, roots.userDsh));
    await step();
    expect(facts(items)).toHaveLength(3);
    const empty = facts(items)[2]!;
    expect(names(empty)).toEqual([]);
    expect(empty.text).toContain("<available_skills>\n</available_skills>");
    expect(empty.text).toMatch(/no longer be loaded/);

    await step();
    expect(facts(items)).toHaveLength(3);
  });

  it("after compaction hides the catalog, the next complete observation re-establishes it", async () => {
    const items: TimelineItem[] = [];
    await using fx = await skillsFixture({ timeline: async () => items });
    await fx.bundle(roots.userDsh, "alpha", "First");
    const hook = fx.skills.catalogHook();
    await hook(fakeStep(items, { workspace: fx.workspace }));
    await hook(fakeStep(items, { workspace: fx.workspace, step: 2 }));
    expect(facts(items)).toHaveLength(1);
    compactionFact(items);
    await hook(fakeStep(items, { workspace: fx.workspace, step: 3 }));
    expect(facts(items)).toHaveLength(2);
    expect(facts(items)[1]!.text).toBe(facts(items)[0]!.text);
    await hook(fakeStep(items, { workspace: fx.workspace, step: 4 }));
    expect(facts(items)).toHaveLength(2);
  });

  it("an incomplete observation (watcher down) publishes nothing and keeps the last good catalog", async () => {
    const items: TimelineItem[] = [];
    let fail = false;
    const handles: { path: string; onError(e: unknown): void }[] = [];
    const flaky: WatcherFactory = async (request) => {
      if (fail) throw new Error("inotify limit reached");
      handles.push(request);
      return { close: async () => {} };
    };
    await using fx = await skillsFixture({ timeline: async () => items, watch: flaky });
    await fx.bundle(roots.userDsh, "alpha", "First");
    const hook = fx.skills.catalogHook();
    await hook(fakeStep(items, { workspace: fx.workspace }));
    expect(names(facts(items)[0])).toEqual(["alpha"]);

    fail = true;
    handles.find((h) => h.path === join(fx.base, roots.userDsh))!.onError(new Error("watch failed")); // a running watcher dies
    await fx.remove("home/.dsh");
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.complete).toBe(false);
    expect(obs.candidates).toEqual([]);
    await hook(fakeStep(items, { workspace: fx.workspace, step: 2 }));
    expect(facts(items)).toHaveLength(1); // not the transient empty list

    expect((await fx.skills.inspect(fx.workspace)).roots.find((r) => r.source === "user-dsh")?.watch).toBe("failed");
    fail = false; // the watcher recovers at the next read
    await hook(fakeStep(items, { workspace: fx.workspace, step: 3 }));
    expect(facts(items)).toHaveLength(2);
    expect(names(facts(items)[1])).toEqual([]);
    expect(fx.warnings.join("\n")).toMatch(/keeps its last good view/);
  });

  it("caps descriptions at 500 characters without splitting characters", () => {
    const long = "é".repeat(300) + "😀".repeat(300);
    const [entry] = catalogEntries([{ name: "long", description: long, modelInvocable: true, userInvocable: true }]);
    expect(Array.from(entry!.description)).toHaveLength(500);
    expect(entry!.description.endsWith("…")).toBe(true);
    expect(renderCatalog([entry!])).toContain(entry!.description);
  });

  it("catalog facts survive a host restart: the persisted digest is the baseline", async () => {
    const dataHome = await mkdtemp(join(tmpdir(), "seam-skills-db-"));
    await using fx = await skillsFixture();
    await fx.bundle(roots.projectDsh, "alpha", "First");
    const run = async () => {
      await using scope = createScope("host");
      const db = await openDatabase(scope.child("db"), { home: dataHome });
      const sessions = await db.store.sessions.list();
      const session = sessions[0] ?? (await db.store.sessions.create({ title: "t", workspace: fx.workspace }));
      const skills = create(scope.child("skills"), { store: db.store, userHome: fx.home, bundledDir: null, watch: false, log: quietLog() });
      await skills.catalogHook()({
        sessionId: session.id, workspace: fx.workspace, turnId: "t", step: 1, signal: new AbortController().signal,
        appendFact: (f) => db.store.items.appendFact(session.id, { turnId: null, ...f }),
      });
      return (await db.store.items.list(session.id)).filter((i) => i.kind === "fact");
    };
    try {
      expect(await run()).toHaveLength(1);
      expect(await run()).toHaveLength(1);
      await fx.bundle(roots.projectDsh, "beta", "Second");
      const after = await run();
      expect(after).toHaveLength(2);
      expect(names(after[1] as FactItem)).toEqual(["alpha", "beta"]);
    } finally {
      await rm(dataHome, { recursive: true, force: true });
    }
  });
});
