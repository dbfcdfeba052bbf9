import { mkdtempSync } from "node:fs";
import { request, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { JSON_DEPTH_MAX, MCP_IMPORT_MAX_BYTES, MCP_IMPORT_MAX_CHARS, SESSION_TEXT_MAX } from "@seam/shared";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { loadHostToken, loopbackPolicy } from "../../src/trpc/auth.js";
import { BODY_MAX_BYTES, BODY_TOO_LARGE, LARGEST_INPUT_CHARS } from "../../src/trpc/limits.js";
import { appRouter } from "../../src/trpc/root.js";
import { serveTrpc } from "../../src/trpc/server.js";
import { startTestHost } from "../support/host.js";

let scope: Scope;
let host: HostApi;
let caller: ReturnType<typeof appRouter.createCaller>;
let port: number;
let token: string;
let workspace: string;

beforeAll(async () => {
  let home: string;
  ({ scope, host, home } = await startTestHost());
  caller = appRouter.createCaller({ host });
  token = loadHostToken(home);
  const policy = loopbackPolicy(token, []);
  ({ port } = await serveTrpc(scope, { host, policy, bind: "127.0.0.1", port: 0 }));
  policy.hosts.add(`127.0.0.1:${port}`);
  workspace = mkdtempSync(join(tmpdir(), "seam-bounds-"));
});
afterAll(() => scope.dispose());

/** `{"a": {"a": … 1}}`, `depth` objects deep, built without recursion. */
const nested = (depth: number): Record<string, unknown> => {
  let v: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < depth; i++) v = { a: v };
  return v;
};
const failure = (p: Promise<unknown>): Promise<TRPCError> =>
  p.then(
    () => expect.fail("expected the call to fail"),
    (error: unknown) => (error instanceof TRPCError ? error : expect.fail(`not a TRPCError: ${String(error)}`)),
  );
const hostCode = (e: TRPCError) => (e.cause as { publicCode?: string } | undefined)?.publicCode ?? null;

describe("tool arguments are bounded like a message (SEC-5, hardening #12 items 2/3)", () => {
  it("refuses callTool arguments 10,000 deep with a typed bad_input, not a stack overflow, and stores nothing", async () => {
    const { id } = await caller.session.create({ workspace });
    const before = await caller.session.get({ id });
    const error = await failure(caller.session.callTool({ sessionId: id, name: "list_dir", args: nested(10_000) }));
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toBe(`args: The value is nested more than ${JSON_DEPTH_MAX} levels deep`);
    expect(error.message).not.toMatch(/call stack/);
    expect(await caller.session.get({ id })).toEqual(before);
  });

  it("refuses callTool arguments longer than the send limit as JSON (10 MB was stored twice) and stores nothing", async () => {
    const { id } = await caller.session.create({ workspace });
    const before = await caller.session.get({ id });
    const error = await failure(caller.session.callTool({ sessionId: id, name: "list_dir", args: { path: "x".repeat(10_000_000) } }));
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toBe(`args: The value is 10,000,011 characters as JSON; the limit is ${SESSION_TEXT_MAX.toLocaleString("en-US")}`);
    expect(await caller.session.get({ id })).toEqual(before);
  });

  it("applies the same bounds to `/call <tool> {json}` sent as a message", async () => {
    const { id } = await caller.session.create({ workspace });
    const before = await caller.session.get({ id });
    const text = `/call list_dir ${JSON.stringify(nested(JSON_DEPTH_MAX)).replace("1", JSON.stringify(nested(20)))}`;
    expect(text.length).toBeLessThan(SESSION_TEXT_MAX);
    const error = await failure(caller.session.send({ sessionId: id, text }));
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toBe(`The arguments after /call list_dir are nested more than ${JSON_DEPTH_MAX} levels deep.`);
    expect(hostCode(error)).toBe("bad_input:session");
    const deeper = await failure(caller.session.send({ sessionId: id, text: `/call list_dir ${"{\"a\":".repeat(30_000)}1${"}".repeat(30_000)}` }));
    expect(deeper.message).toMatch(/are nested more than/);
    expect(await caller.session.get({ id })).toEqual(before);
  });
});

