import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolCallItem } from "@seam/shared";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { loopbackPolicy } from "../../src/trpc/auth.js";
import { serveTrpc } from "../../src/trpc/server.js";
import { startOAuthMcpFixture, type OAuthMcpFixture } from "../../../../packages/testkit/src/index.js";
import { startTestHost } from "../support/host.js";

/**
 * OAuth for Streamable HTTP servers in a real host (MCP-11), against the loopback authorization server and
 * protected MCP server of `@seam/testkit`: the browser's part is done with `fetch` (follow the authorization
 * URL to its redirect, then load the host's callback).
 */
let scope: Scope;
let host: HostApi;
let home: string;
let hostOrigin: string;
let fx: OAuthMcpFixture;
let sessionId: string;
const logged: string[] = [];

beforeAll(async () => {
  for (const method of ["log", "error", "warn", "info"] as const) {
    const original = console[method].bind(console);
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(" "));
      original(...args);
    });
  }
  // The host's logs (createLog) write to the streams directly.
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    vi.spyOn(stream, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      logged.push(String(chunk));
      return original(chunk, ...rest);
    }) as typeof stream.write);
  }
  fx = await startOAuthMcpFixture();
  ({ scope, host, home } = await startTestHost());
  scope.add(() => fx.close(), "oauth-fixture");
  const policy = loopbackPolicy("t".repeat(40), []);
  const { port } = await serveTrpc(scope, { host, policy, bind: "127.0.0.1", port: 0 });
  policy.hosts.add(`127.0.0.1:${port}`);
  hostOrigin = `http://127.0.0.1:${port}`;
  sessionId = (await host.sessions.create({ workspace: home, title: "oauth" })).id;
}, 60_000);
afterAll(async () => {
  await scope?.dispose();
  vi.restoreAllMocks();
});

const view = (name: string) => host.mcp.list().find((v) => v.config.name === name)!;
const waitState = (name: string, state: string) =>
  vi.waitFor(() => expect(view(name).status.state).toBe(state), { timeout: 20_000, interval: 20 });

