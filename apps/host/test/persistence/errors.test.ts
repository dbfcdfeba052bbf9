import { describe, expect, it } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { createScope } from "../../src/core/scope.js";
import { createExtensionStore } from "../../src/extensions/store.js";
import { Prisma, type PrismaClient } from "../../src/generated/prisma/client.js";
import { createMcpStore } from "../../src/mcp/store.js";
import { openDatabase, type Database } from "../../src/persistence/db.js";
import { toHostError } from "../../src/persistence/errors.js";
import { createStore } from "../../src/persistence/store.js";
import { tmpDir } from "./tmp.js";
import { testDbUrl } from "../support/db-url.js";

const known = (code: string) => new Prisma.PrismaClientKnownRequestError(`driver says ${code} at /srv/x.db`, { code, clientVersion: "7" });

describe("toHostError (STYLE §4)", () => {
  it("maps a missing record to not_found of the capability the operation was about", () => {
    for (const capability of ["session", "mcp", "extensions", "lsp"] as const) {
      for (const code of ["P2025", "P2001"]) {
        const e = toHostError(known(code), { capability, what: "the thing" });
        expect(e).toMatchObject({ code: `not_found:${capability}`, message: "the thing not found", data: { prismaCode: code } });
        expect(e.cause).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
      }
    }
  });

  it("maps a failed foreign key to not_found of the records referred to", () => {
    expect(toHostError(known("P2003"), { capability: "session", what: "session s" })).toMatchObject({ code: "not_found:session" });
    expect(toHostError(known("P2003"), { capability: "extensions", what: "extension x", references: "session" })).toMatchObject({
      code: "not_found:session",
      message: "extension x: a record it refers to does not exist",
    });
  });

  it("uses the caller's messages and data, and keeps driver text only in internal:db", () => {
    const about = { capability: "mcp", what: 'MCP server "a"', notFound: "No such server.", conflict: "Taken.", data: { name: "a" } } as const;
    expect(toHostError(known("P2025"), about)).toMatchObject({ code: "not_found:mcp", message: "No such server.", data: { name: "a", prismaCode: "P2025" } });
    expect(toHostError(known("P2002"), about)).toMatchObject({ code: "conflict:mcp", message: "Taken." });
    expect(toHostError(known("P2024"), about)).toMatchObject({ code: "timeout:db", message: 'MCP server "a": The database is busy.' });
    expect(toHostError(new Error("SQLITE_BUSY: database is locked"), about)).toMatchObject({ code: "timeout:db" });
    expect(toHostError(known("P2021"), about)).toMatchObject({ code: "internal:db", message: expect.stringContaining("driver says P2021") });
    const own = new HostError("bad_input:mcp", "mine");
    expect(toHostError(own, about)).toBe(own);
  });

  it("toObject keeps data as JSON, redacted, without foreign errors", () => {
    const e = new HostError("unavailable:web", "m", { reason: "provider_failed", url: "https://u:pw@example.com/x", apiKey: "sk-1", inner: new Error("x"), n: 1 });
    expect(e.toObject()).toEqual({ code: "provider_failed", message: "m", data: { reason: "provider_failed", url: "https://[redacted]@example.com/x", apiKey: "[redacted]", n: 1 } });
    expect(new HostError("internal:db", "m").toObject()).toEqual({ code: "internal:db", message: "m", data: {} });
  });
});

/** A fresh database for one test. */
async function withDb(fn: (db: Database) => Promise<void>): Promise<void> {
  await using dir = tmpDir();
  await using scope = createScope("test");
  await fn(await openDatabase(scope, { home: dir.path, url: testDbUrl(`${dir.path}/errors.db`) }));
}

describe("per-model not found through the real stores", () => {
  it("session rows: not_found:session", () => withDb(async (db) => {
    await expect(db.store.sessions.rename("nope", "x")).rejects.toMatchObject({ code: "not_found:session", message: "session nope not found" });
    await expect(db.store.items.updateMessage("m1", { text: "x", state: "complete" })).rejects.toMatchObject({ code: "not_found:session" });
  }));

  it("an MCP server config: not_found:mcp / conflict:mcp", () => withDb(async (db) => {
    const store = createMcpStore(db);
    await expect(store.remove("ghost")).rejects.toMatchObject({ code: "not_found:mcp", message: 'No MCP server named "ghost" is configured.', data: { name: "ghost" } });
    const config = { name: "a", enabled: true, transport: { type: "stdio", command: "x" } } as Parameters<typeof store.create>[0];
    await store.create(config);
    await expect(store.create(config)).rejects.toMatchObject({ code: "conflict:mcp", message: 'An MCP server named "a" already exists.' });
  }));

  it("an extension package: not_found:extensions; its missing session: not_found:session", () => withDb(async (db) => {
    const store = createExtensionStore(db);
    await expect(store.remove("no-such-package")).rejects.toMatchObject({ code: "not_found:extensions", message: "extension package no-such-package not found" });
    const def = { purpose: "p", hostCode: "x", browserCode: null };
    await expect(store.define("no-such-session", "counter", def)).rejects.toMatchObject({ code: "not_found:session" });
  }));

  it("settings rows belong to the capability named by their key (lsp, web, model → llm)", async () => {
    const missing = () => Promise.reject(known("P2025"));
    const prisma = { setting: { findUnique: missing, upsert: missing, deleteMany: missing } } as unknown as PrismaClient;
    const store = createStore(prisma);
    await expect(store.settings.set("lsp", { servers: [] })).rejects.toMatchObject({ code: "not_found:lsp", message: "setting lsp not found" });
    await expect(store.settings.get("web")).rejects.toMatchObject({ code: "not_found:web" });
    await expect(store.settings.get("model")).rejects.toMatchObject({ code: "not_found:llm" });
    await expect(store.settings.get("something-else")).rejects.toMatchObject({ code: "not_found:db" });
  });
});
