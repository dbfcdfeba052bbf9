import { mkdir, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_DIR, create } from "../../src/skills/skills.js";
import { findProjectRoot, rootSpecs } from "../../src/skills/roots.js";
import { createScope } from "../../src/core/scope.js";
import { quietLog, roots, skillsFixture, skillText } from "./fixture.js";

describe("filesystem roots (SKL-2)", () => {
  it("ranks the six roots; custom roots keep their order; duplicates keep the better rank", () => {
    const specs = rootSpecs({ projectRoot: "/p", customRoots: ["/c1", "~/c2"], userHome: "/h", bundledDir: "/b" });
    expect(specs.map((s) => [s.path, s.rank, s.source])).toEqual([
      ["/p/.dsh/skills", 100, "project-dsh"],
      ["/p/.agents/skills", 200, "project-agents"],
      ["/c1", 300, "custom"],
      ["/h/c2", 300, "custom"],
      ["/h/.dsh/skills", 400, "user-dsh"],
      ["/h/.agents/skills", 500, "user-agents"],
      ["/b", 600, "bundled"],
    ]);
    const same = rootSpecs({ projectRoot: "/h", customRoots: [], userHome: "/h" });
    expect(same.map((s) => s.source)).toEqual(["project-dsh", "project-agents"]);
  });

  it("the project root is the nearest ancestor with .git, else the workspace", async () => {
    await using fx = await skillsFixture();
    expect(await findProjectRoot(fx.workspace)).toBe(fx.project);
    await writeFile(join(fx.workspace, ".git"), "gitdir: elsewhere\n"); // a worktree's .git file counts too
    expect(await findProjectRoot(fx.workspace)).toBe(fx.workspace);
    const loose = join(fx.base, "loose", "deep");
    await mkdir(loose, { recursive: true });
    expect(await findProjectRoot(loose)).toBe(loose);
  });

  it("the project root beats the user root; .dsh beats .agents; the loser is shadowed", async () => {
    await using fx = await skillsFixture();
    await fx.bundle(roots.userDsh, "review", "user review");
    await fx.bundle(roots.projectAgents, "review", "project-agents review");
    await fx.bundle(roots.userAgents, "deploy", "user-agents deploy");
    await fx.bundle(roots.userDsh, "deploy", "user-dsh deploy");
    await fx.bundle(roots.projectDsh, "lint", "project lint");
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.complete).toBe(true);
    expect(obs.candidates.map((c) => [c.name, c.source, c.rank])).toEqual([
      ["deploy", "user-dsh", 400],
      ["lint", "project-dsh", 100],
      ["review", "project-agents", 200],
    ]);
    const view = await fx.skills.inspect(fx.workspace);
    const review = view.candidates.filter((c) => c.name === "review");
    expect(review.map((c) => [c.source, c.winner, c.shadowedBy?.source ?? null])).toEqual([["project-agents", true, null], ["user-dsh", false, "project-agents"]]);
  });

  it("a session-layer runtime skill beats a project file of the same name; a global one does not", async () => {
    await using fx = await skillsFixture();
    await fx.bundle(roots.projectDsh, "review", "project review");
    fx.skills.register({ name: "review", description: "global runtime", body: "g" });
    expect((await fx.skills.get("review", fx.workspace))?.source).toBe("project-dsh");
    fx.skills.register({ name: "review", description: "session runtime", body: "session body" }, { layer: "session:s1" });
    expect((await fx.skills.get("review", fx.workspace, ["session:s1"]))?.body).toBe("session body");
    expect((await fx.skills.get("review", fx.workspace, ["session:s2"]))?.source).toBe("project-dsh");
  });

  it("reads bundles and flat files, skips dot folders (.system) and other files, does not recurse", async () => {
    await using fx = await skillsFixture();
    await fx.bundle(roots.userAgents, "bundle-one", "a bundle");
    await fx.write(`${roots.userAgents}/bundle-one/scripts/helper.sh`, "echo hi\n");
    await fx.write(`${roots.userAgents}/flat-one.md`, skillText("flat-one", "a flat skill"));
    await fx.bundle(`${roots.userAgents}/.system`, "harness-only", "not for users");
    await fx.write(`${roots.userAgents}/notes.txt`, "not a skill");
    await fx.bundle(`${roots.userAgents}/group`, "nested", "too deep");
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.candidates.map((c) => c.name)).toEqual(["bundle-one", "flat-one"]);
    expect(obs.diagnostics.map((d) => [d.path.slice(fx.base.length + 1), d.reason])).toEqual([
      [`${roots.userAgents}/group`, "folder has no SKILL.md"],
    ]);
    const bundle = await fx.skills.get("bundle-one", fx.workspace);
    expect(bundle?.resourceBase).toEqual({ kind: "directory", path: join(fx.base, roots.userAgents, "bundle-one") });
  });

  it("custom roots from settings rank 300, between project and user", async () => {
    await using fx = await skillsFixture();
    await fx.bundle("custom-a", "shared", "custom a");
    await fx.bundle("custom-b", "shared", "custom b");
    await fx.bundle("custom-b", "only-b", "custom b only");
    await fx.bundle(roots.userDsh, "shared", "user");
    await fx.bundle(roots.projectAgents, "only-b", "project");
    expect((await fx.skills.list(fx.workspace)).candidates.find((c) => c.name === "shared")?.source).toBe("user-dsh");
    await fx.skills.settings.set({ customRoots: [join(fx.base, "custom-a"), join(fx.base, "custom-b")] });
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.candidates.map((c) => [c.name, c.description])).toEqual([["only-b", "project"], ["shared", "custom a"]]);
    expect(await fx.skills.settings.get()).toEqual({ customRoots: [join(fx.base, "custom-a"), join(fx.base, "custom-b")] });
    await expect(fx.skills.settings.set({ customRoots: ["relative/path"] })).rejects.toMatchObject({ code: "bad_input:skills" });
    await expect(fx.skills.settings.set({ customRoots: ["/x", "/x"] })).rejects.toThrow(/only once/);
  });

  it("ships a bundled skill that parses cleanly", async () => {
    const base = await realpath(process.cwd());
    await using scope = createScope("bundled");
    const skills = create(scope, {
      store: { items: { list: async () => [] }, settings: { get: async () => undefined, set: async () => {} } },
      userHome: join(base, "no-such-home"), watch: false, log: quietLog(),
    });
    const obs = await skills.list(join(base, "no-such-home"));
    expect(BUNDLED_DIR.endsWith(join("skills", "bundled/"))).toBe(true);
    expect(obs.diagnostics).toEqual([]);
    expect(obs.candidates.map((c) => [c.name, c.source, c.rank])).toEqual([["seam-workspace", "bundled", 600]]);
  });
});

