import { describe, expect, it } from "vitest";
import { parseSkill, splitAllowedTools } from "../../src/skills/parse.js";

const ok = (text: string) => {
  const r = parseSkill(text);
  if (!r.ok) throw new Error(`expected ok, got: ${r.reason}`);
  return r.skill;
};
const reason = (text: string) => {
  const r = parseSkill(text);
  if (r.ok) throw new Error("expected a failure");
  return r.reason;
};

describe("frontmatter (SKL-3)", () => {
  it("maps name, description, when_to_use and keeps the body verbatim", () => {
    const s = ok("---\nname: pdf-tools\ndescription: Work with PDFs\nwhen_to_use: When a PDF is involved\n---\n# PDF\n\n  indented line\n");
    expect(s).toMatchObject({ declaredName: "pdf-tools", description: "Work with PDFs", whenToUse: "When a PDF is involved", modelInvocable: true, userInvocable: true });
    expect(s.body).toBe("# PDF\n\n  indented line\n");
    expect(s.warnings).toEqual([]);
  });

  it.each([
    ["defaults", "", true, true],
    ["model-only", "user-invocable: false", true, false],
    ["user-only", "model-invocable: false", false, true],
    ["user-only (upstream key)", "disable-model-invocation: true", false, true],
    ["neither", "model-invocable: false\nuser-invocable: false", false, false],
    ["quoted strings", "model-invocable: \"false\"\nuser-invocable: 'true'", false, true],
  ])("invocation flags: %s", (_label, flags, model, user) => {
    const s = ok(`---\ndescription: d\n${flags}\n---\nbody\n`);
    expect([s.modelInvocable, s.userInvocable]).toEqual([model, user]);
  });

  it("a conflicting pair keeps the model out and warns", () => {
    const s = ok("---\ndescription: d\nmodel-invocable: true\ndisable-model-invocation: true\n---\nb\n");
    expect(s.modelInvocable).toBe(false);
    expect(s.warnings[0]).toMatch(/conflicts/);
  });

  it("non-boolean flags are refused", () => {
    expect(reason("---\ndescription: d\nuser-invocable: sometimes\n---\nb\n")).toBe("must be true or false");
  });

  it("preserves agentskills.io fields and unknown keys", () => {
    const s = ok([
      "---", "name: x", "description: d", "license: Apache-2.0", "compatibility: Requires git and network access",
      "metadata:", "  author: example-org", "  version: \"1.0\"", "allowed-tools: Bash(git add:*) Bash(git status:*) Read",
      "argument-hint: \"[file]\"", "model: fast", "---", "b",
    ].join("\n"));
    expect(s.meta).toEqual({
      license: "Apache-2.0",
      compatibility: "Requires git and network access",
      metadata: { author: "example-org", version: "1.0" },
      allowedTools: ["Bash(git add:*)", "Bash(git status:*)", "Read"],
      extra: { "argument-hint": "[file]", model: "fast" },
    });
    expect(ok("---\ndescription: d\nallowed-tools:\n  - Read\n  - Grep\n---\nb").meta.allowedTools).toEqual(["Read", "Grep"]);
    expect(splitAllowedTools("Read, Grep,  Glob")).toEqual(["Read", "Grep", "Glob"]);
  });

  it("handles BOM and CRLF", () => {
    const s = ok("\uFEFF---\r\nname: crlf\r\ndescription: Windows line endings\r\n---\r\nline one\r\nline two\r\n");
    expect(s.description).toBe("Windows line endings");
    expect(s.body).toBe("line one\r\nline two\r\n");
  });

  it("never evaluates non-YAML frontmatter", () => {
    const g = globalThis as { pwned?: boolean };
    expect(reason("---js\n{ description: (globalThis.pwned = true, 'x') }\n---\nbody\n")).toMatch(/YAML/);
    expect(reason("--- javascript\n({ description: (globalThis.pwned = true, 'x') })\n---\nbody\n")).toMatch(/frontmatter/);
    expect(reason("---json\n{\"description\": \"x\"}\n---\nbody\n")).toMatch(/YAML/);
    expect(g.pwned).toBeUndefined();
  });

  it("reports structural problems", () => {
    expect(reason("no frontmatter here\n")).toMatch(/missing frontmatter/);
    expect(reason("---\nname: x\ndescription: d\nbody without a closing line\n")).toMatch(/not closed/);
    expect(reason("---\n- a\n- b\n---\nbody\n")).toMatch(/mapping/);
    expect(reason("---\nname: x\nname: y\ndescription: d\n---\n")).toMatch(/invalid YAML/);
    expect(reason("---\nname: x\n---\nbody\n")).toBe("description is required");
    expect(reason("---\ndescription: 42\n---\nbody\n")).toBe("description must be a string");
    expect(reason("---\ndescription: \"  \"\n---\nbody\n")).toBe("description is empty");
    expect(reason("---\nname: x\ndescription: d\nmetadata:\n\tkey: tab-indented\n---\n")).toMatch(/invalid YAML/);
  });

  it("warns about long descriptions and empty bodies but loads them", () => {
    const s = ok(`---\ndescription: ${"x".repeat(1100)}\n---\n`);
    expect(s.warnings.join("\n")).toMatch(/1100 characters/);
    expect(s.warnings.join("\n")).toMatch(/body is empty/);
  });

  it("refuses alias bombs", () => {
    const bomb = ["---", "description: d", "a: &a [x, x, x, x, x, x, x, x, x, x]", "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]",
      "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]", "---", "b"].join("\n");
    expect(reason(bomb)).toMatch(/alias|Excessive/i);
  });
});
