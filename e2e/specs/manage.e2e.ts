import { expect, test } from "@playwright/test";
import { HostProcess, useHost } from "../fixtures/host.js";
import { openSession, send, workspace } from "../fixtures/session.js";

test.describe("managing sessions, tools and settings (UI-1, UI-2, SEC-5)", () => {
  const host = useHost();

  test("the token from the start URL becomes an HttpOnly cookie no script can read, and leaves the address bar (SEC-1)", async ({ page, context }) => {
    await context.clearCookies();
    await page.goto(host.url("/settings"));
    await expect(page).toHaveURL(/\/settings$/);
    const cookie = (await context.cookies()).find((c) => c.name === "seam_token");
    expect(cookie).toMatchObject({ value: host.token, httpOnly: true, sameSite: "Strict", path: "/" });
    expect(await page.evaluate(() => document.cookie)).not.toContain("seam_token");
    // The cookie alone connects: the page loads the host's settings through the same-origin proxy.
    await expect(page.getByTestId("not-connected")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("not-connected")).toHaveCount(0);
  });

  test("a missing workspace is refused inline and creates nothing", async ({ page }) => {
    await page.goto(host.url());
    await page.getByTestId("new-session-button").click();
    await page.getByTestId("session-workspace-input").fill(`${workspace}/does-not-exist`);
    await page.getByTestId("session-create-submit").click();
    await expect(page.getByTestId("session-create-error")).toContainText("does not exist");
    await expect(page.getByTestId("session-item")).toHaveCount(0);
  });

  test("rename in the header, then delete with confirmation", async ({ page }) => {
    await openSession(page, host, "Before");
    await page.getByTestId("session-title").click();
    await page.getByTestId("session-title-input-inline").fill("After rename");
    await page.getByTestId("session-title-input-inline").press("Enter");
    await expect(page.getByTestId("session-title")).toHaveText("After rename");
    await expect(page.getByTestId("session-item-title").filter({ hasText: "After rename" })).toHaveCount(1);
    await page.reload();
    await expect(page.getByTestId("session-title")).toHaveText("After rename");

    await page.getByTestId("session-delete").click();
    await page.getByTestId("session-delete-confirm").click();
    await expect(page).not.toHaveURL(/\/s\//);
    await expect(page.getByTestId("session-item-title").filter({ hasText: "After rename" })).toHaveCount(0);
  });

  test("slash completion and the tool palette's schema form run tools", async ({ page }) => {
    await openSession(page, host, "Tools");
    const composer = page.getByTestId("composer-input");
    await composer.fill("/");
    await expect(page.getByTestId("slash-menu")).toBeVisible();
    await page.locator('[data-testid="slash-item"][data-kind="tool"][data-name="read_file"]').click();
    await expect(composer).toHaveValue("/call read_file {}");

    await composer.fill("");
    await page.getByTestId("tools-button").click();
    await page.locator('[data-testid="tool-palette-item"][data-tool-name="read_file"]').click();
    await page.getByTestId("tool-palette").getByLabel(/^path/i).fill("src/greet.ts");
    await page.getByTestId("tool-form-submit").click();
    const card = page.locator('[data-testid="tool-card"][data-tool-name="read_file"]');
    await expect(card).toHaveAttribute("data-status", "ok");
    await card.getByTestId("tool-card-toggle").click();
    await expect(card.getByTestId("tool-card-result")).toContainText("Hello, ${name}!");
  });

  test("a tool error shows its code on the card", async ({ page }) => {
    await openSession(page, host, "Errors");
    await send(page, '/call read_file {"path": "../../../etc/passwd"}');
    const card = page.locator('[data-testid="tool-card"][data-tool-name="read_file"]');
    await expect(card).toHaveAttribute("data-status", "error");
    await expect(card).toContainText("outside_workspace");
  });

  test("model settings validate inline, save nothing on bad input, and say Saved only when stored", async ({ page }) => {
    await page.goto(host.url("/settings"));
    await expect(page.getByTestId("model-id")).toHaveValue("scripted");
    await page.getByTestId("model-id").fill("");
    await page.getByTestId("model-save").click();
    await expect(page.getByTestId("model-error")).toContainText("Model id is required");
    await expect(page.getByTestId("model-saved")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("model-id")).toHaveValue("scripted");

    await page.getByTestId("model-key-env").fill("not a name");
    await page.getByTestId("model-save").click();
    await expect(page.getByTestId("model-error")).toContainText(/environment variable name/);
    await page.getByTestId("model-key-env").fill("");
    await page.getByTestId("model-max-steps").fill("7");
    await page.getByTestId("model-save").click();
    await expect(page.getByTestId("model-saved")).toBeVisible();
    await page.reload();
    await expect(page.getByTestId("model-max-steps")).toHaveValue("7");
  });

  test("the capability overview shows each capability and the processes section", async ({ page }) => {
    await page.goto(host.url("/capabilities"));
    const workspaceRow = page.locator('[data-testid="capability-row"][data-capability="workspace"]');
    await expect(workspaceRow).toContainText("read_file");
    await expect(workspaceRow).toContainText("grep");
    await expect(page.locator('[data-testid="capability-row"][data-capability="mcp"]')).toContainText("No MCP servers are configured");
    await expect(page.getByTestId("processes-empty").or(page.getByTestId("processes-table"))).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("capabilities.png"), fullPage: true });
  });
});

test("without the token the UI says how to connect (SEC-1)", async ({ page, context }) => {
  const host = new HostProcess();
  await host.start();
  try {
    await context.clearCookies();
    await page.goto("/");
    await expect(page.getByTestId("not-connected")).toContainText(/npm start/);
  } finally {
    await host.stop();
  }
});
