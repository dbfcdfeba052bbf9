import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { SkillInspection } from "@seam/shared";
import { describe, expect, it } from "vitest";
import { PREVIEW_CHARS, PROMPT_AUTHORITY_NOTE } from "../../src/skills/inspect.js";
import { roots, skillsFixture } from "./fixture.js";

describe("skills page data (SKL-10)", () => {
  it("roots with exists/writable/prompt authority, candidates with precedence, flags, previews, diagnostics", async () => {
    await using fx = await skillsFixture();
    await fx.bundle(roots.projectDsh, "review", "project review", { body: `${"x".repeat(PREVIEW_CHARS + 10)}\n`, extra: ["license: MIT", "allowed-tools: Read Grep", "argument-hint: '[pr]'"] });
    await fx.bundle(roots.userDsh, "review", "user review", { extra: ["disable-model-invocation: true"] });
    await fx.write(`${roots.userDsh}/broken.md`, "no frontmatter\n");
    const readOnly = join(fx.base, "readonly");
    await mkdir(readOnly);
    await fx.skills.settings.set({ customRoots: [readOnly, "~/missing-custom"] });
    await chmod(readOnly, 0o555);
    fx.skills.register({ name: "session-helper", description: "runtime", body: "hi" }, { layer: "session:s9" });

    const view = await fx.skills.inspect(fx.workspace, "s9");
    expect(SkillInspection.parse(view)).toEqual(view);
    expect(view.projectRoot).toBe(fx.project);
    expect(view.complete).toBe(true);
    expect(view.promptAuthorityNote).toBe(PROMPT_AUTHORITY_NOTE);
    const rootRows = view.roots.map((r) => [r.source, r.rank, r.path.slice(fx.base.length + 1), r.exists, r.writable, r.promptAuthority, r.layer]);
    const rootIsRoot = process.getuid?.() === 0; // root can write anywhere
    expect(rootRows).toEqual([
      ["project-dsh", 100, roots.projectDsh, true, true, true, "global"],
      ["project-agents", 200, roots.projectAgents, false, true, true, "global"],
      ["custom", 300, "readonly", true, rootIsRoot, rootIsRoot, "global"],
      ["custom", 300, "home/missing-custom", false, true, true, "global"],
      ["user-dsh", 400, roots.userDsh, true, true, true, "global"],
      ["user-agents", 500, roots.userAgents, false, true, true, "global"],
    ]);

    expect(view.candidates.map((c) => [c.name, c.layer, c.source, c.winner, c.shadowedBy?.source ?? null])).toEqual([
      ["review", "global", "project-dsh", true, null],
      ["review", "global", "user-dsh", false, "project-dsh"],
      ["session-helper", "session:s9", "runtime", true, null],
    ]);
    const [winner, shadowed, runtime] = view.candidates;
    expect(winner).toMatchObject({ license: "MIT", allowedTools: ["Read", "Grep"], extraFields: ["argument-hint"], bodyTruncated: true, modelInvocable: true, userInvocable: true });
    expect(winner!.bodyPreview).toHaveLength(PREVIEW_CHARS);
    expect(shadowed).toMatchObject({ modelInvocable: false, userInvocable: true, bodyTruncated: false, path: join(fx.base, roots.userDsh, "review", "SKILL.md") });
    expect(runtime).toMatchObject({ bodyPreview: "hi", path: null, rank: 250 });
    expect(view.diagnostics).toEqual([
      { path: join(fx.base, roots.userDsh, "broken.md"), reason: expect.stringMatching(/missing frontmatter/), severity: "error", name: "broken", root: join(fx.base, roots.userDsh) },
    ]);
    await chmod(readOnly, 0o755);
  });

  it("invalid stored settings fall back to no custom roots", async () => {
    await using fx = await skillsFixture();
    fx.settings.set("skills", { customRoots: "not-a-list" });
    expect(await fx.skills.settings.get()).toEqual({ customRoots: [] });
    expect((await fx.skills.list(fx.workspace)).complete).toBe(true);
    expect(fx.warnings.join("\n")).toMatch(/stored skills settings are invalid/);
  });
});
