import { expect, test, type Page } from "@playwright/test";
import { useHost } from "../fixtures/host.js";
import { openSession, send } from "../fixtures/session.js";

/** The scripted model's turns are in scripts/extensions.json. */
const frameOf = (page: Page, pkg: string) => page.locator(`[data-testid="extension-frame"][data-package="${pkg}"]`);
const approvalFor = (page: Page, pkg: string) => page.locator(`[data-testid="approval-card"][data-package="${pkg}"]`).first();
const toolCard = (page: Page, name: string) => page.locator(`[data-testid="tool-card"][data-tool-name="${name}"]`);

test.describe("Dynamic extensions (EXT-1..6)", () => {
  const host = useHost();

  test("counter: approve with future versions, click and model both update it, grant covers v2, revoke makes v3 ask, deny → rejected", async ({ page }) => {
    test.setTimeout(120_000);
    await openSession(page, host, "Counter");
    await send(page, "Build me a counter extension");

    // The run request shows the package, purpose and source; no earlier version to diff against.
    const approval = approvalFor(page, "counter");
    await expect(approval).toBeVisible({ timeout: 20_000 });
    await expect(approval).toContainText("A counter widget the model can increment");
    await expect(approval).toContainText("counter_increment");
    await expect(page.getByTestId("approval-count").first()).toHaveText("1");
    await page.screenshot({ path: test.info().outputPath("approval.png"), fullPage: true });
    await approval.getByLabel("Allow future versions of this package").check();
    await approval.getByRole("button", { name: "Allow" }).click();
    await expect(page.locator('[data-testid="approval-card"]')).toHaveCount(0);

    // The widget renders in the page; clicking calls the host half (browser → host).
    const frame = frameOf(page, "counter").first();
    await expect(frame).toBeVisible({ timeout: 20_000 });
    const widget = frame.frameLocator("iframe");
    await expect(widget.locator("h1")).toHaveText("Counter v1");
    await expect(widget.locator("#count")).toHaveText("0");
    await widget.getByRole("button", { name: "Add one" }).click();
    await expect(widget.locator("#count")).toHaveText("1");
    await expect(page.getByTestId("message-assistant").last()).toContainText("counter v1 is running");
    await page.screenshot({ path: test.info().outputPath("widget.png"), fullPage: true });

    // The model's tool call updates the widget (host → browser).
    await send(page, "Increment the counter please");
    await expect(toolCard(page, "counter_increment")).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await expect(widget.locator("#count")).toHaveText("2");

    // Version 2 runs without a prompt thanks to the grant.
    await send(page, "Make version 2");
    await expect(page.getByTestId("message-assistant").last()).toContainText("counter v2 is running", { timeout: 20_000 });
    await expect(widget.locator("h1")).toHaveText("Counter v2", { timeout: 10_000 });
    await expect(widget.locator("#count")).toHaveText("0"); // a new version starts from its own state
    await expect(page.locator('[data-testid="approval-card"]')).toHaveCount(0);

    // Revoke the grant on the extensions page; version 3 asks again, with a diff against v2.
    const sessionUrl = page.url();
    await page.goto(host.url("/extensions"));
    const pkgRow = page.locator('[data-testid="extension-package"][data-package="counter"]');
    await expect(pkgRow).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("extensions-page.png"), fullPage: true });
    await pkgRow.getByRole("button", { name: "Revoke" }).click();
    await expect(pkgRow.getByRole("button", { name: "Revoke" })).toHaveCount(0);
    await page.goto(sessionUrl);
    await send(page, "Make version 3");
    const v3 = approvalFor(page, "counter");
    await expect(v3).toBeVisible({ timeout: 20_000 });
    await expect(v3).toContainText("v3");
    await expect(v3.getByTestId("diff-added").first()).toContainText("Counter v3");
    await expect(v3.getByTestId("diff-removed").first()).toContainText("Counter v2");
    await page.screenshot({ path: test.info().outputPath("approval-diff.png"), fullPage: true });
    await v3.getByRole("button", { name: "Deny" }).click();
    const run3 = toolCard(page, "extension_run").last();
    await expect(run3).toHaveAttribute("data-status", "error", { timeout: 20_000 });
    await expect(run3).toContainText("rejected");
    await expect(page.getByTestId("message-assistant").last()).toContainText("rejected");
    // The denial left v2 running.
    await expect(widget.locator("h1")).toHaveText("Counter v2");

    // EXT-4: a second extension's sandboxed frame cannot read the page's DOM, cookies or storage,
    // and what it posts straight at the other frames is not delivered to their bridge.
    await send(page, "Run the snoop extension");
    await approvalFor(page, "snoop").getByRole("button", { name: "Allow" }).click();
    const report = frameOf(page, "snoop").first().frameLocator("iframe").locator("#report");
    await expect(report).toBeVisible({ timeout: 20_000 });
    const probed = JSON.parse((await report.textContent()) ?? "{}") as Record<string, string | number>;
    for (const key of ["parentDom", "cookie", "localStorage", "sessionStorage", "topLocation"]) {
      expect(String(probed[key]), key).toMatch(/^blocked: /);
    }
    expect(probed.posted).toBeGreaterThanOrEqual(2);
    expect(probed.impersonated).toBe("posted"); // it could post to the page, which must ignore it
    await page.waitForTimeout(500);
    await expect(widget.locator("#count")).toHaveText("0");
  });

  test("a run request reaches every open page and the first answer wins", async ({ page, context }) => {
    test.setTimeout(90_000);
    await openSession(page, host, "Two pages");
    const other = await context.newPage();
    await other.goto(host.url("/mcp"));
    await send(page, "Run the snoop extension");
    await expect(approvalFor(page, "snoop")).toBeVisible({ timeout: 20_000 });
    await expect(other.getByTestId("approval-count").first()).toHaveText("1");
    await other.getByTestId("approval-tray-button").click();
    await expect(approvalFor(other, "snoop")).toBeVisible();
    await other.screenshot({ path: test.info().outputPath("tray.png") });
    await approvalFor(page, "snoop").getByRole("button", { name: "Allow" }).click();
    await expect(other.locator('[data-testid="approval-card"]')).toHaveCount(0);
    await expect(other.getByTestId("approval-count")).toHaveCount(0);
    await other.close();
    await expect(frameOf(page, "snoop").first().frameLocator("iframe").locator("#report")).toBeVisible({ timeout: 20_000 });
  });

  test("a browser half that throws while rendering is refused with browser_half_failed and shown on the page", async ({ page }) => {
    test.setTimeout(60_000);
    await openSession(page, host, "Broken widget");
    await send(page, "Run the broken widget");
    await approvalFor(page, "broken").getByRole("button", { name: "Allow" }).click();
    const run = toolCard(page, "extension_run").last();
    await expect(run).toHaveAttribute("data-status", "error", { timeout: 20_000 });
    await expect(run).toContainText("browser_half_failed");
    await expect(page.getByTestId("message-assistant").last()).toContainText("missingHelper is not defined");
    await page.goto(host.url("/extensions"));
    const failed = page.locator('[data-testid="extension-run"][data-package="broken"]').first();
    await expect(failed.getByTestId("extension-run-browser-failure")).toContainText("missingHelper is not defined");
    const pkg = page.locator('[data-testid="extension-package"][data-package="counter"]').first();
    await pkg.getByTestId("extension-package-toggle").click();
    // EXT-2: any two versions diff, half by half (default: the last change, v2 → v3).
    const diff = page.getByTestId("extension-version-diff");
    await expect(diff.getByTestId("diff-added").first()).toContainText("Counter v3");
    await diff.getByTestId("extension-diff-from").selectOption("1");
    await expect(diff.getByTestId("diff-removed").first()).toContainText("Counter v1");
    await page.screenshot({ path: test.info().outputPath("extensions-versions.png"), fullPage: true });
  });

  test("six running widgets on one page share one bridge stream: the page stays responsive", async ({ page }) => {
    test.setTimeout(120_000);
    await openSession(page, host, "Six widgets");
    await send(page, "Start six widgets");
    for (let i = 1; i <= 6; i++) {
      const card = approvalFor(page, `w${i}`);
      await expect(card).toBeVisible({ timeout: 20_000 });
      await card.getByRole("button", { name: "Allow" }).click();
      await expect(frameOf(page, `w${i}`)).toHaveAttribute("data-ready", "true", { timeout: 20_000 });
    }
    await expect(page.getByTestId("message-assistant").last()).toContainText("All six are running.", { timeout: 20_000 });
    // Browser → host from the last frame, host → browser from the model's tool call, and a new turn.
    const six = frameOf(page, "w6").frameLocator("iframe");
    await six.getByRole("button", { name: "Add one to 6" }).click();
    await expect(six.locator("#count")).toHaveText("1");
    await send(page, "Bump widget six");
    await expect(page.getByTestId("message-assistant").last()).toContainText("Widget six:", { timeout: 20_000 });
    await expect(six.locator("#count")).toHaveText("2");
    await expect(frameOf(page, "w1").frameLocator("iframe").locator("#count")).toHaveText("0");
  });
});