describe("symlinks stay inside their root (SEC-3)", () => {
  it("follows a symlinked skill folder inside the root and refuses one that escapes", async () => {
    await using fx = await skillsFixture();
    const root = join(fx.base, roots.userDsh);
    await fx.bundle(`${roots.userDsh}/.store`, "real-skill", "stored in a dot folder", { frontmatterName: null });
    await fx.link(`${roots.userDsh}/linked`, join(root, ".store", "real-skill"));
    await fx.bundle("outside", "escaper", "outside the root", { frontmatterName: null });
    await fx.link(`${roots.userDsh}/escaper`, join(fx.base, "outside", "escaper"));
    await fx.write("outside/flat.md", skillText("flat", "outside flat"));
    await fx.link(`${roots.userDsh}/flat.md`, join(fx.base, "outside", "flat.md"));
    await fx.bundle(roots.userDsh, "inner-link", "skill.md is a link out", { frontmatterName: null });
    await fx.remove(`${roots.userDsh}/inner-link/SKILL.md`);
    await fx.link(`${roots.userDsh}/inner-link/SKILL.md`, join(fx.base, "outside", "escaper", "SKILL.md"));

    const obs = await fx.skills.list(fx.workspace);
    expect(obs.candidates.map((c) => c.name)).toEqual(["linked"]);
    const reasons = Object.fromEntries(obs.diagnostics.map((d) => [d.path.slice(root.length + 1), d.reason]));
    expect(reasons.escaper).toMatch(/outside its root/);
    expect(reasons["flat.md"]).toMatch(/outside its root/);
    expect(reasons["inner-link/SKILL.md"]).toMatch(/outside its root/);
    expect((await fx.skills.get("linked", fx.workspace))?.body).toContain("Do the thing.");
  });

  it("a skill file swapped for an escaping symlink after listing is not loaded", async () => {
    await using fx = await skillsFixture();
    await fx.bundle(roots.userDsh, "swap", "will be swapped");
    expect((await fx.skills.list(fx.workspace)).candidates.map((c) => c.name)).toEqual(["swap"]);
    await fx.bundle("outside", "swap", "evil");
    await fx.remove(`${roots.userDsh}/swap/SKILL.md`);
    await fx.link(`${roots.userDsh}/swap/SKILL.md`, join(fx.base, "outside", "swap", "SKILL.md"));
    expect(await fx.skills.get("swap", fx.workspace)).toBeNull();
  });
});

