import { expect, test } from "@playwright/test";
import { useHost } from "../fixtures/host.js";
import { openSession, send } from "../fixtures/session.js";

/**
 * Chrome allows six HTTP/1.1 connections per host, and every live stream (SSE) holds one. Several open
 * chat tabs must still leave room for queries and mutations.
 */
test.describe("several tabs", () => {
  const host = useHost();

  test("four chat tabs stay usable", async ({ context }) => {
    test.setTimeout(90_000);
    const pages = [];
    for (let i = 1; i <= 4; i++) {
      const page = await context.newPage();
      await openSession(page, host, `Tab ${i}`);
      pages.push(page);
    }
    for (const page of pages) {
      await send(page, "Please read the README");
      await expect(page.getByTestId("message-assistant").last()).toContainText("Seam fixture workspace", { timeout: 20_000 });
    }
  });
});
