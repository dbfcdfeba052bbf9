import { expect, test } from "@playwright/test";
import { HostProcess } from "../fixtures/host.js";
import { createSession, send } from "../fixtures/session.js";
import { exaFake, openResult, pageServer, perplexityFake, providerRow, saveWeb, WEB_KEYS, type Fake } from "../fixtures/web.js";

test.describe("Web seam: Settings → Web, health, probe and web tool cards (WEB-3, WEB-7, WEB-9, WEB-11)", () => {
  // Two search keys present, nothing chosen: exactly the ambiguous row of WEB-3's table.
  const host = new HostProcess({
    env: { ...WEB_KEYS, DEEPSEEK_API_KEY: undefined, SEAM_WEB_SEARCH_PROVIDER: undefined, SEAM_WEB_FETCH_PROVIDER: undefined },
  });
  let exa: Fake;
  let perplexity: Fake;
  let pages: Fake;

  test.beforeAll(async () => {
    [exa, perplexity, pages] = await Promise.all([exaFake(), perplexityFake(), pageServer()]);
    await host.start();
  });
  test.afterAll(async () => {
    await host.stop();
    await Promise.all([exa?.close(), perplexity?.close(), pages?.close()]);
  });

  test("two available search providers: the call fails as ambiguous, choosing one makes it list sources", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(host.url("/settings"));
    await page.locator('[data-testid="web-provider-base-url"][data-id="exa"]').fill(exa.url);
    await page.locator('[data-testid="web-provider-base-url"][data-id="perplexity"]').fill(perplexity.url);
    await saveWeb(page);

    // Both configured with keys from the environment, both available; the page names the variables, never the keys.
    for (const [id, envVar] of [["exa", "EXA_API_KEY"], ["perplexity", "PERPLEXITY_API_KEY"]] as const) {
      const row = providerRow(page, "search", id);
      await expect(row).toHaveAttribute("data-available", "true");
      await expect(row).toHaveAttribute("data-selected", "false");
      await expect(row.getByTestId("web-key-source")).toHaveText(`from env ${envVar}`);
    }
    await expect(providerRow(page, "search", "deepseek")).toHaveAttribute("data-available", "false");
    await expect(providerRow(page, "search", "deepseek").getByTestId("web-provider-problem")).toContainText("DEEPSEEK_API_KEY is not set");
    const selection = page.locator('[data-testid="web-selection"][data-kind="search"]');
    await expect(selection).toHaveAttribute("data-ok", "false");
    await expect(selection).toHaveAttribute("data-code", "ambiguous_provider");
    await expect(selection).toContainText("Two search providers are available (exa, perplexity); choose one — Seam never picks the first.");
    await expect(page.locator("body")).not.toContainText(WEB_KEYS.EXA_API_KEY);
    await expect(page.locator("body")).not.toContainText(WEB_KEYS.PERPLEXITY_API_KEY);

    // A probe is one real request; the row shows its outcome.
    const exaRow = providerRow(page, "search", "exa");
    await exaRow.getByTestId("web-probe").click();
    await expect(page.getByTestId("web-probe-result")).toHaveAttribute("data-ok", "true");
    await expect(page.getByTestId("web-probe-result")).toContainText("Search answered with 2 source(s)");
    await expect(exaRow.getByTestId("web-last-call")).toHaveAttribute("data-ok", "true");
    expect(exa.requests).toHaveLength(1);
    expect(JSON.parse(exa.requests[0]!.body)).toMatchObject({ query: "Seam web search connectivity check" });
    await page.setViewportSize({ width: 1280, height: 2300 });
    await page.getByTestId("web-section").scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("web-settings.png") });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The model's call fails with the selection error on its card; no provider was contacted.
    await createSession(page, "Web search");
    const sessionPath = new URL(page.url()).pathname;
    await send(page, "Search the web for Seam");
    const failed = await openResult(page, "web_search", 0, "error");
    await expect(failed.getByTestId("tool-card-status")).toContainText("ambiguous_provider");
    await expect(failed.getByTestId("web-tool-error")).toHaveAttribute("data-code", "ambiguous_provider");
    await expect(failed.getByTestId("web-error-message")).toContainText("Several search providers are available (exa, perplexity) and none is chosen");
    expect(exa.requests).toHaveLength(1);
    expect(perplexity.requests).toHaveLength(0);

    // Choose Exa in settings; "Saved" only once the host confirmed, and selection now says so.
    await page.goto(host.url("/settings"));
    await page.getByTestId("web-search-provider").selectOption("exa");
    await saveWeb(page);
    await expect(selection).toHaveAttribute("data-ok", "true");
    await expect(selection).toContainText("web_search uses Exa — chosen in these settings.");
    await expect(exaRow).toHaveAttribute("data-selected", "true");

    // The same call now succeeds and the card lists the sources (hostname when there is no title).
    await page.goto(host.url(sessionPath));
    await send(page, "Search the web for Seam");
    const ok = await openResult(page, "web_search", 1, "ok");
    const sources = ok.getByTestId("web-source");
    await expect(sources).toHaveCount(2);
    await expect(sources.nth(0)).toHaveText("Seam — the web seam");
    await expect(sources.nth(0)).toHaveAttribute("href", "https://seam.example/docs/web");
    await expect(sources.nth(1)).toHaveText("notes.example.org");
    await expect(ok.getByTestId("web-search-result")).toContainText("with an SSRF guard.");
    await expect(ok.getByTestId("web-search-result")).toContainText("via exa");
    expect(exa.requests).toHaveLength(2);
    expect(JSON.parse(exa.requests[1]!.body)).toEqual({ query: "seam agent workbench", type: "auto", numResults: 8, contents: { highlights: true } });
    expect(perplexity.requests).toHaveLength(0);
    await expect(page.getByTestId("message-assistant").last()).toContainText("The search is done.");
    await page.screenshot({ path: test.info().outputPath("web-search-card.png"), fullPage: true });
  });

  test("web_fetch: refused until allowlisted, then Markdown with the table; a metadata address is refused before connecting", async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto(host.url());
    await createSession(page, "Web fetch");
    const sessionPath = new URL(page.url()).pathname;

    await send(page, "Fetch the table page");
    const blocked = await openResult(page, "web_fetch", 0, "error");
    await expect(blocked.getByTestId("web-tool-error")).toHaveAttribute("data-code", "blocked_url");
    expect(pages.requests).toHaveLength(0);

    // The allowlist is the only way past the guard; a bad entry is refused inline.
    await page.goto(host.url("/settings"));
    await page.getByTestId("web-allowlist-input").fill("not a host!");
    await page.getByTestId("web-allowlist-add").click();
    await expect(page.getByTestId("web-allowlist-error")).toContainText("Use a host name, an IP address or a CIDR");
    await expect(page.getByTestId("web-allowlist-row")).toHaveCount(0);
    await page.getByTestId("web-allowlist-input").fill("127.0.0.1");
    await page.getByTestId("web-allowlist-add").click();
    await expect(page.getByTestId("web-allowlist-row")).toHaveCount(1);
    await saveWeb(page);

    await page.goto(host.url(sessionPath));
    await send(page, "Fetch the table page");
    const fetched = await openResult(page, "web_fetch", 1, "ok");
    await expect(fetched.getByTestId("web-fetch-status")).toHaveText("HTTP 200");
    await expect(fetched.getByTestId("web-fetch-url")).toHaveText("http://127.0.0.1:4463/table.html");
    const body = fetched.getByTestId("web-fetch-body");
    await expect(body.locator("h1")).toHaveText("Provider matrix");
    await expect(body.locator("table tbody tr")).toHaveCount(2);
    await expect(body.locator("table")).toContainText("PERPLEXITY_API_KEY");
    await expect(body).not.toContainText("window.evil");
    await fetched.getByTestId("web-fetch-raw-toggle").click();
    await expect(fetched.getByTestId("tool-card-result")).toBeVisible();
    await expect(fetched.getByTestId("tool-card-result")).toContainText("| Exa | EXA\\_API\\_KEY |");
    await fetched.getByTestId("web-fetch-rendered-toggle").click();
    await expect(body).toBeVisible();
    await fetched.screenshot({ path: test.info().outputPath("web-fetch-card.png") });
    expect(pages.requests).toHaveLength(1);
    expect(pages.requests[0]!.headers["user-agent"]).toContain("Seam/");

    // A cloud-metadata address: the guard refuses it before any connection.
    await send(page, "Fetch the metadata address");
    const metadata = await openResult(page, "web_fetch", 2, "error");
    await expect(metadata.getByTestId("web-tool-error")).toHaveAttribute("data-code", "blocked_url");
    await expect(metadata.getByTestId("web-error-message")).toContainText("169.254.169.254");
    await page.screenshot({ path: test.info().outputPath("web-fetch-cards.png"), fullPage: true });
  });

  test("a bad setting is shown inline and nothing is saved", async ({ page }) => {
    await page.goto(host.url("/settings"));
    const exaUrl = page.locator('[data-testid="web-provider-base-url"][data-id="exa"]');
    await expect(exaUrl).toHaveValue(exa.url);
    await exaUrl.fill("not a url");
    await page.getByTestId("web-search-max-results").fill("500");
    await page.getByTestId("web-save").click();
    await expect(page.getByTestId("web-error")).toContainText("Not saved");
    await expect(page.getByTestId("web-saved")).toHaveCount(0);
    await expect(page.getByTestId("web-field-error")).toContainText(["Use an http(s) URL", "Sources per call must be a whole number from 1 to 50"]);
    await page.reload();
    await expect(page.locator('[data-testid="web-provider-base-url"][data-id="exa"]')).toHaveValue(exa.url);
    await expect(page.getByTestId("web-search-max-results")).toHaveValue("8");
  });
});
