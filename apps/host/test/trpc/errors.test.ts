import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TRPCError } from "@trpc/server";
import { HostError } from "../../src/core/errors.js";
import { createLog } from "../../src/core/log.js";
import type { Scope } from "../../src/core/scope.js";
import type { LiveSources } from "../../src/core/live.js";
import type { HostApi } from "../../src/host-api.js";
import { loadHostToken, loopbackPolicy } from "../../src/trpc/auth.js";
import { appRouter } from "../../src/trpc/root.js";
import { mergeTopics } from "../../src/trpc/routers/live.js";
import { serveTrpc } from "../../src/trpc/server.js";
import { startTestHost } from "../support/host.js";
import { execTestDb, onPostgres } from "../support/db-url.js";

let scope: Scope;
let host: HostApi;
let home: string;
let base: string;
let headers: Record<string, string>;

beforeAll(async () => {
  ({ scope, host, home } = await startTestHost());
  const token = loadHostToken(home);
  const policy = loopbackPolicy(token, []);
  const { port } = await serveTrpc(scope, { host, policy, bind: "127.0.0.1", port: 0 });
  policy.hosts.add(`127.0.0.1:${port}`);
  base = `http://127.0.0.1:${port}`;
  headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
});
afterAll(() => scope.dispose());

const captured = () => {
  const lines: string[] = [];
  return { lines, log: createLog("trpc", (line) => lines.push(line)) };
};
const failure = (p: Promise<unknown>): Promise<TRPCError> =>
  p.then(
    () => expect.fail("expected the call to fail"),
    (error: unknown) => (error instanceof TRPCError ? error : expect.fail(`not a TRPCError: ${String(error)}`)),
  );
type Envelope = { error: { message: string; data: { code: string; hostCode: string | null; ref: string | null; issues: { path: string; message: string }[] | null } } };
const call = async (path: string, input?: unknown) => {
  const res = input === undefined
    ? await fetch(`${base}/trpc/${path}`, { headers })
    : await fetch(`${base}/trpc/${path}`, { method: "POST", headers, body: JSON.stringify(input) });
  return { status: res.status, body: (await res.json()) as Envelope };
};

describe("errors on the wire (STYLE §4)", () => {
  it("keeps a public host error's own message and code", async () => {
    const { lines, log } = captured();
    const error = await failure(appRouter.createCaller({ host, log }).session.get({ id: "nope" }));
    expect(error).toMatchObject({ code: "NOT_FOUND", message: "No session with id nope; it may have been deleted." });
    const wire = await call("mcp.remove", { name: "nope" });
    expect(wire.status).toBe(404);
    expect(wire.body.error).toMatchObject({ message: 'No MCP server named "nope" is configured.', data: { hostCode: "not_found:mcp", ref: null } });
    expect(lines).toEqual([]);
  });

  it("sends input issues field by field, with a readable message", async () => {
    const { status, body } = await call("session.create", { workspace: "", extra: { deep: [1] } });
    expect(status).toBe(400);
    expect(body.error.data.issues).toEqual([{ path: "workspace", message: expect.any(String) }]);
    expect(body.error.message).toBe(`workspace: ${body.error.data.issues![0]!.message}`);
  });

  it("hides a thrown foreign error behind a ref and logs it in full", async () => {
    const { lines, log } = captured();
    const broken = { sessions: { list: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'rows') at /srv/secret/path.ts")) } } as unknown as HostApi;
    const error = await failure(appRouter.createCaller({ host: broken, log }).session.list());
    expect(error.code).toBe("INTERNAL_SERVER_ERROR");
    expect(error.message).not.toMatch(/rows|secret/);
    const ref = (error.cause as HostError).data?.ref as string;
    expect(error.message).toBe(`Something went wrong in the host. The host log has the details (ref ${ref}).`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`ref ${ref}`);
    expect(lines[0]).toContain("reading 'rows'");
    expect(lines[0]).toContain("session.list");
  });

  it("hides an internal:db failure from a real broken database, over the caller and over HTTP", async () => {
    if (onPostgres) {
      await execTestDb(join(home, "seam.db"), 'DROP TABLE "Session" CASCADE');
    } else {
      const sqlite = new Database(join(home, "seam.db"));
      sqlite.pragma("foreign_keys = OFF");
      sqlite.exec('DROP TABLE "Session"');
      sqlite.close();
    }

    const { lines, log } = captured();
    const error = await failure(appRouter.createCaller({ host, log }).session.list());
    const ref = (error.cause as HostError).data?.ref;
    expect(ref).toMatch(/^[0-9a-f]{8}$/);
    expect(error).toMatchObject({ code: "INTERNAL_SERVER_ERROR", message: `Something went wrong in the host's database. The host log has the details (ref ${ref}).` });
    expect(error.message).not.toMatch(/main\.Session|does not exist/);
    expect((error.cause as HostError).code).toBe("internal:db");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/ERROR \[trpc\] session\.list failed/);
    expect(lines[0]).toContain(ref);
    expect(lines[0]).toMatch(/does not exist in the current database/);

    // Over HTTP the log is the host's stderr.
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const { status, body } = await call("session.list");
      expect(status).toBe(500);
      const wireRef = body.error.data.ref!;
      expect(wireRef).toMatch(/^[0-9a-f]{8}$/);
      expect(body.error.message).toContain(`(ref ${wireRef})`);
      expect(body.error.data.hostCode).toBe("internal:db");
      expect(JSON.stringify(body)).not.toMatch(/does not exist|main\.Session/);
      const logged = stderr.mock.calls.map(([chunk]) => String(chunk)).filter((l) => l.includes(wireRef));
      expect(logged.some((l) => /does not exist in the current database/.test(l))).toBe(true);
    } finally {
      stderr.mockRestore();
    }
  });

  it("a live stream's error event says no more than an error response would", async () => {
    const failing = (error: Error) => ({
      session: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) }),
    }) as unknown as LiveSources;
    const firstError = async (h: LiveSources) => {
      for await (const event of mergeTopics(h, ["session:s1"], new AbortController().signal)) if (event.kind === "error") return event.message;
      return null;
    };
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const hidden = await firstError(failing(new HostError("internal:db", "session s1: SQLITE_CORRUPT at /home/u/.seam/seam.db")));
      expect(hidden).toMatch(/^Something went wrong in the host's database\. The host log has the details \(ref [0-9a-f]{8}\)\.$/);
      const ref = /ref ([0-9a-f]{8})/.exec(hidden!)![1]!;
      expect(stderr.mock.calls.map(([c]) => String(c)).some((l) => l.includes(ref) && l.includes("SQLITE_CORRUPT"))).toBe(true);
      expect(await firstError(failing(new HostError("not_found:session", "No session with id s1.")))).toBe("No session with id s1.");
    } finally {
      stderr.mockRestore();
    }
  });
});