describe("diagnostics, never crashes (SKL-3)", () => {
  it("malformed skills become diagnostics and the rest load", async () => {
    await using fx = await skillsFixture();
    await fx.bundle(roots.projectDsh, "good", "works");
    await fx.write(`${roots.projectDsh}/broken/SKILL.md`, "---\nname: broken\ndescription: [unclosed\n---\nbody\n");
    await fx.write(`${roots.projectDsh}/no-front.md`, "# Just markdown\n");
    await fx.write(`${roots.projectDsh}/Bad_Name.md`, skillText("Bad_Name", "x"));
    await fx.bundle(roots.projectDsh, "mismatch", "renamed", { frontmatterName: "other-name" });
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.complete).toBe(true);
    expect(obs.candidates.map((c) => c.name)).toEqual(["good"]);
    const byFile = Object.fromEntries(obs.diagnostics.map((d) => [d.path.split("/skills/")[1], d.reason]));
    expect(byFile["broken/SKILL.md"]).toMatch(/invalid YAML/);
    expect(byFile["no-front.md"]).toMatch(/missing frontmatter/);
    expect(byFile["Bad_Name.md"]).toMatch(/not a valid skill name/);
    expect(byFile["mismatch/SKILL.md"]).toBe('frontmatter name "other-name" does not match the folder name "mismatch"');
    expect(obs.diagnostics.every((d) => d.severity === "error")).toBe(true);
  });

  it("an alias bomb is refused at listing: not listed, a diagnostic, the rest load", async () => {
    await using fx = await skillsFixture();
    const levels = ['  l0: &l0 "lol"', ...Array.from({ length: 9 }, (_, i) => `  l${i + 1}: &l${i + 1} [${Array(10).fill(`*l${i}`).join(", ")}]`)];
    await fx.write(`${roots.projectDsh}/laughs/SKILL.md`, ["---", "name: laughs", "description: ten to the ninth lols", "metadata:", ...levels, "---", "body"].join("\n"));
    await fx.bundle(roots.projectDsh, "good", "works");
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.complete).toBe(true);
    expect(obs.candidates.map((c) => c.name)).toEqual(["good"]);
    expect(obs.diagnostics).toEqual([expect.objectContaining({ path: expect.stringMatching(/laughs\/SKILL\.md$/), severity: "error", name: "laughs", reason: expect.stringMatching(/aliases repeat more data than the file holds/) })]);
    expect(await fx.skills.get("laughs", fx.workspace)).toBeNull();
  });

  it("the body is re-read after an edit with no invalidation; a renamed skill is rejected", async () => {
    await using fx = await skillsFixture();
    const file = await fx.bundle(roots.projectDsh, "evolving", "changes", { body: "version one\n" });
    expect((await fx.skills.get("evolving", fx.workspace))?.body).toBe("version one\n");
    await writeFile(file, skillText("evolving", "changes", { body: "version two\n" }));
    expect((await fx.skills.get("evolving", fx.workspace))?.body).toBe("version two\n");

    const revision = fx.skills.registry.revision;
    await writeFile(file, skillText("renamed-now", "changes", { body: "version three\n" }));
    expect(await fx.skills.get("evolving", fx.workspace)).toBeNull();
    expect(fx.skills.registry.revision).toBeGreaterThan(revision);
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.candidates).toEqual([]);
    expect(obs.diagnostics[0]?.reason).toMatch(/does not match the folder name/);
  });

  it("invalidate(path) drops the cache for writes into a root and ignores others", async () => {
    await using fx = await skillsFixture();
    await fx.skills.list(fx.workspace);
    const path = await fx.bundle(roots.projectDsh, "written", "by a tool");
    expect((await fx.skills.list(fx.workspace)).candidates).toEqual([]); // cached, no watcher
    expect(fx.skills.invalidate(join(fx.base, "elsewhere", "x.md"))).toBe(false);
    expect(fx.skills.invalidate(path)).toBe(true);
    expect((await fx.skills.list(fx.workspace)).candidates.map((c) => c.name)).toEqual(["written"]);
  });
});
