import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createScope } from "../../src/core/scope.js";
import { createHost } from "../../src/host.js";
import { loopbackPolicy } from "../../src/trpc/auth.js";
import { serveTrpc } from "../../src/trpc/server.js";
import { startOAuthMcpFixture } from "../../../../packages/testkit/src/index.js";

/** A sign-in outlives the host (MCP-11): the next host on the same data directory connects with the stored tokens. */
const home = mkdtempSync(join(tmpdir(), "seam-oauth-restart-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const start = async () => {
  const scope = createScope("oauth-restart");
  const host = await createHost(scope, { home, env: { SEAM_MODEL_PROVIDER: "none" }, version: "test" });
  const policy = loopbackPolicy("t".repeat(40), []);
  const { port } = await serveTrpc(scope, { host, policy, bind: "127.0.0.1", port: 0 });
  policy.hosts.add(`127.0.0.1:${port}`);
  return { scope, host };
};

describe("OAuth across a host restart", () => {
  it("the second host is ready without a new sign-in, and its calls use the stored token", async () => {
    const fx = await startOAuthMcpFixture();
    try {
      const first = await start();
      await first.host.mcp.add({ name: "secure", transport: { type: "http", url: fx.url } });
      const { url } = await first.host.mcpOAuth.authorize("secure");
      const back = (await fetch(url, { redirect: "manual" })).headers.get("location")!;
      expect((await fetch(back)).status).toBe(200);
      await vi.waitFor(() => expect(first.host.mcp.list()[0]!.status.state).toBe("ready"), { timeout: 20_000, interval: 20 });
      await first.scope.dispose();

      const codeGrants = fx.as.stats.codeGrants;
      const second = await start();
      try {
        await vi.waitFor(() => expect(second.host.mcp.list()[0]!.status.state).toBe("ready"), { timeout: 20_000, interval: 20 });
        expect(second.host.mcpOAuth.status("secure")).toMatchObject({ state: "signed_in", signedInAs: "alice@example.test" });
        expect(fx.as.stats.codeGrants).toBe(codeGrants);
        expect(fx.requests.at(-1)).toMatchObject({ authorized: true });
      } finally {
        await second.scope.dispose();
      }
    } finally {
      await fx.close();
    }
  });
});
