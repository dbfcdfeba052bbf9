import { expect, test, type Page } from "@playwright/test";
import { appendFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { useHost } from "../fixtures/host.js";
import { openSession, send } from "../fixtures/session.js";
import { fixtureCopy } from "../fixtures/tmp.js";

const fixture = fileURLToPath(new URL("../fixtures/skills/workspace", import.meta.url));

/**
 * A fresh copy of the skills fixture with a `.git` marker, so the copy is its own project root (the
 * host looks for the nearest ancestor containing `.git`; a `.git` entry cannot be committed in the
 * repo itself, and the repo root's own `.git` would otherwise win).
 */
function skillsWorkspace(): string {
  const dir = fixtureCopy(fixture, "skills-ws-");
  mkdirSync(join(dir, ".git"));
  return dir;
}


const skillRow = (page: Page, name: string, source?: string) =>
  page.locator(`[data-testid="skill-row"][data-name="${name}"]${source ? `[data-source="${source}"]` : ""}`);

test.describe("skills: page, catalog facts, /name (SKL-6, SKL-8, SKL-10)", () => {
  const workspace = skillsWorkspace();
  const host = useHost({}, () => rmSync(workspace, { recursive: true, force: true }));

  test("the skills page shows roots, candidates with layer, rank, flags and shadowing, the malformed file and a preview", async ({ page }) => {
    await page.goto(host.url("/skills"));
    await page.getByTestId("skills-workspace-select").selectOption({ label: "Another folder…" });
    await page.getByTestId("skills-workspace-input").fill("relative/folder");
    await page.getByTestId("skills-workspace-submit").click();
    await expect(page.getByRole("alert").filter({ hasText: "absolute path" })).toBeVisible();
    await page.getByTestId("skills-workspace-input").fill(workspace);
    await page.getByTestId("skills-workspace-submit").click();
    await expect(page.getByTestId("skills-project-root")).toHaveText(workspace);

    // Roots: the project's two roots exist and are writable, which makes them prompt authority.
    const agentsRoot = page.locator('[data-testid="skills-root-row"][data-source="project-agents"]');
    await expect(agentsRoot).toHaveAttribute("data-exists", "yes");
    await expect(agentsRoot).toHaveAttribute("data-writable", "yes");
    await expect(agentsRoot.getByTestId("skills-root-authority")).toContainText("prompt authority");
    await expect(page.getByTestId("skills-prompt-authority")).toContainText("prompt authority");
    await expect(page.locator('[data-testid="skills-root-row"][data-source="bundled"]')).toHaveAttribute("data-writable", "no");

    // Candidates with layer, rank and invocation flags.
    const notes = skillRow(page, "release-notes");
    await expect(notes).toHaveAttribute("data-source", "project-agents");
    await expect(notes.getByTestId("skill-layer")).toHaveText("global");
    await expect(notes.getByTestId("skill-rank")).toHaveText("200");
    await expect(notes).toHaveAttribute("data-model", "yes");
    await expect(notes).toHaveAttribute("data-user", "yes");
    await expect(notes.getByTestId("skill-status")).toHaveText("winner");

    const lint = skillRow(page, "lint-policy");
    await expect(lint).toHaveAttribute("data-model", "yes");
    await expect(lint).toHaveAttribute("data-user", "no");
    await expect(lint.getByTestId("skill-flag-user")).toHaveAttribute("data-on", "no");

    // Same name in two project roots: the lower rank wins, the other is shadowed.
    const review = skillRow(page, "code-review", "project-dsh");
    await expect(review).toHaveAttribute("data-winner", "yes");
    await expect(review.getByTestId("skill-rank")).toHaveText("100");
    await expect(review).toHaveAttribute("data-model", "no");
    const shadowed = skillRow(page, "code-review", "project-agents");
    await expect(shadowed).toHaveAttribute("data-winner", "no");
    await expect(shadowed.getByTestId("skill-status")).toContainText("shadowed by project-dsh · rank 100");

    // The malformed file is a diagnostic with its reason, not a skill.
    const broken = page.locator('[data-testid="skills-diagnostic"][data-name="broken-frontmatter"]');
    await expect(broken).toHaveAttribute("data-severity", "error");
    await expect(broken.getByTestId("skills-diagnostic-reason")).toContainText("invalid YAML");
    await expect(skillRow(page, "broken-frontmatter")).toHaveCount(0);

    // Preview: frontmatter fields and the body, rendered and raw.
    await notes.getByTestId("skill-row-toggle").click();
    const preview = page.locator('[data-testid="skill-preview"][data-name="release-notes"]');
    await expect(preview.getByTestId("skill-license")).toContainText("MIT");
    await expect(preview.getByTestId("skill-compatibility")).toContainText("Needs git on the PATH");
    await expect(preview.getByTestId("skill-allowed-tools")).toContainText("read_file");
    await expect(preview.getByTestId("skill-metadata")).toContainText("docs-team");
    await expect(preview.getByTestId("skill-preview-body").getByRole("heading", { name: "Release notes" })).toBeVisible();
    // The page scrolls inside the main area, so a tall viewport shows all of it.
    await page.setViewportSize({ width: 1280, height: 2000 });
    await page.screenshot({ path: test.info().outputPath("skills-page.png") });
    await preview.getByTestId("skill-preview-raw-tab").click();
    await expect(preview.getByTestId("skill-preview-raw")).toContainText("**Added**");
  });

  test("custom roots are validated inline and say Saved only once the host stored them", async ({ page }) => {
    await page.goto(host.url("/skills"));
    await page.getByTestId("skills-custom-root-add").click();
    const input = page.getByTestId("skills-custom-root-input").first();
    await input.fill("team-skills");
    await input.blur();
    await expect(page.getByRole("alert").filter({ hasText: "Use an absolute path" })).toBeVisible();
    await expect(page.getByTestId("skills-custom-roots-saved")).toHaveCount(0);

    const custom = join(workspace, "team-skills");
    await input.fill(custom);
    await page.getByTestId("skills-custom-roots-save").click();
    await expect(page.getByTestId("skills-custom-roots-saved")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("skills-custom-root-input").first()).toHaveValue(custom);

    await page.getByTestId("skills-workspace-select").selectOption({ label: "Another folder…" });
    await page.getByTestId("skills-workspace-input").fill(workspace);
    await page.getByTestId("skills-workspace-submit").click();
    const row = page.locator('[data-testid="skills-root-row"][data-source="custom"]');
    await expect(row).toContainText(custom);
    await expect(row).toHaveAttribute("data-exists", "no");

    // Leave no custom root behind for the other tests.
    await page.getByTestId("skills-custom-root-remove").click();
    await page.getByTestId("skills-custom-roots-save").click();
    await expect(page.getByTestId("skills-custom-roots-saved")).toBeVisible();
    await expect(page.getByTestId("skills-custom-roots-empty")).toBeVisible();
  });

  test("a chat turn shows the Skills available fact, listing what the model saw", async ({ page }) => {
    await openSession(page, host, "Skills catalog", workspace);
    await send(page, "skills check-in");
    await expect(page.getByTestId("message-assistant").last()).toContainText("the skills catalog is in view.");

    const fact = page.locator('[data-testid="fact-row"][data-fact-kind="skills_catalog"]');
    await expect(fact).toHaveCount(1);
    await expect(fact.getByTestId("fact-row-title")).toHaveText(/^Skills available \(\d+\)$/);
    await fact.getByTestId("fact-row-toggle").click();
    const names = fact.getByTestId("skills-catalog-name");
    await expect(names.filter({ hasText: /^release-notes$/ })).toHaveCount(1);
    await expect(names.filter({ hasText: /^lint-policy$/ })).toHaveCount(1);
    // The winning code-review is user-only, so the model is not told about it.
    await expect(names.filter({ hasText: /^code-review$/ })).toHaveCount(0);
    await expect(fact.getByTestId("fact-row-text")).toContainText("<available_skills>");
    await expect(fact.getByTestId("fact-row-text")).toContainText('<skill name="release-notes">');
    await page.screenshot({ path: test.info().outputPath("chat-catalog.png"), fullPage: true });

    // Durable: still there after a reload.
    await page.reload();
    await expect(page.locator('[data-testid="fact-row"][data-fact-kind="skills_catalog"]').getByTestId("fact-row-title")).toHaveText(
      /^Skills available \(\d+\)$/,
    );
  });

  test("typing / offers user-invocable skills first, never the model-only one", async ({ page }) => {
    await openSession(page, host, "Slash skills", workspace);
    const composer = page.getByTestId("composer-input");
    await composer.fill("/");
    const menu = page.getByTestId("slash-menu");
    await expect(menu.locator('[data-kind="skill"][data-name="release-notes"]')).toBeVisible();
    await expect(menu.locator('[data-kind="skill"][data-name="code-review"]')).toBeVisible();
    await expect(menu.locator('[data-kind="skill"][data-name="lint-policy"]')).toHaveCount(0);
    await expect(menu.locator('[data-kind="tool"][data-name="read_file"]')).toBeVisible();
    await expect(menu.getByTestId("slash-item").first()).toHaveAttribute("data-kind", "skill");
    await page.screenshot({ path: test.info().outputPath("slash-menu.png") });

    await composer.fill("/rel");
    await expect(menu.locator('[data-kind="skill"]')).toHaveCount(1);
    await composer.press("Enter");
    await expect(composer).toHaveValue("/release-notes ");
    await expect(menu).toHaveCount(0);
  });

  test("/release-notes loads the skill after the message, the model replies, and an edit on disk shows in the next load", async ({ page }) => {
    await openSession(page, host, "Invoke a skill", workspace);
    await send(page, "/release-notes v1.2");

    const fact = page.locator('[data-testid="fact-row"][data-fact-kind="skill_invocation"]');
    await expect(fact.getByTestId("fact-row-title")).toHaveText("Skill /release-notes loaded");
    await expect(page.getByTestId("message-assistant").last()).toContainText("Drafting the release notes with the loaded skill.");
    await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-state", "complete");
    await fact.getByTestId("fact-row-toggle").click();
    await expect(fact.getByTestId("skill-invocation-body")).toContainText("Group them under Added, Changed and Fixed.");
    await fact.getByTestId("fact-row-raw-tab").click();
    await expect(fact.getByTestId("fact-row-text")).toContainText('<skill_content name="release-notes">');
    await page.screenshot({ path: test.info().outputPath("chat-invocation.png"), fullPage: true });

    appendFileSync(join(workspace, ".agents/skills/release-notes/SKILL.md"), "4. Mention the upgrade steps for breaking changes.\n");
    await send(page, "/release-notes v1.3");
    const second = page.locator('[data-testid="fact-row"][data-fact-kind="skill_invocation"]').nth(1);
    await second.getByTestId("fact-row-toggle").click();
    await expect(second.getByTestId("skill-invocation-body")).toContainText("Mention the upgrade steps");
  });

  test("the model loads a skill with the skill tool and the card shows its body", async ({ page }) => {
    await openSession(page, host, "Model loads a skill", workspace);
    await send(page, "apply the lint policy");
    const card = page.locator('[data-testid="tool-card"][data-tool-name="skill"]');
    await expect(card).toHaveAttribute("data-status", "ok");
    await expect(page.getByTestId("message-assistant").last()).toContainText("no default exports.");
    await card.getByTestId("tool-card-toggle").click();
    await expect(card.getByTestId("tool-card-result")).toContainText("No default exports.");
  });
});