/** What a browser does after "Authorize": open the URL, follow the redirect to the host's callback. */
async function signIn(name: string): Promise<{ status: number; page: string; callbackUrl: string }> {
  const { url } = await host.mcpOAuth.authorize(name);
  const approve = await fetch(url, { redirect: "manual" });
  const callbackUrl = approve.headers.get("location")!;
  expect(callbackUrl.startsWith(`${hostOrigin}/oauth/callback?`)).toBe(true);
  const res = await fetch(callbackUrl);
  return { status: res.status, page: await res.text(), callbackUrl };
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<ToolCallItem> {
  const { turnId } = await host.sessions.callTool({ sessionId, name, args });
  return vi.waitFor(async () => {
    const detail = await host.sessions.detail(sessionId);
    const turn = detail.turns.find((t) => t.id === turnId);
    if (!turn || turn.status === "running") throw new Error("still running");
    return detail.items.filter((i): i is ToolCallItem => i.kind === "tool_call" && i.turnId === turnId)[0]!;
  }, { timeout: 20_000, interval: 20 });
}
const textOf = (item: ToolCallItem) => `${item.rendered ?? ""} ${item.error ? JSON.stringify(item.error) : ""}`;

const secretsFile = () => join(home, "secrets.json");
const secretsText = () => readFileSync(secretsFile(), "utf8");
/** Every file of the host's data directory except the secrets file (the database and its journal). */
const otherFilesText = () => readdirSync(home, { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile() && d.name !== "secrets.json")
  .map((d) => readFileSync(join(d.parentPath, d.name)).toString("latin1")).join("\n");

describe("OAuth for Streamable HTTP MCP servers (MCP-11)", () => {
  it("a 401 makes the server 'needs authorization' without retrying", async () => {
    await host.mcp.add({ name: "secure", transport: { type: "http", url: fx.url } });
    await waitState("secure", "needs_authorization");
    expect(host.mcpOAuth.status("secure")).toMatchObject({ state: "needs_authorization", pending: false });
    expect(host.mcpOAuth.status("secure").reason).toMatch(/sign in/i);
    const seen = fx.requests.length;
    await new Promise((r) => setTimeout(r, 1_500));
    // No retry loop: nothing more reached the server, and the state stayed.
    expect(fx.requests.length).toBe(seen);
    expect(view("secure").status.state).toBe("needs_authorization");
    expect(fx.as.stats.registrations).toBe(1);
  });

  it("a bad, unknown or missing state is rejected and changes nothing", async () => {
    for (const query of ["?code=abc&state=forged", "?code=abc", "?error=access_denied"]) {
      const res = await fetch(`${hostOrigin}/oauth/callback${query}`);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("not known to Seam");
    }
    expect(view("secure").status.state).toBe("needs_authorization");
    expect(fx.as.stats.codeGrants).toBe(0);
  });

  it("a denied sign-in is shown in words on the page and in the status", async () => {
    fx.as.deny = true;
    try {
      const { status, page } = await signIn("secure");
      expect(status).toBe(400);
      expect(page).toContain("Access was denied: The user said no");
    } finally {
      fx.as.deny = false;
    }
    expect(host.mcpOAuth.status("secure")).toMatchObject({ state: "needs_authorization", lastError: expect.stringContaining("Access was denied") });
  });

  it("Authorize → redirect → callback stores the tokens only in the 0600 secrets file, connects, and calls use the token", async () => {
    const { status, page, callbackUrl } = await signIn("secure");
    expect(status).toBe(200);
    expect(page).toContain("Signed in — you can close this tab.");
    expect(fx.as.stats.lastResource).toBe(fx.url);
    expect(fx.as.stats.lastScope).toBe("mcp:read");
    await waitState("secure", "ready");

    const auth = host.mcpOAuth.status("secure");
    expect(auth).toMatchObject({ state: "signed_in", signedInAs: "alice@example.test", scopes: ["mcp:read"], registration: "dynamic", lastError: null, pending: false });
    expect(auth.expiresAt).not.toBeNull();
    expect(auth.authorizationServer).toBe(fx.as.issuer);

    expect(statSync(secretsFile()).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(JSON.parse(secretsText())["mcp-oauth:secure"]) as { url: string; tokens: { access_token: string; refresh_token: string } };
    expect(stored.url).toBe(fx.url);
    expect(fx.as.lookup(stored.tokens.access_token)?.subject).toBe("alice@example.test");
    for (const secret of [stored.tokens.access_token, stored.tokens.refresh_token]) {
      expect(otherFilesText()).not.toContain(secret);
      expect(logged.join("\n")).not.toContain(secret);
      expect(JSON.stringify(host.mcp.list())).not.toContain(secret);
      expect(JSON.stringify(host.mcpOAuth.status("secure"))).not.toContain(secret);
    }

    const item = await call("mcp__secure__whoami");
    expect(item.status).toBe("ok");
    expect(textOf(item)).toContain("subject=alice@example.test");

    // The same link again: single use.
    const replay = await fetch(callbackUrl);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("already used");
    expect(view("secure").status.state).toBe("ready");
  });

  it("a token the server no longer accepts is refreshed on its 401 and the call goes through", async () => {
    const refreshes = fx.as.stats.refreshGrants;
    fx.as.revokeAccessTokens();
    const item = await call("mcp__secure__whoami");
    expect(item.status).toBe("ok");
    expect(fx.as.stats.refreshGrants).toBe(refreshes + 1);
    expect(textOf(item)).toMatch(/subject=alice@example.test token#\d+/);
  });

  it("step-up: insufficient_scope asks for a sign-in with the larger scope, then the call works", async () => {
    const refused = await call("mcp__secure__admin-echo");
    expect(refused.status).toBe("error");
    expect(textOf(refused)).toContain("needs more permissions");
    const status = host.mcpOAuth.status("secure");
    expect(status.state).toBe("needs_authorization");
    expect(status.reason).toContain("mcp:read mcp:admin");
    // The connection stays for the other tools meanwhile.
    expect((await call("mcp__secure__whoami")).status).toBe("ok");

    const { status: code } = await signIn("secure");
    expect(code).toBe(200);
    expect(fx.as.stats.lastScope).toBe("mcp:read mcp:admin");
    await waitState("secure", "ready");
    await vi.waitFor(() => expect(host.mcpOAuth.status("secure").state).toBe("signed_in"), { timeout: 10_000 });
    expect(host.mcpOAuth.status("secure").scopes).toEqual(["mcp:read", "mcp:admin"]);
    const item = await call("mcp__secure__admin-echo");
    expect(item.status).toBe("ok");
    expect(textOf(item)).toContain("admin ok for alice@example.test");
  });

  it("tokens are refreshed before they expire", async () => {
    const short = await startOAuthMcpFixture({ tokenLifetimeSec: 2 });
    try {
      await host.mcp.add({ name: "short", transport: { type: "http", url: short.url } });
      await waitState("short", "needs_authorization");
      expect((await signIn("short")).status).toBe(200);
      await waitState("short", "ready");
      const first = /token#(\d+)/.exec(textOf(await call("mcp__short__whoami")))![1];
      const unauthorized = short.requests.filter((r) => r.status === 401).length;
      await new Promise((r) => setTimeout(r, 2_000));
      const item = await call("mcp__short__whoami");
      expect(item.status).toBe("ok");
      expect(Number(/token#(\d+)/.exec(textOf(item))![1])).toBeGreaterThan(Number(first));
      expect(short.as.stats.refreshGrants).toBeGreaterThanOrEqual(1);
      // Proactive: the expired token was never presented.
      expect(short.requests.filter((r) => r.status === 401).length).toBe(unauthorized);
    } finally {
      await host.mcp.remove("short");
      await short.close();
    }
    expect(JSON.parse(secretsText())["mcp-oauth:short"]).toBeUndefined();
  });

  it("a changed URL invalidates the stored tokens", async () => {
    const other = await startOAuthMcpFixture({ subject: "bob@example.test" });
    try {
      const before = view("secure").config;
      await host.mcp.update("secure", { ...before, transport: { type: "http", url: other.url } });
      await waitState("secure", "needs_authorization");
      expect(host.mcpOAuth.status("secure")).toMatchObject({ state: "needs_authorization", signedInAs: null });
      // No token of the old server was presented to the new one.
      expect(other.requests.every((r) => !r.authorized)).toBe(true);
      expect(other.as.stats.refreshGrants).toBe(0);
      await host.mcp.update("secure", before);
      // Back on the first URL: that record was replaced, so a fresh sign-in is needed.
      await waitState("secure", "needs_authorization");
      expect((await signIn("secure")).status).toBe(200);
      await waitState("secure", "ready");
    } finally {
      await other.close();
    }
  });

  it("renaming a server drops the old name's record; the new name signs in anew", async () => {
    const short = await startOAuthMcpFixture();
    try {
      await host.mcp.add({ name: "before", transport: { type: "http", url: short.url } });
      await waitState("before", "needs_authorization");
      expect((await signIn("before")).status).toBe(200);
      await waitState("before", "ready");
      expect(JSON.parse(secretsText())["mcp-oauth:before"]).toBeDefined();
      await host.mcp.update("before", { ...view("before").config, name: "after" });
      await waitState("after", "needs_authorization");
      expect(JSON.parse(secretsText())["mcp-oauth:before"]).toBeUndefined();
      await host.mcp.remove("after");
    } finally {
      await short.close();
    }
  });

  it("sign out deletes the tokens from the secrets file and disconnects", async () => {
    const stored = JSON.parse(JSON.parse(secretsText())["mcp-oauth:secure"]) as { tokens: { access_token: string } };
    const status = await host.mcpOAuth.signOut("secure");
    expect(status.state).toBe("needs_authorization");
    expect(view("secure").status.state).toBe("needs_authorization");
    expect(view("secure").toolsRegistered).toBe(false);
    expect(secretsText()).not.toContain(stored.tokens.access_token);
    expect(statSync(secretsFile()).mode & 0o777).toBe(0o600);
  });

  it("a server with its own bearer token that the server refuses is an ordinary failure, not an OAuth sign-in", async () => {
    const all = JSON.parse(secretsText()) as Record<string, string>;
    writeFileSync(secretsFile(), JSON.stringify({ ...all, WRONG_TOKEN: "not-a-token" }), { mode: 0o600 });
    const config = { name: "static", transport: { type: "http" as const, url: fx.url, bearerTokenEnv: "WRONG_TOKEN" } };
    // Saving tries first (MCP-10): a refused token of its own is a failed try, said in words, and nothing is saved.
    await expect(host.mcp.add(config)).rejects.toThrow(/needs authorization \(HTTP 401\)\. Set a bearer token/);
    expect(host.mcp.list().map((v) => v.config.name)).not.toContain("static");
    await host.mcp.add(config, { force: true });
    await waitState("static", "retrying");
    expect(host.mcpOAuth.status("static")).toMatchObject({ state: "not_needed", reason: expect.stringContaining("sends its own Authorization") });
    await expect(host.mcpOAuth.authorize("static")).rejects.toThrow(/sends its own Authorization/);
    await host.mcp.remove("static");
  });

  it("failOnStartupError does not refuse a server that only wants a sign-in", async () => {
    const added = await host.mcp.add({ name: "strict", failOnStartupError: true, transport: { type: "http", url: fx.url } });
    expect(added.config.name).toBe("strict");
    // The try met a 401 from an OAuth server: saved all the same, and the answer says a sign-in is needed (MCP-10/11).
    expect(added.probe).toMatchObject({ needsAuthorization: true, toolCount: 0 });
    await waitState("strict", "needs_authorization");
    expect(host.mcpOAuth.status("strict").state).toBe("needs_authorization");
    await host.mcp.remove("strict");
  });

  it("Authorize refuses stdio and unknown servers with a clear error", async () => {
    await expect(host.mcpOAuth.authorize("nope")).rejects.toThrow(/No MCP server named "nope"/);
    await host.mcp.add({ name: "local", enabled: false, transport: { type: "stdio", command: process.execPath, args: [] } });
    await expect(host.mcpOAuth.authorize("local")).rejects.toThrow(/OAuth applies to Streamable HTTP servers only/);
    expect(host.mcpOAuth.status("local").state).toBe("not_needed");
  });
});
