import { describe, expect, it } from "vitest";
import { createToolRegistry } from "../../src/agent/registry.js";
import { createToolRuntime } from "../../src/agent/runtime.js";
import { roots, skillsFixture } from "./fixture.js";

async function withTool() {
  const fx = await skillsFixture();
  const registry = createToolRegistry();
  registry.register(fx.skills.skillTool);
  const runtime = createToolRuntime({ registry });
  let n = 0;
  const call = (args: unknown, sessionId = "s1") =>
    runtime.invoke({ sessionId, workspace: fx.workspace, callId: `c${++n}`, name: "skill", args, signal: new AbortController().signal });
  return { fx, call };
}

describe("skill tool (SKL-7)", () => {
  it("returns <skill_content> with the verbatim body, the resource base and usage", async () => {
    const { fx, call } = await withTool();
    await using _ = fx;
    const body = "# Steps\n\n1. Run `scripts/go.sh`.\n2. Use <b>tags</b> & entities as written.\n";
    await fx.bundle(roots.projectDsh, "pdf-tools", "PDFs", { body });
    const out = await call({ name: "pdf-tools" });
    expect(out.status).toBe("ok");
    expect(out.rendered).toBe([
      '<skill_content name="pdf-tools">',
      `<resource_base kind="directory">${fx.project}/.dsh/skills/pdf-tools</resource_base>`,
      "<usage>Follow these instructions for the current task. Files they mention are relative to the resource base above; read one with the skill tool (`file` argument) only when a step needs it.</usage>",
      "",
      `${body}</skill_content>`,
    ].join("\n"));
    expect(out.canonical).toMatchObject({ name: "pdf-tools", source: "project-dsh", body });
    expect(fx.skills.skillTool.capability).toBe("skills");
    expect(fx.skills.skillTool.description).toMatch(/available_skills/);
  });

  it("reads a resource file of the bundle, contained in its resource base (SKL-7, SEC-3)", async () => {
    const { fx, call } = await withTool();
    await using _ = fx;
    await fx.bundle(roots.projectDsh, "forms", "Forms");
    const base = `${fx.project}/.dsh/skills/forms`;
    const { mkdir, writeFile, symlink } = await import("node:fs/promises");
    await mkdir(`${base}/reference`, { recursive: true });
    await writeFile(`${base}/reference/fields.md`, "# Fields\nname, date\n");
    await writeFile(`${fx.project}/secret.txt`, "not for the model");
    await symlink(`${fx.project}/secret.txt`, `${base}/reference/escape.md`);

    const ok = await call({ name: "forms", file: "reference/fields.md" });
    expect(ok.status).toBe("ok");
    expect(ok.rendered).toBe('<skill_file skill="forms" path="reference/fields.md">\n# Fields\nname, date\n</skill_file>');
    for (const file of ["../../../secret.txt", "reference/escape.md", "/etc/hostname"]) {
      const out = await call({ name: "forms", file });
      expect(out.status, file).toBe("error");
      expect(out.rendered, file).not.toContain("not for the model");
    }
    expect((await call({ name: "forms", file: "nope.md" })).error?.code).toBe("resource_not_found");
    expect((await call({ name: "forms", file: "reference/escape.md" })).error?.code).toBe("outside_resource_base");
  });

  it("escapes framing metadata", async () => {
    const { fx, call } = await withTool();
    await using _ = fx;
    await fx.bundle('home/odd "dir" & <x>', "quoted", "q");
    await fx.skills.settings.set({ customRoots: [`${fx.base}/home/odd "dir" & <x>`] });
    const out = await call({ name: "quoted" });
    expect(out.rendered).toContain("odd &quot;dir&quot; &amp; &lt;x&gt;/quoted</resource_base>");
  });

  it("unknown, invalid and non-model-invocable names", async () => {
    const { fx, call } = await withTool();
    await using _ = fx;
    await fx.bundle(roots.projectDsh, "user-only", "for people", { extra: ["disable-model-invocation: true"] });
    await fx.bundle(roots.projectDsh, "model-only", "for the model", { extra: ["user-invocable: false"] });
    expect((await call({ name: "nope" })).rendered).toBe('Error [unknown_skill]: The skill "nope" is unknown or no longer available. Use a name from the latest <available_skills> list.');
    expect((await call({ name: "Bad Name" })).error?.code).toBe("invalid_arguments");
    expect((await call({ name: "user-only" })).error?.code).toBe("not_model_invocable");
    expect((await call({ name: "model-only" })).status).toBe("ok");
  });

  it("re-checks the policy on the freshly loaded definition", async () => {
    const { fx, call } = await withTool();
    await using _ = fx;
    const { writeFile } = await import("node:fs/promises");
    const { skillText } = await import("./fixture.js");
    const file = await fx.bundle(roots.projectDsh, "flipped", "was model-invocable");
    expect((await call({ name: "flipped" })).status).toBe("ok");
    await writeFile(file, skillText("flipped", "was model-invocable", { extra: ["model-invocable: false"] })); // catalog still cached
    expect((await fx.skills.list(fx.workspace, ["session:s1"])).candidates[0]?.modelInvocable).toBe(true);
    expect((await call({ name: "flipped" })).error?.code).toBe("not_model_invocable");
    await fx.remove("project/.dsh/skills/flipped");
    expect((await call({ name: "flipped" })).error?.code).toBe("unknown_skill");
  });
});

describe("user invocation (SKL-8)", () => {
  it("/name loads user-invocable skills directly, with the same renderer", async () => {
    await using fx = await skillsFixture();
    await fx.bundle(roots.projectDsh, "deploy", "Deploy it", { extra: ["disable-model-invocation: true"], body: "Deploy carefully.\n" });
    await fx.bundle(roots.projectDsh, "internal", "Model only", { extra: ["user-invocable: false"] });
    await fx.bundle(roots.projectDsh, "neither", "Nobody", { extra: ["user-invocable: false", "model-invocable: false"] });
    const inv = await fx.skills.resolveUserInvocation("/deploy staging --dry-run\nplease", fx.workspace);
    expect(inv).toMatchObject({ name: "deploy", args: "staging --dry-run\nplease" });
    expect(inv!.content).toContain('<skill_content name="deploy">');
    expect(inv!.content).toContain("Deploy carefully.\n</skill_content>");
    expect(inv!.fact).toEqual({
      factKind: "skill_invocation", text: inv!.content,
      payload: { name: "deploy", args: "staging --dry-run\nplease", source: "project-dsh", path: `${fx.project}/.dsh/skills/deploy/SKILL.md` },
    });
    expect((await fx.skills.resolveUserInvocation("/deploy", fx.workspace))?.args).toBe("");
    for (const text of ["/internal", "/neither", "/missing do it", "deploy", "please /deploy", "/Deploy", "/deploy/x"]) {
      expect(await fx.skills.resolveUserInvocation(text, fx.workspace), text).toBeNull();
    }
  });

  it("completions list user-invocable skills sorted by name", async () => {
    await using fx = await skillsFixture();
    await fx.bundle(roots.projectDsh, "zeta", "Z");
    await fx.bundle(roots.userDsh, "alpha", "A\n  multi-line");
    await fx.bundle(roots.projectDsh, "hidden", "H", { extra: ["user-invocable: false"] });
    expect(await fx.skills.userInvocable(fx.workspace)).toEqual([{ name: "alpha", description: "A multi-line" }, { name: "zeta", description: "Z" }]);
  });
});
