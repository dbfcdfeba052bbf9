import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { McpServerConfig } from "@seam/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScope, type Scope } from "../../src/core/scope.js";
import { createOAuthManager } from "../../src/mcp/oauth/manager.js";
import { idTokenSubject } from "../../src/mcp/oauth/id-token.js";
import { createOAuthSecretStore } from "../../src/mcp/oauth/secret-store.js";
import { transportFactory } from "../../src/mcp/transport.js";
import { startOAuthMcpFixture, type OAuthMcpFixture } from "../../../../packages/testkit/src/index.js";

/**
 * The non-interactive mode (MCP-11): the authorization URL is followed with `fetch` (no browser) and the
 * redirect completed in-process through the same state checks as the host's callback, as the conformance
 * client does; then a new connection uses the stored tokens.
 */
let fx: OAuthMcpFixture;
let dir: string;
let scope: Scope;
beforeAll(async () => {
  fx = await startOAuthMcpFixture({ subject: "carol@example.test" });
  dir = mkdtempSync(join(tmpdir(), "seam-oauth-"));
  scope = createScope("oauth-follow");
});
afterAll(async () => {
  await scope.dispose();
  await fx.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup(file: string) {
  const config = McpServerConfig.parse({ name: "conf", transport: { type: "http", url: fx.url } });
  const store = createOAuthSecretStore(file);
  const authorized: string[] = [];
  const manager = createOAuthManager({ store, lookup: () => undefined, configOf: () => config, onAuthorized: (n) => authorized.push(n), interaction: "follow", warn: () => {} });
  manager.setCallbackOrigin("http://127.0.0.1:9");
  return { config, store, manager, authorized, make: transportFactory(() => undefined, (c) => manager.transportParts(c)) };
}

describe("non-interactive OAuth (follow the redirect with fetch)", () => {
  it("signs in on the first connection's 401, then the next connection uses the token", async () => {
    const file = join(dir, "follow.json");
    const { config, store, manager, authorized, make } = setup(file);
    await manager.load();
    const first = new Client({ name: "t", version: "0" });
    await expect(first.connect(make(scope, config).transport)).rejects.toThrow(/Unauthorized/);
    expect(authorized).toEqual(["conf"]);
    expect(store.get("conf", fx.url)?.tokens).toBeDefined();
    expect(store.get("conf", fx.url)?.verifier).toBeUndefined();
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const second = new Client({ name: "t", version: "0" });
    await second.connect(make(scope, config).transport);
    const result = await second.callTool({ name: "whoami", arguments: {} });
    expect(JSON.stringify(result.content)).toContain("subject=carol@example.test");
    await second.close();
    expect(manager.status(config)).toMatchObject({ state: "signed_in", signedInAs: "carol@example.test", registration: "dynamic" });
  });

  it("a denied authorization fails the connection with the reason and stores no token", async () => {
    const { config, store, manager, authorized, make } = setup(join(dir, "deny.json"));
    await manager.load();
    fx.as.deny = true;
    try {
      const client = new Client({ name: "t", version: "0" });
      await expect(client.connect(make(scope, config).transport)).rejects.toThrow(/Access was denied/);
    } finally {
      fx.as.deny = false;
    }
    expect(authorized).toEqual([]);
    expect(store.get("conf", fx.url)?.tokens).toBeUndefined();
    expect(manager.status(config).lastError).toContain("Access was denied");
  });
});

describe("concurrent refreshes", () => {
  it("two requests refused at once both go through after refreshing; the rotated refresh token does not sign Seam out", async () => {
    const file = join(dir, "race.json");
    const { config, store, manager, make } = setup(file);
    await manager.load();
    await new Client({ name: "t", version: "0" }).connect(make(scope, config).transport).catch(() => undefined);
    const client = new Client({ name: "t", version: "0" });
    await client.connect(make(scope, config).transport);
    fx.as.revokeAccessTokens();
    const results = await Promise.allSettled([1, 2, 3].map(() => client.callTool({ name: "whoami", arguments: {} })));
    expect(results.map((r) => (r.status === "rejected" ? String(r.reason) : r.status))).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
    expect(store.get("conf", fx.url)?.tokens).toBeDefined();
    expect(manager.status(config).state).toBe("signed_in");
    await client.close();
  });
});

describe("non-interactive step-up", () => {
  it("a 403 naming a larger scope (error only in the body) leads to a new authorization with that scope", async () => {
    const strict = await startOAuthMcpFixture({ stepUpErrorInBodyOnly: true });
    try {
      const config = McpServerConfig.parse({ name: "strict", transport: { type: "http", url: strict.url } });
      const store = createOAuthSecretStore(join(dir, "step-up.json"));
      const manager = createOAuthManager({ store, lookup: () => undefined, configOf: () => config, onAuthorized: () => {}, interaction: "follow", warn: () => {} });
      manager.setCallbackOrigin("http://127.0.0.1:9");
      await manager.load();
      const make = transportFactory(() => undefined, (c) => manager.transportParts(c));
      await expect(new Client({ name: "t", version: "0" }).connect(make(scope, config).transport)).rejects.toThrow(/Unauthorized/);
      const client = new Client({ name: "t", version: "0" });
      await client.connect(make(scope, config).transport);
      expect(strict.as.stats.lastScope).toBe("mcp:read");
      await expect(client.callTool({ name: "admin-echo", arguments: {} })).rejects.toThrow(/Unauthorized/);
      expect(strict.as.stats.lastScope).toBe("mcp:read mcp:admin");
      expect(manager.status(config).scopes).toEqual(["mcp:read", "mcp:admin"]);
      const again = new Client({ name: "t", version: "0" });
      await again.connect(make(scope, config).transport);
      expect(JSON.stringify((await again.callTool({ name: "admin-echo", arguments: {} })).content)).toContain("admin ok");
      await client.close();
      await again.close();
    } finally {
      await strict.close();
    }
  });
});

describe("the OAuth record in the secrets file", () => {
  it("keeps the user's own keys, binds the record to the URL, and stays 0600", () => {
    const file = join(dir, "secrets.json");
    writeFileSync(file, JSON.stringify({ DEEPSEEK_API_KEY: "sk-keep" }), { mode: 0o600 });
    const store = createOAuthSecretStore(file);
    store.update("s", "http://a/mcp", { verifier: "v1" });
    expect(store.get("s", "http://a/mcp")?.verifier).toBe("v1");
    expect(store.get("s", "http://b/mcp")).toBeUndefined();
    store.update("s", "http://b/mcp", { verifier: "v2" });
    expect(store.get("s", "http://a/mcp")).toBeUndefined();
    store.clear("s", ["verifier"]);
    expect(store.get("s", "http://b/mcp")).toEqual({ url: "http://b/mcp" });
    store.clear("s");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ DEEPSEEK_API_KEY: "sk-keep" });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("refuses a secrets file other users can read, and changes nothing", () => {
    const file = join(dir, "open.json");
    writeFileSync(file, "{}", { mode: 0o644 });
    const store = createOAuthSecretStore(file);
    expect(() => store.update("s", "http://a/mcp", { verifier: "v" })).toThrow(/chmod 600/);
    expect(readFileSync(file, "utf8")).toBe("{}");
  });

  it("reads who signed in from an id_token, and ignores garbage", () => {
    const token = (claims: object) => `x.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.`;
    expect(idTokenSubject(token({ sub: "u1" }))).toBe("u1");
    expect(idTokenSubject(token({ sub: "u1", email: "u@x.test" }))).toBe("u@x.test");
    expect(idTokenSubject("not a jwt")).toBeNull();
    expect(idTokenSubject(undefined)).toBeNull();
  });
});

describe("client_credentials (SEP-1046): a machine client, no browser", () => {
  async function connectAs(oauth: Record<string, unknown>, secrets: Record<string, string>, fixture: OAuthMcpFixture, file: string) {
    const config = McpServerConfig.parse({ name: "machine", transport: { type: "http", url: fixture.url, oauth } });
    const store = createOAuthSecretStore(file);
    const manager = createOAuthManager({ store, lookup: (n) => secrets[n], configOf: () => config, onAuthorized: () => {}, warn: () => {} });
    manager.setCallbackOrigin("http://127.0.0.1:9");
    await manager.load();
    const client = new Client({ name: "t", version: "0" });
    await client.connect(transportFactory(() => undefined, (c) => manager.transportParts(c))(scope, config).transport);
    const whoami = JSON.stringify((await client.callTool({ name: "whoami", arguments: {} })).content);
    await client.close();
    return { whoami, status: manager.status(config), manager, config, file };
  }

  it("client_secret_basic: the first 401 gets a token at once, with the challenge's scope", async () => {
    const fixture = await startOAuthMcpFixture({ clients: [{ id: "machine-1", secret: "s3cret-value" }] });
    try {
      const r = await connectAs({ grant: "client_credentials", clientId: "machine-1", clientSecretEnv: "MACHINE_SECRET" }, { MACHINE_SECRET: "s3cret-value" }, fixture, join(dir, "cc.json"));
      expect(r.whoami).toContain("subject=machine-1");
      expect(fixture.as.stats).toMatchObject({ clientCredentialsGrants: 1, registrations: 0, authorizations: 0, lastScope: "mcp:read" });
      expect(r.status).toMatchObject({ state: "signed_in", signedInAs: "machine-1", registration: "pre_registered" });
      expect(readFileSync(r.file, "utf8")).not.toContain("s3cret-value");
      await expect(r.manager.authorize(r.config)).rejects.toThrow(/machine client/);
    } finally {
      await fixture.close();
    }
  });

  it("private_key_jwt: a signed assertion instead of a secret", async () => {
    const { exportJWK, exportPKCS8, generateKeyPair } = await import("jose");
    const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
    const fixture = await startOAuthMcpFixture({ clients: [{ id: "jwt-client", publicKey: { ...(await exportJWK(publicKey)), alg: "ES256" } }] });
    try {
      const pem = await exportPKCS8(privateKey);
      const r = await connectAs({ grant: "client_credentials", clientId: "jwt-client", privateKeyEnv: "MACHINE_KEY" }, { MACHINE_KEY: pem }, fixture, join(dir, "jwt.json"));
      expect(r.whoami).toContain("subject=jwt-client");
      expect(fixture.as.stats.clientCredentialsGrants).toBe(1);
      expect(readFileSync(r.file, "utf8")).not.toContain("PRIVATE KEY");
    } finally {
      await fixture.close();
    }
  });

  it("a client_credentials config without a credential is refused in words", () => {
    const r = McpServerConfig.safeParse({ name: "m", transport: { type: "http", url: "https://x.example/mcp", oauth: { grant: "client_credentials", clientId: "m" } } });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain("client_credentials needs clientId and either clientSecretEnv or privateKeyEnv");
  });
});

describe("callback errors in words", () => {
  it("a secrets file other users can read stops the sign-in with what to do, and stores nothing", async () => {
    const file = join(dir, "loose.json");
    writeFileSync(file, "{}", { mode: 0o600 });
    const { config, store, manager } = setup(file);
    await manager.load();
    const { url } = await manager.authorize(config);
    const back = new URL((await fetch(url, { redirect: "manual" })).headers.get("location")!);
    chmodSync(file, 0o644);
    const outcome = await manager.complete(back.searchParams);
    expect(outcome).toMatchObject({ ok: false, name: "conf" });
    expect(outcome.message).toContain("chmod 600");
    chmodSync(file, 0o600);
    expect(store.get("conf", fx.url)?.tokens).toBeUndefined();
    expect(manager.status(config).lastError).toContain("chmod 600");
  });
});
