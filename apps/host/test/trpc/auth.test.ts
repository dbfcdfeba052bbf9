import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadHostToken, loopbackPolicy } from "../../src/trpc/auth.js";
import { serveTrpc } from "../../src/trpc/server.js";
import type { Scope } from "../../src/core/scope.js";
import { startTestHost } from "../support/host.js";

const WEB_PORT = 3999;
let scope: Scope;
let base: string;
let token: string;
let home: string;

beforeAll(async () => {
  const started = await startTestHost();
  scope = started.scope;
  home = started.home;
  token = loadHostToken(home);
  const policy = loopbackPolicy(token, [WEB_PORT]);
  const { port } = await serveTrpc(scope, { host: started.host, policy, bind: "127.0.0.1", port: 0 });
  for (const name of ["127.0.0.1", "localhost"]) policy.hosts.add(`${name}:${port}`);
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => scope.dispose());

const health = (headers: Record<string, string>) => fetch(`${base}/trpc/health`, { headers });
// tRPC's HTTP envelope, as much of it as these tests read.
type Envelope = { result: { data: { ok?: boolean } & unknown[] }; error: { message: string; data: { issues: unknown } } };
const json = async (res: Response) => (await res.json()) as Envelope;

describe("host auth (SEC-1)", () => {
  it("keeps the token in a 0600 file and reuses it", () => {
    expect(statSync(join(home, "host-token")).mode & 0o777).toBe(0o600);
    expect(loadHostToken(home)).toBe(token);
  });

  it("answers with the token as bearer, header or cookie", async () => {
    const variants: Record<string, string>[] = [{ authorization: `Bearer ${token}` }, { "x-seam-token": token }, { cookie: `a=b; seam_token=${token}` }];
    for (const headers of variants) {
      const res = await health(headers);
      expect(res.status).toBe(200);
      expect((await json(res)).result.data.ok).toBe(true);
    }
  });

  it("refuses a request without a token or with a wrong one", async () => {
    expect((await health({})).status).toBe(401);
    expect((await health({ authorization: `Bearer ${token.slice(1)}x` })).status).toBe(401);
    expect((await health({ cookie: "seam_token=nope" })).status).toBe(401);
  });

  it("refuses a foreign Origin even with the right token (CSRF)", async () => {
    const res = await health({ authorization: `Bearer ${token}`, origin: "http://evil.example" });
    expect(res.status).toBe(403);
    expect((await json(res)).error.message).toContain("evil.example");
    expect((await health({ authorization: `Bearer ${token}`, origin: `http://127.0.0.1:${WEB_PORT}` })).status).toBe(200);
  });

  it("refuses a non-allowlisted Host header (DNS rebinding)", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/trpc/health`, { headers: { host: "attacker.example:80", authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it("rejects invalid input with a typed error and changes nothing (SEC-5)", async () => {
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const bad = await fetch(`${base}/trpc/session.create`, { method: "POST", headers, body: JSON.stringify({ workspace: "" }) });
    expect(bad.status).toBe(400);
    const body = await json(bad);
    expect(body.error.data.issues).toEqual([{ path: "workspace", message: expect.any(String) }]);
    const missing = await fetch(`${base}/trpc/session.create`, { method: "POST", headers, body: JSON.stringify({ workspace: "/definitely/not/here" }) });
    expect(missing.status).toBe(400);
    expect((await json(missing)).error.message).toMatch(/does not exist/);
    const list = await json(await fetch(`${base}/trpc/session.list`, { headers }));
    expect(list.result.data).toEqual([]);
  });
});
