import { expect, test } from "@playwright/test";
import { useHost } from "../fixtures/host.js";
import { openSession, send } from "../fixtures/session.js";

test.describe("context meter and compaction (CTX-1, CTX-2)", () => {
  // A known window, so the meter shows a share of it (and a threshold far above what these turns reach).
  const host = useHost({ env: { SEAM_CONTEXT_WINDOW: "200000" } });

  test("the header meter moves after a turn; /compact shows a divider with the summary and keeps the old items", async ({ page }) => {
    await openSession(page, host, "Compaction");
    const meter = page.getByTestId("context-meter");
    await expect(meter).toHaveAttribute("aria-label", /\(\d+(\.\d)?%\)/);
    const before = await meter.getAttribute("aria-label");

    await send(page, `ctx: first question — ${"please explain the fixture workspace in detail. ".repeat(12)}`);
    await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-state", "complete");
    await expect(meter).not.toHaveAttribute("aria-label", before ?? "");
    for (const n of ["second", "third"]) {
      await send(page, `ctx: ${n} question`);
      await expect(page.getByTestId("message-assistant")).toHaveCount(n === "second" ? 2 : 3);
      await expect(page.getByTestId("message-assistant").last()).toHaveAttribute("data-state", "complete");
    }
    const full = await meter.getAttribute("aria-label");

    await send(page, "/compact the fixture questions");
    const divider = page.getByTestId("compaction-divider");
    await expect(divider).toBeVisible();
    await expect(page.getByTestId("compaction-title")).toHaveText(/^\d+ items? compacted$/);
    await expect(divider).toContainText("by /compact");
    // No model answer follows a /compact.
    await expect(page.getByTestId("message-assistant")).toHaveCount(3);
    await page.getByTestId("compaction-toggle").click();
    await expect(page.getByTestId("compaction-summary")).toContainText("E2E-SUMMARY: the user asked three numbered questions");
    await expect(page.getByTestId("compaction-summary")).toContainText("Focus: the fixture questions");
    // The meter drops once the summary replaces the first turn.
    await expect(meter).not.toHaveAttribute("aria-label", full ?? "");
    // Nothing is deleted: the first question is still in the timeline.
    await expect(page.getByTestId("message-user").first()).toContainText("ctx: first question");
    await page.screenshot({ path: test.info().outputPath("compaction-divider.png"), fullPage: true });

    await page.reload();
    await expect(page.getByTestId("compaction-divider")).toBeVisible();
    await expect(page.getByTestId("message-user").first()).toContainText("ctx: first question");
  });
});
