/**
 * `/healthz` and `/readyz` over real HTTP (SCALE-4): no token, no Host check, no data; readiness follows the
 * database (a missing migration, a closed database) and the host's shutdown, and recovers when fixed.
 */
import { request } from "node:http";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScope, type Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { openDatabase } from "../../src/persistence/db.js";
import { createReadiness } from "../../src/persistence/readiness.js";
import { loadHostToken, loopbackPolicy } from "../../src/trpc/auth.js";
import { serveTrpc } from "../../src/trpc/server.js";
import { startTestHost } from "../support/host.js";
import { execTestDb, onPostgres, testDbUrl } from "../support/db-url.js";
import { prismaPaths, readMigrations } from "../../src/persistence/migrate.js";

let scope: Scope;
let host: HostApi;
let home: string;
let token: string;
let base: string;

/** A server of its own for `host`, disposed with `owner`. */
async function serve(owner: Scope, h: HostApi): Promise<string> {
  const policy = loopbackPolicy(loadHostToken(home), [3999]);
  const { port } = await serveTrpc(owner, { host: h, policy, bind: "127.0.0.1", port: 0 });
  for (const name of ["127.0.0.1", "localhost"]) policy.hosts.add(`${name}:${port}`);
  return `http://127.0.0.1:${port}`;
}

/** Raw HTTP, so the Host header and the method are exactly what the test says. */
function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? "GET", headers: opts.headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (c: string) => (body += c)).on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

beforeAll(async () => {
  ({ scope, host, home } = await startTestHost());
  token = loadHostToken(home);
  base = await serve(scope, host);
});
afterAll(() => scope.dispose());

/** Nothing but `status` (and `reason` when unavailable), nothing of the host's. */
function expectNoData(body: string) {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  expect(Object.keys(parsed).sort()).toEqual(parsed.status === "ok" ? ["status"] : ["reason", "status"]);
  for (const secret of [token, home, String(process.pid), "test", "seam.db", "trpc", "prisma"]) expect(body).not.toContain(secret);
}

describe("health endpoints (SCALE-4)", () => {
  it("/healthz answers 200 {status:ok} without a token, not cached", async () => {
    const res = await send(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: "ok" });
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.headers["cache-control"]).toBe("no-store");
    expectNoData(res.body);
  });

  it("/readyz answers 200 {status:ok} on a migrated database, without a token", async () => {
    const res = await send(`${base}/readyz`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: "ok" });
    expect(res.headers["cache-control"]).toBe("no-store");
    expectNoData(res.body);
  });

  it("answers any Host (a prober's address) and a query string, and sends no CORS header", async () => {
    for (const path of ["/healthz", "/readyz", "/readyz?verbose=1"]) {
      const res = await send(`${base}${path}`, { headers: { host: "10.1.2.3:4317", origin: "http://evil.example" } });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ status: "ok" });
      expect(res.headers["access-control-allow-origin"]).toBeUndefined();
    }
    // Only these exact paths skip the checks: the API and anything else still need Host and token.
    expect((await send(`${base}/healthz/x`)).status).toBe(401);
    expect((await send(`${base}/trpc/health`, { headers: { host: "10.1.2.3:4317" } })).status).toBe(421);
  });

  it("HEAD answers the status without a body", async () => {
    for (const path of ["/healthz", "/readyz"]) {
      const res = await send(`${base}${path}`, { method: "HEAD" });
      expect(res.status).toBe(200);
      expect(res.body).toBe("");
      expect(res.headers["cache-control"]).toBe("no-store");
    }
  });

  it("refuses every other method with 405 and says which are allowed", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      for (const path of ["/healthz", "/readyz"]) {
        const res = await send(`${base}${path}`, { method, body: method === "POST" ? "{}" : undefined, headers: { authorization: `Bearer ${token}` } });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow).toBe("GET, HEAD");
        expect(JSON.parse(res.body)).toEqual({ status: "error", reason: "method not allowed; use GET or HEAD" });
        expect(res.body).not.toContain(token);
      }
    }
  });

  it("/readyz is 503 while a committed migration is not applied, and 200 again once it is", async () => {
    const last = readMigrations(prismaPaths(undefined, onPostgres ? "postgresql" : "sqlite").migrationsDir).migrationDirectories.at(-1)!.path;
    const exec = async (sql: string) => {
      if (onPostgres) return execTestDb(join(home, "seam.db"), sql);
      const file = new BetterSqlite3(join(home, "seam.db"));
      try { file.exec(sql); } finally { file.close(); }
    };
    await exec(`UPDATE "_prisma_migrations" SET rolled_back_at = finished_at WHERE migration_name = '${last}'`);
    const down = await send(`${base}/readyz`);
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toEqual({ status: "unavailable", reason: "database migrations not applied" });
    expect(down.headers["cache-control"]).toBe("no-store");
    expectNoData(down.body);
    expect(down.body).not.toContain(last);
    // Liveness does not depend on the database.
    expect((await send(`${base}/healthz`)).status).toBe(200);

    await exec(`UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE migration_name = '${last}'`);
    const up = await send(`${base}/readyz`);
    expect(up.status).toBe(200);
    expect(JSON.parse(up.body)).toEqual({ status: "ok" });
  });

  it("/readyz is 503 once the database is closed", async () => {
    const dbScope = createScope("probe-db");
    const serverScope = createScope("probe-server");
    try {
      const db = await openDatabase(dbScope, { home: join(home, "other"), url: testDbUrl(join(home, "other", "seam.db")) });
      const url = await serve(serverScope, { ...host, ready: createReadiness({ db }).check });
      expect((await send(`${url}/readyz`)).status).toBe(200);
      await dbScope.dispose();
      const res = await send(`${url}/readyz`);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body)).toEqual({ status: "unavailable", reason: "database unreachable" });
      expect((await send(`${url}/healthz`)).status).toBe(200);
    } finally {
      await dbScope.dispose();
      await serverScope.dispose();
    }
  });

  it("/readyz is 503 while the host shuts down; /healthz stays 200 as long as the server answers", async () => {
    const started = await startTestHost();
    const serverScope = createScope("probe-server");
    try {
      const url = await serve(serverScope, started.host);
      expect((await send(`${url}/readyz`)).status).toBe(200);
      await started.scope.dispose();
      const res = await send(`${url}/readyz`);
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body)).toEqual({ status: "unavailable", reason: "shutting down" });
      expect((await send(`${url}/healthz`)).status).toBe(200);
    } finally {
      await serverScope.dispose();
    }
  });
});
