import { describe, expect, it } from "vitest";
import { roots, skillsFixture } from "./fixture.js";

type Verdict =
  | { load: true; model?: boolean; user?: boolean; warning?: RegExp; check?: (s: { description: string; whenToUse?: string; meta?: Record<string, unknown> }) => void }
  | { load: false; reason: RegExp | null };

interface Case { path: string; text: string; verdict: Verdict; name?: string }

const fm = (lines: string[], body = "Instructions.\n") => ["---", ...lines, "---", body].join("\n");
const LONG = "Review pull requests for correctness, security and style. ".repeat(12).trim();

/** A realistic corpus: what people actually put in skill folders, and what Seam should make of each. */
const corpus: Case[] = [
  // Bundles with resources
  { path: "pdf-tools/SKILL.md", text: fm(["name: pdf-tools", "description: Extract text and tables from PDF files, fill forms, merge documents.", "license: Apache-2.0"], "# PDF\n\nRun `scripts/extract.py <file>`.\nSee reference.md for form fields.\n"), verdict: { load: true } },
  { path: "pdf-tools/scripts/extract.py", text: "print('resource, not a skill')\n", verdict: { load: false, reason: null } },
  { path: "pdf-tools/reference.md", text: "# Reference\n", verdict: { load: false, reason: null } },
  { path: "git-commit/SKILL.md", text: fm(["name: git-commit", "description: Write conventional commit messages from the staged diff.", "allowed-tools: Bash(git diff:*) Bash(git commit:*)"]), verdict: { load: true, check: (s) => expect(s.meta?.allowedTools).toEqual(["Bash(git diff:*)", "Bash(git commit:*)"]) } },
  { path: "release-notes/SKILL.md", text: fm(["name: release-notes", "description: >-", "  Draft release notes from merged PRs", "  since the last tag.", "when_to_use: Before tagging a release."]), verdict: { load: true, check: (s) => expect([s.description, s.whenToUse]).toEqual(["Draft release notes from merged PRs since the last tag.", "Before tagging a release."]) } },
  { path: "db-migrate/SKILL.md", text: fm(["name: db-migrate", "description: Create and apply database migrations safely.", "metadata:", "  author: platform-team", "  version: \"2.1\"", "compatibility: Requires the prisma CLI"]), verdict: { load: true, check: (s) => expect(s.meta).toMatchObject({ metadata: { author: "platform-team", version: "2.1" }, compatibility: "Requires the prisma CLI" }) } },
  { path: "api-client/SKILL.md", text: fm(["description: Generate a typed API client from an OpenAPI file."]), verdict: { load: true } },
  { path: "deploy-prod/SKILL.md", text: fm(["name: deploy-prod", "description: Deploy to production.", "disable-model-invocation: true"]), verdict: { load: true, model: false, user: true } },
  { path: "background-lint/SKILL.md", text: fm(["name: background-lint", "description: House lint rules the agent applies on its own.", "user-invocable: false"]), verdict: { load: true, model: true, user: false } },
  { path: "archived/SKILL.md", text: fm(["name: archived", "description: Kept for reference only.", "model-invocable: false", "user-invocable: false"]), verdict: { load: true, model: false, user: false } },
  { path: "k8s-debug/SKILL.md", text: fm(["name: k8s-debug", "description: Diagnose crashing pods.", "argument-hint: \"[pod]\"", "model: sonnet", "context: fork", "tags: [ops, k8s]"]), verdict: { load: true, check: (s) => expect(Object.keys((s.meta?.extra ?? {}) as object)).toEqual(["argument-hint", "model", "context", "tags"]) } },
  { path: "long-description/SKILL.md", text: fm(["name: long-description", `description: ${LONG}`]), verdict: { load: true } },
  { path: "very-long/SKILL.md", text: fm(["name: very-long", `description: ${"Very detailed routing text. ".repeat(45)}`]), verdict: { load: true, warning: /more than 1024/ } },
  { path: "bom-skill/SKILL.md", text: `\uFEFF${fm(["name: bom-skill", "description: Saved by an editor that writes a BOM."])}`, verdict: { load: true } },
  { path: "crlf-skill/SKILL.md", text: fm(["name: crlf-skill", "description: Saved on Windows."]).replace(/\n/g, "\r\n"), verdict: { load: true } },
  { path: "tab-values/SKILL.md", text: fm(["name: tab-values", "description: \"Tabs\tinside\tquoted values are fine.\""]), verdict: { load: true } },
  { path: "skill-2fa/SKILL.md", text: fm(["name: skill-2fa", "description: Digits are allowed in names."]), verdict: { load: true } },
  { path: "empty-body/SKILL.md", text: fm(["name: empty-body", "description: Has no instructions yet."], ""), verdict: { load: true, warning: /body is empty/ } },
  { path: "yaml-tag/SKILL.md", text: "---yaml\nname: yaml-tag\ndescription: An explicit yaml language tag.\n---\nbody\n", verdict: { load: false, reason: /must be YAML/ } },
  // Flat files
  { path: "quick-fix.md", text: fm(["name: quick-fix", "description: Apply the smallest change that fixes a failing test."]), verdict: { load: true } },
  { path: "commit-style.md", text: fm(["description: House style for commit messages."]), verdict: { load: true } },
  { path: "notes.txt", text: "not markdown, ignored\n", verdict: { load: false, reason: null } },
  // Broken
  { path: "no-frontmatter/SKILL.md", text: "# Just a heading\n\nNo frontmatter at all.\n", verdict: { load: false, reason: /missing frontmatter/ } },
  { path: "unclosed/SKILL.md", text: "---\nname: unclosed\ndescription: forgot the closing line\n# body\n", verdict: { load: false, reason: /not closed/ } },
  { path: "bad-yaml/SKILL.md", text: fm(["name: bad-yaml", "description: \"unterminated"]), verdict: { load: false, reason: /invalid YAML/ } },
  { path: "tab-indent/SKILL.md", text: fm(["name: tab-indent", "description: d", "metadata:", "\towner: me"]), verdict: { load: false, reason: /invalid YAML/ } },
  { path: "no-description/SKILL.md", text: fm(["name: no-description"]), verdict: { load: false, reason: /description is required/ } },
  { path: "list-frontmatter/SKILL.md", text: fm(["- name", "- description"]), verdict: { load: false, reason: /mapping/ } },
  { path: "dup-keys/SKILL.md", text: fm(["name: dup-keys", "description: one", "description: two"]), verdict: { load: false, reason: /invalid YAML/ } },
  { path: "bad-flag/SKILL.md", text: fm(["name: bad-flag", "description: d", "user-invocable: maybe"]), verdict: { load: false, reason: /true or false/ } },
  { path: "wrong-name/SKILL.md", text: fm(["name: right-name", "description: The folder was renamed."]), verdict: { load: false, reason: /does not match the folder name/ } },
  { path: "js-frontmatter/SKILL.md", text: "---js\n{ name: 'js-frontmatter', description: 'x' }\n---\nbody\n", verdict: { load: false, reason: /must be YAML/ } },
  { path: "numeric-desc/SKILL.md", text: fm(["name: numeric-desc", "description: 12345"]), verdict: { load: false, reason: /must be a string/ } },
  // Names
  { path: "PDF_Tools/SKILL.md", text: fm(["description: Upper case and underscore."]), verdict: { load: false, reason: /not a valid skill name/ } },
  { path: "double--hyphen/SKILL.md", text: fm(["description: d"]), verdict: { load: false, reason: /not a valid skill name/ } },
  { path: "-leading/SKILL.md", text: fm(["description: d"]), verdict: { load: false, reason: /not a valid skill name/ } },
  { path: `${"a".repeat(65)}/SKILL.md`, text: fm(["description: d"]), verdict: { load: false, reason: /not a valid skill name/ } },
  { path: "README.md", text: "# My skills\n", verdict: { load: false, reason: /not a valid skill name/ } },
  { path: "assets/logo.txt", text: "a folder without SKILL.md\n", verdict: { load: false, reason: /no SKILL.md/ } },
  { path: ".hidden/SKILL.md", text: fm(["name: hidden", "description: dot folders are skipped"]), verdict: { load: false, reason: null } },
  { path: "nested/deeper/SKILL.md", text: fm(["name: deeper", "description: no recursive discovery"]), verdict: { load: false, reason: /no SKILL.md/ } },
];

