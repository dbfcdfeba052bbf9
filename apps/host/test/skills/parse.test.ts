import { describe, expect, it } from "vitest";
import { expandedSize, expansionBudget } from "../../src/skills/frontmatter-yaml.js";
import { loadParser, parseSkill, splitAllowedTools } from "../../src/skills/parse.js";

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

/** Nine levels of ten aliases each: 10^9 strings once written out (what tRPC would do with the metadata). */
const billionLaughs = (levels = 9) => {
  const lines = ["---", "description: d", "metadata:", '  l0: &l0 "lol"'];
  for (let i = 1; i <= levels; i++) lines.push(`  l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(", ")}]`);
  return [...lines, "---", "body"].join("\n");
};

describe("YAML with js-yaml (SKL-3)", () => {
  it("types are YAML 1.2 core: no timestamps, yes/no stay strings, `<<` is an ordinary key", () => {
    const s = ok("---\ndescription: d\nwhen: 2001-12-14\nanswer: yes\ncount: 0x1F\nratio: 1.5\nnothing: ~\nflag: TRUE\n<<: {x: 1}\n---\nb");
    expect(s.meta.extra).toEqual({ when: "2001-12-14", answer: "yes", count: 31, ratio: 1.5, nothing: null, flag: true, "<<": { x: 1 } });
  });

  it("a tag it does not know keeps the value as written", () => {
    const s = ok("---\ndescription: d\nlocal: !thing value\nlist: !stuff [a, b]\nmap: !more {k: v}\nbinary: !!binary aGk=\n---\nb");
    expect(s.meta.extra).toEqual({ local: "value", list: ["a", "b"], map: { k: "v" }, binary: "aGk=" });
  });

  it("errors are one sentence with the file's line number", () => {
    expect(reason("---\nname: x\ndescription: d\nname: y\n---\nb")).toBe("invalid YAML at line 4: duplicated mapping key");
    expect(reason("---\r\nname: x\r\ndescription: \"open\r\n---\r\nb")).toMatch(/^invalid YAML at line \d+: [^\n]+$/);
    expect(reason("---\ndescription: d\nmetadata:\n\tkey: v\n---\nb")).toMatch(/^invalid YAML at line 4: .*tab/);
    expect(reason("---\ndescription: d\nx: *nowhere\n---\nb")).toBe('invalid YAML at line 3: unidentified alias "nowhere"');
    // Content after a document end marker is a second document, which a frontmatter cannot be.
    expect(reason("---\ndescription: d\n...\nx: 1\n---\nb")).toBe("invalid YAML: the frontmatter holds more than one document (a ... line ends the first); keep a single mapping");
  });

  it("the last key of a CRLF frontmatter is read without its \\r (a flag there used to be refused)", () => {
    const s = ok("---\r\ndescription: d\r\nlicense: MIT\r\nuser-invocable: false\r\n---\r\nbody\r\n");
    expect(s.userInvocable).toBe(false);
    expect(ok("---\r\ndescription: d\r\nlicense: MIT\r\n---\r\nbody\r\n").meta.license).toBe("MIT");
  });

  it("aliases within reason are fine; `*` in plain text is not an alias", () => {
    const s = ok("---\ndescription: d\nmetadata:\n  owner: &who Ana\n  reviewers: [*who, *who]\nallowed-tools: Bash(git add:*) Read\n---\nb");
    expect(s.meta.metadata).toEqual({ owner: "Ana", reviewers: ["Ana", "Ana"] });
    expect(s.meta.allowedTools).toEqual(["Bash(git add:*)", "Read"]);
  });

  it("refuses a billion-laughs document: the walk stops at its budget, nothing is expanded", () => {
    const text = billionLaughs();
    expect(reason(text)).toBe("the frontmatter's * aliases repeat more data than the file holds; write the values out instead of referring to them");
    // The same value as js-yaml returns it (shared references): measured only up to the budget.
    const value = { l9: [] as unknown[] };
    let level: unknown = "lol";
    for (let i = 1; i <= 9; i++) level = Array.from({ length: 10 }, () => level);
    value.l9 = level as unknown[];
    const budget = expansionBudget(text);
    const size = expandedSize(value, budget);
    expect(size).toBeGreaterThan(budget);
    expect(size).toBeLessThanOrEqual(budget + 10); // stopped at the first step past it (an array of 10 is the largest step)
  });

  it("refuses nesting deep enough to exhaust the stack, with a clear reason", () => {
    expect(ok(`---\ndescription: d\nx: ${"[".repeat(500)}${"]".repeat(500)}\n---\nb`).meta.extra).toBeDefined();
    expect(reason(`---\ndescription: d\nx: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n---\nb`)).toBe("invalid YAML: the frontmatter is nested too deeply; flatten it");
  });

  it("refuses a cycle", () => {
    expect(reason("---\ndescription: d\nloop: &a [*a]\n---\nb")).toMatch(/aliases repeat more data/);
    expect(reason("---\ndescription: d\nself: &m {again: *m}\n---\nb")).toMatch(/aliases repeat more data/);
  });

  it("a large frontmatter without aliases is never refused by the budget", () => {
    // 20,000 short values, with a `*` in the text so that the walk runs.
    const items = Array.from({ length: 20_000 }, (_, i) => (i % 2 ? "    - x" : "    - '*'"));
    const s = ok(["---", "description: d", "metadata:", "  list:", ...items, "---", "b"].join("\n"));
    expect((s.meta.metadata as { list: string[] }).list).toHaveLength(20_000);
    const block = `\nk: [${Array(5_000).fill("a").join(",")}]`;
    expect(expandedSize({ k: Array(5_000).fill("a") }, expansionBudget(block))).toBeLessThanOrEqual(expansionBudget(block));
  });
});

describe("loadParser (the host's warm-up, #17 item 2)", () => {
  it("parses its sample through the whole parser: folded description, tool list, nested metadata", () => {
    const out = loadParser();
    if (!out.ok) throw new Error(out.reason);
    expect(out.skill).toMatchObject({ declaredName: "warm-up", description: "Warms the SKILL.md parser.", meta: { allowedTools: ["read_file", "grep"], metadata: { tags: ["warm", "up"] } }, warnings: [] });
  });
});
