import { expect, test, type Page } from "@playwright/test";
import { realpathSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { useHost } from "../fixtures/host.js";
import { createSessionIn, send } from "../fixtures/session.js";
import { fixtureCopy } from "../fixtures/tmp.js";

const fixture = fileURLToPath(new URL("../fixtures/lsp", import.meta.url));

/** A fresh copy of the two-file TypeScript fixture, canonical (the host reports canonical workspaces). */
const lspWorkspace = (): string => realpathSync(fixtureCopy(fixture, "lsp-ws-"));


const serverRow = (page: Page, id: string) => page.locator(`[data-testid="lsp-server-row"][data-id="${id}"]`);
const formError = (page: Page, field: string) => page.locator(`[data-testid="lsp-form-error"][data-field="${field}"]`);

/** The TypeScript preset, added from its card when this host does not have it configured yet. */
async function ensureTypescript(page: Page): Promise<void> {
  const section = page.getByTestId("lsp-section");
  await expect(section.locator('[data-testid="lsp-preset"][data-id="typescript"]')).toHaveAttribute("data-available", "true");
  await expect(section.getByTestId("lsp-empty").or(section.getByTestId("lsp-server-row").first())).toBeVisible();
  if ((await serverRow(page, "typescript").count()) === 0) {
    await section.locator('[data-testid="lsp-preset-add"][data-id="typescript"]').click();
    await expect(serverRow(page, "typescript").getByTestId("lsp-saved")).toBeVisible();
  }
  await expect(serverRow(page, "typescript")).toHaveAttribute("data-active", "true");
}

test.describe("LSP: the lsp tool card and Settings → Language servers (LSP-3, LSP-7)", () => {
  const workspace = lspWorkspace();
  const host = useHost({}, () => rmSync(workspace, { recursive: true, force: true }));

  test("goToDefinition on a call site: the card shows path:line:col with the excerpt; settings show the running server", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(host.url("/settings"));
    await ensureTypescript(page);

    // The scripted model asks for the definition of `add` at its call in src/main.ts (3:22).
    await createSessionIn(page, workspace, "LSP definition");
    await send(page, "Where is add defined?");
    const card = page.locator('[data-testid="tool-card"][data-tool-name="lsp"]').first();
    await expect(card).toHaveAttribute("data-status", "ok", { timeout: 60_000 });
    await card.getByTestId("tool-card-toggle").click();
    await card.getByRole("tab", { name: "Result" }).click();
    const result = card.getByTestId("lsp-result");
    await expect(result).toHaveAttribute("data-operation", "goToDefinition");
    const location = card.getByTestId("lsp-location");
    await expect(location).toHaveCount(1);
    await expect(location.getByTestId("lsp-location-position")).toHaveText("src/math.ts:1:17");
    await expect(location.getByTestId("lsp-location-excerpt")).toContainText("export function add(a: number, b: number): number {");
    await expect(location.getByTestId("lsp-location-symbol")).toHaveText("add");
    // The text the model saw is the same location, one click away.
    await card.getByText("Text the model saw").click();
    await expect(card.getByTestId("tool-card-result")).toContainText("src/math.ts:1:17");
    await expect(page.getByTestId("timeline")).toContainText("is defined in src/math.ts.");
    await card.screenshot({ path: test.info().outputPath("lsp-card.png") });

    // Hover on the same symbol: the type as Markdown (a highlighted code block), no locations.
    await send(page, "Hover over add");
    const hover = page.locator('[data-testid="tool-card"][data-tool-name="lsp"]').nth(1);
    await expect(hover).toHaveAttribute("data-status", "ok", { timeout: 30_000 });
    await hover.getByTestId("tool-card-toggle").click();
    await hover.getByRole("tab", { name: "Result" }).click();
    await expect(hover.getByTestId("lsp-result")).toHaveAttribute("data-operation", "hover");
    await expect(hover.getByTestId("lsp-hover")).toContainText("(alias) add(a: number, b: number): number");
    await expect(hover.getByTestId("lsp-location")).toHaveCount(0);
    await hover.screenshot({ path: test.info().outputPath("lsp-hover-card.png") });

    // Settings → Language servers: one ready typescript process for this workspace, with a pid.
    await page.goto(host.url("/settings"));
    const ts = serverRow(page, "typescript");
    const proc = ts.locator(`[data-testid="lsp-process-row"][data-workspace="${workspace}"]`);
    await expect(proc).toHaveAttribute("data-state", "ready");
    await expect(proc.getByTestId("lsp-process-state")).toHaveText("ready");
    await expect(proc.getByTestId("lsp-process-pid")).toHaveText(/^\d+$/);
    await expect(proc.getByTestId("lsp-process-workspace")).toHaveText(workspace);
    await expect(proc.getByTestId("lsp-process-restarts")).toHaveText("no restarts");
    await page.setViewportSize({ width: 1280, height: 2600 });
    await page.getByTestId("lsp-section").screenshot({ path: test.info().outputPath("lsp-settings.png") });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("a bad server form shows its errors inline and saves nothing; a good one is saved and can be removed", async ({ page }) => {
    await page.goto(host.url("/settings"));
    await ensureTypescript(page);
    const rows = page.getByTestId("lsp-server-row");
    const before = await rows.count();

    await page.getByTestId("lsp-add").click();
    const form = page.getByTestId("lsp-form");
    await form.getByTestId("lsp-id").fill("my-ts");
    await form.getByTestId("lsp-command").fill("node");
    await form.getByTestId("lsp-args").fill("server.js\n--stdio");
    await form.getByTestId("lsp-init-options").fill('{"tsserver": ');
    await form.getByTestId("lsp-save").click();
    await expect(formError(page, "extensions")).toHaveText("Add at least one file extension");
    await expect(formError(page, "initOptions")).toContainText("Not valid JSON");
    await expect(formError(page, "form")).toContainText("Not saved — check extensions, initialization options.");
    await expect(page.getByTestId("lsp-saved")).toHaveCount(0);

    // Fixed JSON; `.TS` becomes the chip `.ts`, which the typescript preset already routes: the host refuses.
    await form.getByTestId("lsp-init-options").fill('{"tsserver": {"logVerbosity": "off"}}');
    await expect(formError(page, "initOptions")).toHaveCount(0);
    await form.getByTestId("lsp-extensions").fill("TS");
    await form.getByTestId("lsp-extensions").press("Enter");
    await expect(form.getByTestId("lsp-extension-chip")).toHaveText([".ts"]);
    await form.getByTestId("lsp-save").click();
    // Both servers are named: the host's refusal, and the one that owns the extension now.
    await expect(formError(page, "extensions")).toContainText(/\.ts .*"typescript".*"my-ts"/);
    await expect(form.getByTestId("lsp-conflicts")).toContainText(".ts is already routed to TypeScript / JavaScript (typescript)");
    await expect(form.getByRole("button", { name: "Remove it from my-ts" })).toBeVisible();
    await form.screenshot({ path: test.info().outputPath("lsp-form-conflict.png") });
    await expect(page.getByTestId("lsp-saved")).toHaveCount(0);
    await expect(serverRow(page, "my-ts")).toHaveCount(0);

    // Nothing reached the settings: a reload shows the same servers.
    await page.reload();
    await expect(rows).toHaveCount(before);
    await expect(serverRow(page, "my-ts")).toHaveCount(0);

    // A unique extension is accepted; "Saved" appears once the host confirmed, with the extension normalized.
    await page.getByTestId("lsp-add").click();
    await form.getByTestId("lsp-id").fill("my-fixture");
    await form.getByTestId("lsp-command").fill("node");
    await form.getByTestId("lsp-extensions").fill("Fixture, .seamfx");
    await form.getByTestId("lsp-idle").fill("2");
    await form.getByTestId("lsp-save").click();
    const mine = serverRow(page, "my-fixture");
    await expect(mine.getByTestId("lsp-saved")).toBeVisible();
    await expect(mine.getByTestId("lsp-server-extension")).toHaveText([".fixture", ".seamfx"]);
    await expect(mine).toContainText("stops after 2 min idle");
    await expect(rows).toHaveCount(before + 1);

    // Remove asks first.
    await mine.getByTestId("lsp-remove").click();
    await page.getByTestId("lsp-remove-confirm").click();
    await expect(mine).toHaveCount(0);
    await page.reload();
    await expect(rows).toHaveCount(before);
  });
});
