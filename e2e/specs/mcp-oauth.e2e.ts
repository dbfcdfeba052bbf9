import { expect, test } from "@playwright/test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startOAuthMcpFixture, type OAuthMcpFixture } from "../../packages/testkit/src/index.js";
import { useHost } from "../fixtures/host.js";
import { serverRow } from "../fixtures/mcp.js";
import { createSession, send } from "../fixtures/session.js";

/**
 * OAuth sign-in from the server page (MCP-11) against the loopback authorization server of `@seam/testkit`,
 * whose authorize page approves at once: Authorize opens it in a new tab, the redirect lands on the host's
 * callback, the server connects, and a chat's tool call runs with the token.
 */
let fx: OAuthMcpFixture;
test.beforeAll(async () => {
  fx = await startOAuthMcpFixture({ subject: "e2e-user@example.test" });
});
test.afterAll(async () => {
  await fx?.close();
});

test.describe("MCP OAuth (MCP-11)", () => {
  const host = useHost();

  test("sign in from the Authorization tab, then a chat's tool call uses the token", async ({ page, context }) => {
    test.setTimeout(90_000);
    await page.goto(host.url("/mcp"));
    await page.getByTestId("mcp-add-button").click();
    await page.getByTestId("mcp-name").fill("secure");
    await page.getByTestId("mcp-transport-http").click();
    await page.getByTestId("mcp-url").fill(fx.url);
    await page.getByTestId("mcp-save").click();

    const row = serverRow(page, "secure");
    await expect(row).toHaveAttribute("data-state", "needs_authorization", { timeout: 30_000 });
    await expect(row.getByTestId("mcp-status")).toHaveText(/needs authorization/);
    await row.getByTestId("mcp-server-expand").click();
    await expect(page.getByTestId("mcp-needs-authorization")).toContainText("sign in");
    const auth = page.getByTestId("mcp-auth");
    await expect(auth).toBeVisible();
    await expect(auth).toHaveAttribute("data-auth-state", "needs_authorization");
    await page.screenshot({ path: test.info().outputPath("mcp-oauth-needs.png"), fullPage: true });

    const popupPromise = context.waitForEvent("page");
    await page.getByTestId("mcp-authorize").click();
    const popup = await popupPromise;
    await popup.waitForURL(/\/oauth\/callback\?/, { timeout: 20_000 });
    await expect(popup.getByTestId("oauth-callback-message")).toHaveText("Signed in — you can close this tab.");
    await popup.screenshot({ path: test.info().outputPath("mcp-oauth-callback.png") });
    await popup.close();

    await expect(row).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await expect(auth).toHaveAttribute("data-auth-state", "signed_in", { timeout: 10_000 });
    await expect(page.getByTestId("mcp-auth-subject")).toHaveText("e2e-user@example.test");
    await expect(page.getByTestId("mcp-auth-scopes")).toHaveText("mcp:read");
    await expect(page.getByTestId("mcp-sign-out")).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("mcp-oauth-signed-in.png"), fullPage: true });

    // Tokens only in the 0600 secrets file.
    const secrets = join(host.home, "secrets.json");
    expect(statSync(secrets).mode & 0o777).toBe(0o600);
    expect(Object.keys(JSON.parse(readFileSync(secrets, "utf8")))).toContain("mcp-oauth:secure");

    await createSession(page, "OAuth call");
    await send(page, "Who am I on the OAuth server?");
    const card = page.locator('[data-testid="tool-card"][data-tool-name="mcp__secure__whoami"]');
    await expect(card).toHaveAttribute("data-status", "ok", { timeout: 20_000 });
    await card.getByTestId("tool-card-toggle").click();
    await card.getByRole("tab", { name: "Result" }).click();
    await expect(card.getByTestId("tool-card-result")).toContainText("subject=e2e-user@example.test");
    await expect(page.getByTestId("message-assistant").last()).toContainText("It says:");
    expect(fx.requests.some((r) => r.authorized && r.status === 200)).toBe(true);
  });

  test("sign out disconnects; a denied sign-in is explained on the callback page and the server page", async ({ page, context }) => {
    await page.goto(host.url("/mcp"));
    const row = serverRow(page, "secure");
    await expect(row).toHaveAttribute("data-state", "ready", { timeout: 20_000 });
    await row.getByTestId("mcp-server-expand").click();
    await page.getByTestId("mcp-tab-authorization").click();
    await page.getByTestId("mcp-sign-out").click();
    await expect(row).toHaveAttribute("data-state", "needs_authorization", { timeout: 20_000 });
    await expect(page.getByTestId("mcp-auth")).toHaveAttribute("data-auth-state", "needs_authorization");
    expect(readFileSync(join(host.home, "secrets.json"), "utf8")).not.toContain("access_token");

    fx.as.deny = true;
    try {
      const popupPromise = context.waitForEvent("page");
      await page.getByTestId("mcp-authorize").click();
      const popup = await popupPromise;
      await popup.waitForURL(/\/oauth\/callback\?/, { timeout: 20_000 });
      await expect(popup.getByTestId("oauth-callback-title")).toHaveText("Sign-in failed");
      await expect(popup.getByTestId("oauth-callback-message")).toContainText("Access was denied: The user said no");
      await popup.close();
    } finally {
      fx.as.deny = false;
    }
    await expect(page.getByTestId("mcp-auth-error")).toContainText("Access was denied", { timeout: 10_000 });
    await page.screenshot({ path: test.info().outputPath("mcp-oauth-denied.png"), fullPage: true });
  });
});
