import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Entry } from "../../src/skills/registry.js";
import type { WatcherFactory, WatchRequest } from "../../src/skills/watch.js";
import { roots, skillsFixture, type SkillsFixture } from "./fixture.js";

const nextChange = (skills: { onChange(fn: (e: { reason: string }) => void): () => void }, match: (reason: string) => boolean = () => true) =>
  new Promise<string>((resolve) => {
    const off = skills.onChange((e) => {
      if (!match(e.reason)) return;
      off();
      resolve(e.reason);
    });
  });

/** Reads the catalog again on every change until a candidate matches (a root is armed and scanned a little later). */
async function listUntil(fx: SkillsFixture, match: (candidate: Entry) => boolean): Promise<void> {
  for (;;) {
    const waiting = nextChange(fx.skills);
    const obs = await fx.skills.list(fx.workspace);
    if (obs.candidates.some(match)) return;
    await waiting;
  }
}

describe("host watchers (SKL-4, chokidar)", () => {
  it("a new skill file shows up after the change event, without explicit invalidation", async () => {
    await using fx = await skillsFixture({ watch: true });
    await fx.bundle(roots.projectDsh, "first", "already there");
    expect((await fx.skills.list(fx.workspace)).candidates.map((c) => c.name)).toEqual(["first"]);
    const changed = nextChange(fx.skills);
    await fx.bundle(roots.projectDsh, "second", "added later");
    await changed;
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.complete).toBe(true);
    expect(obs.candidates.map((c) => c.name)).toContain("second");
  });

  it("a root that does not exist yet is followed from its nearest existing ancestor", async () => {
    await using fx = await skillsFixture({ watch: true });
    expect((await fx.skills.list(fx.workspace)).candidates).toEqual([]);
    const changed = nextChange(fx.skills);
    await fx.bundle(roots.userAgents, "late", "root created after the first read");
    await changed;
    await listUntil(fx, (c) => c.name === "late");
  });

  it("a removed root is noticed and followed again when it comes back", async () => {
    await using fx = await skillsFixture({ watch: true });
    await fx.bundle(roots.userDsh, "comes-and-goes", "here");
    expect((await fx.skills.list(fx.workspace)).candidates.map((c) => c.name)).toEqual(["comes-and-goes"]);
    const removed = nextChange(fx.skills);
    await fx.remove("home/.dsh");
    await removed;
    const gone = await fx.skills.list(fx.workspace);
    expect(gone.candidates).toEqual([]);
    const back = nextChange(fx.skills);
    await fx.bundle(roots.userDsh, "comes-and-goes", "back");
    await back;
    await listUntil(fx, (c) => c.description === "back");
  });

  it("resource files inside a bundle do not invalidate the catalog; entries and SKILL.md do", async () => {
    const requests: WatchRequest[] = [];
    const fake: WatcherFactory = async (r) => (requests.push(r), { close: async () => {} });
    await using fx = await skillsFixture({ watch: fake });
    await mkdir(join(fx.base, roots.projectDsh), { recursive: true });
    await fx.skills.list(fx.workspace);
    const root = join(fx.base, roots.projectDsh);
    const request = requests.find((r) => r.path === root)!;
    expect(request.kind).toBe("root");
    const reasons: string[] = [];
    fx.skills.onChange((e) => void reasons.push(e.reason));
    request.onEvent("add", join(root, "pdf", "scripts", "run.sh"));
    request.onEvent("change", join(root, "pdf", "reference.md"));
    request.onEvent("add", join(root, "notes.txt"));
    request.onEvent("add", join(root, ".system", "x.md"));
    expect(reasons).toEqual([]);
    request.onEvent("change", join(root, "pdf", "SKILL.md"));
    request.onEvent("addDir", join(root, "new-skill"));
    request.onEvent("unlink", join(root, "flat.md"));
    expect(reasons).toHaveLength(3);
    expect(request.ignored(join(root, "pdf", "scripts"))).toBe(true);
    expect(request.ignored(join(root, "pdf", "SKILL.md"))).toBe(false);
  });

  it("bounds the watched projects; dropping one invalidates", async () => {
    const opened: string[] = [];
    const closed: string[] = [];
    const fake: WatcherFactory = async (r) => (opened.push(r.path), { close: async () => void closed.push(r.path) });
    await using fx = await skillsFixture({ watch: fake, maxWatchedProjects: 1 });
    const other = join(fx.base, "other");
    await mkdir(join(other, ".git"), { recursive: true });
    await fx.skills.list(fx.workspace);
    const reasons: string[] = [];
    fx.skills.onChange((e) => void reasons.push(e.reason));
    await fx.skills.list(other);
    expect(reasons.some((r) => r.startsWith(`stopped watching project ${fx.project}`))).toBe(true);
    expect(closed.length).toBeGreaterThanOrEqual(1);
  });

  it("a watcher that cannot start gives incomplete observations, and direct loads still work", async () => {
    const broken: WatcherFactory = async () => { throw new Error("ENOSPC: System limit for number of file watchers reached"); };
    await using fx = await skillsFixture({ watch: broken });
    await fx.bundle(roots.projectDsh, "still-loads", "direct load");
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.complete).toBe(false);
    expect(obs.candidates.map((c) => c.name)).toEqual(["still-loads"]);
    expect((await fx.skills.get("still-loads", fx.workspace))?.body).toContain("Do the thing.");
  });

  it("disposing the capability's scope closes every watcher", async () => {
    const open = new Set<string>();
    const fake: WatcherFactory = async (r) => (open.add(r.path), { close: async () => void open.delete(r.path) });
    const fx = await skillsFixture({ watch: fake });
    await fx.skills.list(fx.workspace);
    expect(open.size).toBeGreaterThan(0);
    await fx[Symbol.asyncDispose]();
    expect(open.size).toBe(0);
  });
});