describe("settings and configs are bounded (SEC-5)", () => {
  it("refuses a 10 MB apiKeyEnv in the model and web settings, and changes nothing", async () => {
    const model = await caller.settings.model();
    const huge = `K${"_".repeat(10_000_000)}`;
    expect((await failure(caller.settings.setModel({ provider: "anthropic", model: "m", apiKeyEnv: huge }))).message)
      .toBe("apiKeyEnv: Use at most 256 characters for an environment variable name");
    expect(await caller.settings.model()).toEqual(model);

    const web = await caller.web.settings();
    expect((await failure(caller.web.setSettings({ providers: { exa: { apiKeyEnv: huge } } }))).code).toBe("BAD_REQUEST");
    const providers = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, {}]));
    expect((await failure(caller.web.setSettings({ providers }))).message).toBe("providers: At most 50 providers (got 10,000)");
    expect(await caller.web.settings()).toEqual(web);
  });

  it("refuses a 10 MB bearerTokenEnv and a 1 MB env-var name in an MCP config, and saves nothing", async () => {
    const bearer = await failure(caller.mcp.add({ name: "big", transport: { type: "http", url: "http://127.0.0.1:1/mcp", bearerTokenEnv: `T${"_".repeat(10_000_000)}` } }));
    expect(bearer.message).toBe("transport.bearerTokenEnv: Use at most 256 characters for an environment variable name");
    const env = await failure(caller.mcp.add({ name: "big", transport: { type: "stdio", command: "node", env: { [`V${"_".repeat(1_000_000)}`]: { value: "v" } } } }));
    expect(env.code).toBe("BAD_REQUEST");
    expect(await caller.mcp.list()).toEqual([]);
  });

  it("refuses LSP initializationOptions 10,000 deep or 10 MB long, and saves nothing", async () => {
    const servers = await caller.lsp.servers();
    const config = { id: "big", command: "node", extensions: [".big"] };
    const deep = await failure(caller.lsp.add({ ...config, initializationOptions: nested(10_000) }));
    expect(deep.message).toBe(`initializationOptions: The value is nested more than ${JSON_DEPTH_MAX} levels deep`);
    const long = await failure(caller.lsp.add({ ...config, initializationOptions: { x: "x".repeat(10_000_000) } }));
    expect(long.message).toMatch(/^initializationOptions: The value is 10,000,008 characters as JSON; the limit is 100,000$/);
    expect(await caller.lsp.servers()).toEqual(servers);
  });

  it("refuses extension call params 10,000 deep, sent over HTTP, before looking for the run", async () => {
    // `caller.extensions.call` would be Function.prototype.call on the caller's proxy; and JSON.stringify cannot write this value.
    const deep = `${'{"a":'.repeat(10_000)}1${"}".repeat(10_000)}`;
    const wire = await post("/trpc/extensions.call", `{"runId":"no-run","method":"m","params":${deep}}`);
    expect(wire.status).toBe(400);
    expect((JSON.parse(wire.body) as { error: { message: string } }).error.message).toBe(`params: The value is nested more than ${JSON_DEPTH_MAX} levels deep`);
  });
});

describe("unavailable peers answer 503 (STYLE §4 status mapping)", () => {
  it("maps unavailable:mcp (a server that fails to start) to SERVICE_UNAVAILABLE, over the caller and HTTP", async () => {
    const config = { name: "down", failOnStartupError: true, startupTimeoutMs: 5_000, transport: { type: "http" as const, url: "http://127.0.0.1:1/mcp" } };
    const error = await failure(caller.mcp.add(config));
    expect(error.code).toBe("SERVICE_UNAVAILABLE");
    // Saving tries the server first (MCP-10): the try's reason is the host code, its failure rides along in data.mcpProbe.
    expect(hostCode(error)).toBe("failed");
    const wire = await post("/trpc/mcp.add", JSON.stringify(config));
    expect(wire.status).toBe(503);
    const body = JSON.parse(wire.body) as { error: { message: string; data: { hostCode: string; httpStatus: number } } };
    expect(body.error.data).toMatchObject({ hostCode: "failed", httpStatus: 503, mcpProbe: { step: "initializing", reason: "failed", stderrTail: "" } });
    expect(body.error.message).toMatch(/Seam cannot connect to port 1 of 127.0.0.1: fetch refuses that port as unsafe/);
    expect(await caller.mcp.list()).toEqual([]);
  });
});

