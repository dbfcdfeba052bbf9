/**
 * OAuth's cost per MCP request (MCP-11): a `tools/call` over Streamable HTTP to the loopback protected server of
 * `@seam/testkit`, (1) with the same access token sent as a static `Authorization` header (`bearerTokenEnv`, the
 * baseline) and (2) through Seam's OAuth provider, which reads the token from the 0600 secrets file on every request
 * and checks its expiry. Both clients are connected before timing; calls alternate in rounds.
 *
 * Prints p50/p99 and the ratio; asserts nothing. BENCH_CALLS changes the sample size.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServerConfig } from "@seam/shared";
import { createScope } from "../apps/host/src/core/scope.js";
import { createOAuthManager } from "../apps/host/src/mcp/oauth/manager.js";
import { createOAuthSecretStore, recordKey } from "../apps/host/src/mcp/oauth/secret-store.js";
import { transportFactory } from "../apps/host/src/mcp/transport.js";
import { startOAuthMcpFixture } from "../packages/testkit/src/index.js";
import { ms, percentile } from "./stats.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 400);

const fx = await startOAuthMcpFixture();
const dir = mkdtempSync(join(tmpdir(), "seam-bench-oauth-"));
const scope = createScope("bench-mcp-oauth");
try {
  const file = join(dir, "secrets.json");
  const oauthConfig = McpServerConfig.parse({ name: "secure", transport: { type: "http", url: fx.url } });
  const manager = createOAuthManager({
    store: createOAuthSecretStore(file), lookup: () => undefined, configOf: () => oauthConfig, onAuthorized: () => {}, interaction: "follow", warn: () => {},
  });
  manager.setCallbackOrigin("http://127.0.0.1:9");
  await manager.load();
  const withOAuth = transportFactory(() => undefined, (c) => manager.transportParts(c));
  // The first connection signs in (non-interactive), the second uses the stored token.
  await new Client({ name: "bench", version: "0" }).connect(withOAuth(scope, oauthConfig).transport).catch(() => undefined);
  const oauth = new Client({ name: "bench", version: "0" });
  await oauth.connect(withOAuth(scope, oauthConfig).transport);

  const token = (JSON.parse(JSON.parse(readFileSync(file, "utf8"))[recordKey("secure")]) as { tokens: { access_token: string } }).tokens.access_token;
  const staticConfig = McpServerConfig.parse({ name: "static", transport: { type: "http", url: fx.url, bearerTokenEnv: "BENCH_TOKEN" } });
  const bare = new Client({ name: "bench", version: "0" });
  await bare.connect(transportFactory((n) => (n === "BENCH_TOKEN" ? token : undefined))(scope, staticConfig).transport);

  const call = async (client: Client) => {
    const t = performance.now();
    await client.callTool({ name: "whoami", arguments: {} });
    return performance.now() - t;
  };
  for (let i = 0; i < 30; i++) {
    await call(bare);
    await call(oauth);
  }
  const base: number[] = [];
  const seam: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    base.push(await call(bare));
    seam.push(await call(oauth));
  }
  const line = (name: string, sample: number[], ref?: number[]) => {
    const ratio = ref ? `  ×${(percentile(sample, 50) / percentile(ref, 50)).toFixed(3)}` : "";
    console.log(`  ${name.padEnd(34)} p50 ${ms(percentile(sample, 50))}  p99 ${ms(percentile(sample, 99))}${ratio}`);
  };
  console.log(`mcp-oauth: tools/call over Streamable HTTP to a protected loopback server (${CALLS} calls each, alternating)`);
  line("static bearer header (baseline)", base);
  line("OAuth provider (secrets file)", seam, base);
  await bare.close();
  await oauth.close();
} finally {
  await scope.dispose();
  await fx.close();
  rmSync(dir, { recursive: true, force: true });
}
