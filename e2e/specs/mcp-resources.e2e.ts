import { expect, test, type Page } from "@playwright/test";
import { useHost } from "../fixtures/host.js";
import { addStdioServer, EVERYTHING, serverRow } from "../fixtures/mcp.js";
import { createSession, send } from "../fixtures/session.js";
import { PORTS } from "../ports.js";

const ARCH = "demo://resource/static/document/architecture.md";

interface Recorded { body: { messages?: { role: string; content: unknown }[] } }
/** The scripted model's last request whose messages contain `text`, as one JSON string. */
async function requestWith(text: string): Promise<string> {
  const all = (await (await fetch(`http://127.0.0.1:${PORTS.model}/__requests`)).json()) as Recorded[];
  const last = all.filter((r) => JSON.stringify(r.body.messages ?? []).includes(text)).at(-1);
  return last ? JSON.stringify(last.body.messages) : "";
}

async function openServer(page: Page, url: string) {
  await page.goto(url);
  const row = serverRow(page, "everything");
  await expect(row).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  await row.getByTestId("mcp-server-expand").click();
}

test.describe("MCP resources and prompts (MCP-9)", () => {
  test.describe.configure({ mode: "serial" });
  const host = useHost();

  test("browse server-everything's resources, preview one, attach it to a message: the model's request contains it", async ({ page }) => {
    test.setTimeout(150_000);
    await page.goto(host.url("/mcp"));
    await addStdioServer(page, "everything", process.execPath, [EVERYTHING, "stdio"]);
    await expect(serverRow(page, "everything")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await createSession(page, "Resources");

    await openServer(page, host.url("/mcp"));
    await page.getByTestId("mcp-tab-resources").click();
    const item = page.locator(`[data-testid="mcp-resource"][data-uri="${ARCH}"]`);
    await expect(item).toBeVisible({ timeout: 20_000 });
    await item.click();
    await expect(page.getByTestId("mcp-resource-text")).toContainText("Architecture", { timeout: 20_000 });

    // A template read: the blob template with resourceId 2 shows as a blob with its size.
    const template = page.locator('[data-testid="mcp-template"][data-template="demo://resource/dynamic/blob/{resourceId}"]');
    await template.getByTestId("mcp-template-read").click();
    await expect(template.getByRole("alert")).toContainText("Fill in resourceId");
    await template.getByTestId("mcp-template-var").fill("2");
    await template.getByTestId("mcp-template-read").click();
    await expect(page.getByTestId("mcp-resource-blob")).toBeVisible({ timeout: 20_000 });
    await page.screenshot({ path: test.info().outputPath("mcp-resources-tab.png"), fullPage: true });

    await item.click();
    await expect(page.getByTestId("mcp-resource-text")).toContainText("Architecture", { timeout: 20_000 });
    await page.getByTestId("mcp-attach").click();
    await page.getByTestId("mcp-session-option").first().click();
    await expect(page).toHaveURL(/\/s\//);
    await expect(page.locator(`[data-testid="composer-attachment"][data-uri="${ARCH}"]`)).toBeVisible();

    await send(page, "What does the attached doc say?");
    await expect(page.getByTestId("message-assistant").last()).toContainText("I read the attached resource.", { timeout: 20_000 });
    await expect(page.getByTestId("composer-attachments")).toHaveCount(0);
    await expect.poll(() => requestWith("What does the attached doc say?")).toContain(`<mcp_resource server=\\"everything\\" uri=\\"${ARCH}\\"`);
    expect(await requestWith("What does the attached doc say?")).toContain("Everything Server");

    // Persisted: after a reload the timeline still shows the attachment.
    await page.reload();
    await expect(page.getByText("Attached MCP resource")).toBeVisible({ timeout: 20_000 });

    // From the composer: the Attach picker lists the ready servers' resources; a chip can be removed again.
    await page.getByTestId("attach-button").click();
    const picker = page.getByTestId("mcp-resource-picker");
    const features = picker.locator('[data-testid="mcp-picker-resource"][data-uri="demo://resource/static/document/features.md"]');
    await expect(features).toBeVisible({ timeout: 20_000 });
    await features.click();
    await expect(picker).toHaveCount(0);
    const chip = page.locator('[data-testid="composer-attachment"][data-uri="demo://resource/static/document/features.md"]');
    await expect(chip).toBeVisible();
    await page.screenshot({ path: test.info().outputPath("mcp-composer-chip.png") });
    await chip.getByRole("button").click();
    await expect(page.getByTestId("composer-attachments")).toHaveCount(0);
  });

  test("run a prompt as a slash command: typed directly, and from the / menu with its arguments form", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(host.url("/"));
    await createSession(page, "Prompts");

    // Enter picks the prompt in the / menu (it has no arguments: the command is inserted), Enter again sends it.
    await page.getByTestId("composer-input").fill("/mcp__everything__simple-prompt");
    await expect(page.locator('[data-testid="slash-item"][data-kind="prompt"]')).toHaveCount(1, { timeout: 20_000 });
    await page.getByTestId("composer-input").press("Enter");
    await expect(page.getByTestId("composer-input")).toHaveValue("/mcp__everything__simple-prompt ");
    await page.getByTestId("composer-input").press("Enter");
    await expect(page.getByTestId("message-assistant").last()).toContainText("Prompt received.", { timeout: 20_000 });
    await expect(page.getByText("From the MCP prompt everything/simple-prompt")).toBeVisible();
    await expect.poll(() => requestWith('ran the prompt \\"simple-prompt\\"')).toContain("This is a simple prompt without arguments.");

    const input = page.getByTestId("composer-input");
    await input.fill("/mcp__everything__args");
    const entry = page.locator('[data-testid="slash-item"][data-kind="prompt"][data-name="mcp__everything__args-prompt"]');
    await expect(entry).toBeVisible({ timeout: 20_000 });
    await input.press("Enter");
    const form = page.getByTestId("mcp-prompt-args");
    await expect(form).toBeVisible();
    await form.getByTestId("mcp-prompt-args-run").click();
    await expect(form.getByTestId("mcp-field-error")).toHaveText("Required");
    await form.getByLabel(/^city/).fill("San Francisco");
    await expect(form.getByTestId("mcp-field-error")).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath("mcp-prompt-form.png") });
    await form.getByTestId("mcp-prompt-args-run").click();
    await expect(page.getByTestId("message-assistant").last()).toContainText("Prompt received.", { timeout: 20_000 });
    await expect.poll(() => requestWith('ran the prompt \\"args-prompt\\"')).toContain("San Francisco");
  });

  test("try a tool from the server page", async ({ page }) => {
    test.setTimeout(90_000);
    await openServer(page, host.url("/mcp"));
    await page.getByTestId("mcp-tab-try").click();
    await page.getByTestId("mcp-try-tool-select").selectOption("get-sum");
    await page.getByTestId("mcp-try-run").click();
    await expect(page.getByTestId("mcp-field-error").first()).toHaveText("Required");
    await page.locator('[data-testid="mcp-field"][data-field="a"]').fill("2");
    await page.locator('[data-testid="mcp-field"][data-field="b"]').fill("40");
    await page.getByTestId("mcp-try-run").click();
    await expect(page.getByTestId("mcp-try-result")).toContainText("42", { timeout: 20_000 });

    // A tool disabled for the agent can still be tried, and the form says so.
    await page.getByRole("tab", { name: /^Tools/ }).click();
    const echoRow = page.locator('[data-testid="mcp-tool-row"][data-public-name="mcp__everything__echo"]');
    await echoRow.getByTestId("mcp-tool-enabled").click();
    await expect(echoRow).toHaveAttribute("data-enabled", "false");
    await page.getByTestId("mcp-tab-try").click();
    await page.getByTestId("mcp-try-tool-select").selectOption("echo");
    await expect(page.getByTestId("mcp-try-disabled-note")).toBeVisible();
    await page.locator('[data-testid="mcp-field"][data-field="message"]').fill("tried by hand");
    await page.getByTestId("mcp-try-run").click();
    await expect(page.getByTestId("mcp-try-result")).toContainText("Echo: tried by hand", { timeout: 20_000 });
    await page.screenshot({ path: test.info().outputPath("mcp-try-tool.png"), fullPage: true });
  });

  test("the Prompts tab previews a prompt with its arguments and runs it in a session", async ({ page }) => {
    test.setTimeout(90_000);
    await openServer(page, host.url("/mcp"));
    await page.getByTestId("mcp-tab-prompts").click();
    const prompt = page.locator('[data-testid="mcp-prompt"][data-prompt="args-prompt"]');
    await expect(prompt).toBeVisible({ timeout: 20_000 });
    await prompt.getByTestId("mcp-prompt-preview").click();
    await expect(prompt.getByTestId("mcp-field-error")).toHaveText("Required");
    await prompt.getByLabel(/^city/).fill("Lisbon");
    await prompt.getByTestId("mcp-prompt-preview").click();
    await expect(prompt.getByTestId("mcp-prompt-messages")).toContainText("Lisbon", { timeout: 20_000 });
    await page.screenshot({ path: test.info().outputPath("mcp-prompts-tab.png"), fullPage: true });
    await prompt.getByTestId("mcp-prompt-run").click();
    await page.getByTestId("mcp-session-option").first().click();
    await expect(page).toHaveURL(/\/s\//, { timeout: 20_000 });
    await expect(page.getByText("From the MCP prompt everything/args-prompt").last()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("message-assistant").last()).toContainText("Prompt received.", { timeout: 20_000 });
  });
});