/** A POST to the test server; resolves with the answer (a refusal may come before the body was sent). */
function post(path: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } }, (res) => {
      readAll(res).then((text) => resolve({ status: res.statusCode ?? 0, body: text }), reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
const readAll = async (res: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};
const external = () => { const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers; };

describe("HTTP body limit (SEC-5)", () => {
  it("is chosen from the largest legitimate input, at 3 bytes a character", () => {
    expect(LARGEST_INPUT_CHARS).toBe(MCP_IMPORT_MAX_CHARS);
    expect(BODY_MAX_BYTES).toBeGreaterThan(3 * LARGEST_INPUT_CHARS);
  });

  it("answers 413 to a declared 100 MB body before a byte of it is sent", async () => {
    const size = 100 * 1024 * 1024;
    const answer = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const req = request({
        host: "127.0.0.1", port, path: "/trpc/mcp.importPreview", method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": String(size) },
      }, (res) => {
        readAll(res).then((body) => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }), reject);
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe("close");
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: BODY_TOO_LARGE, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 } } });
  });

  it("answers 413 to a chunked 100 MB body while it streams, long before its end, without holding it", async () => {
    const total = 100 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, "x");
    const before = external();
    let sent = 0;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      let answered = false;
      const req = request({
        host: "127.0.0.1", port, path: "/trpc/mcp.importPreview", method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "transfer-encoding": "chunked" },
      }, (res) => {
        answered = true;
        readAll(res).then((body) => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        }, reject);
      });
      req.on("error", (e) => (answered ? undefined : reject(e)));
      // Slowly: one chunk at a time, each after the previous one left.
      const pump = () => {
        if (answered || sent >= total) return;
        sent += chunk.length;
        if (req.write(chunk)) setImmediate(pump);
        else req.once("drain", pump);
      };
      req.write('{"json":"');
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: BODY_TOO_LARGE, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 } } });
    // Refused once the limit was read: what was sent is the limit plus what the sockets buffered, far from 100 MB.
    expect(sent).toBeGreaterThan(BODY_MAX_BYTES);
    expect(sent).toBeLessThan(total / 4);
    expect(external() - before).toBeLessThan(total / 2);
  });

  it("reads the largest input it answers in words: an MCP import of MCP_IMPORT_MAX_CHARS characters, 3 bytes each, refused with its size (MCP-10)", async () => {
    const prefix = '// ';
    const suffix = '\n{"mcpServers": {}}';
    const json = `${prefix}${"€".repeat(MCP_IMPORT_MAX_CHARS - prefix.length - suffix.length)}${suffix}`;
    const body = JSON.stringify({ json });
    expect(Buffer.byteLength(body)).toBeGreaterThan(3 * (MCP_IMPORT_MAX_CHARS - 100));
    const answer = await post("/trpc/mcp.importPreview", body);
    // Read whole (not a bare 413), then refused before parsing: the import limit is MCP_IMPORT_MAX_BYTES.
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error.message).toBe(
      "The pasted config is 2.9 MB; Seam imports at most 256 KB at a time. Paste only the mcpServers block, or import the servers in parts.",
    );
  });

  it("takes an MCP import just under MCP_IMPORT_MAX_BYTES", async () => {
    const suffix = '\n{"mcpServers": {}}';
    const json = `// ${"x".repeat(MCP_IMPORT_MAX_BYTES - 3 - suffix.length)}${suffix}`;
    const answer = await post("/trpc/mcp.importPreview", JSON.stringify({ json }));
    expect(answer.status).toBe(200);
  });
});