describe("a corpus of realistic skill files (SKL-2, SKL-3)", () => {
  it(`gives each of ${corpus.length} files its expected verdict`, async () => {
    await using fx = await skillsFixture();
    for (const c of corpus) await fx.write(`${roots.userAgents}/${c.path}`, c.text);
    const obs = await fx.skills.list(fx.workspace);
    expect(obs.complete).toBe(true);
    const inspection = await fx.skills.inspect(fx.workspace);
    const rootPath = `${fx.base}/${roots.userAgents}/`;
    const diagsFor = (path: string) => obs.diagnostics.filter((d) => {
      const rel = d.path.slice(rootPath.length);
      return path === rel || path.startsWith(`${rel}/`);
    });

    for (const c of corpus) {
      const top = c.path.split("/")[0]!;
      const name = top.endsWith(".md") ? top.slice(0, -3) : top;
      const found = obs.candidates.find((x) => x.name === name);
      const diags = diagsFor(c.path);
      const label = `${c.path}: ${JSON.stringify(diags.map((d) => d.reason))}`;
      if (c.verdict.load) {
        expect(found, label).toBeDefined();
        expect(diags.filter((d) => d.severity === "error"), label).toEqual([]);
        if (c.verdict.model !== undefined) expect(found!.modelInvocable, label).toBe(c.verdict.model);
        if (c.verdict.user !== undefined) expect(found!.userInvocable, label).toBe(c.verdict.user);
        if (c.verdict.warning) expect(diags.map((d) => d.reason).join("\n"), label).toMatch(c.verdict.warning);
        else expect(diags, label).toEqual([]);
        const info = inspection.candidates.find((x) => x.name === name)!;
        c.verdict.check?.({ description: found!.description, whenToUse: found!.whenToUse, meta: { ...found!.meta } });
        expect(info.bodyPreview, label).not.toBeNull();
      } else {
        const isResource = c.verdict.reason === null && c.path.includes("/") && !c.path.endsWith("/SKILL.md");
        if (!isResource) expect(found, label).toBeUndefined();
        if (c.verdict.reason) expect(diags.map((d) => d.reason).join("\n"), label).toMatch(c.verdict.reason);
        else expect(obs.diagnostics.filter((d) => d.path === rootPath + c.path), label).toEqual([]);
      }
    }
    expect(corpus.filter((c) => c.path.endsWith(".md")).length).toBeGreaterThanOrEqual(30);
    expect(obs.candidates.map((c) => c.name)).toEqual([
      "api-client", "archived", "background-lint", "bom-skill", "commit-style", "crlf-skill", "db-migrate", "deploy-prod", "empty-body",
      "git-commit", "k8s-debug", "long-description", "pdf-tools", "quick-fix", "release-notes", "skill-2fa", "tab-values", "very-long",
    ]);
  });
});
