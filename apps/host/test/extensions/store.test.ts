import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HostError } from "../../src/core/errors.js";
import { createScope, type Scope } from "../../src/core/scope.js";
import { openDatabase, type Database } from "../../src/persistence/db.js";
import { createExtensionStore, definitionHash, type ExtensionDefinition, type ExtensionStore } from "../../src/extensions/store.js";
import { tmpDir } from "../persistence/tmp.js";
import { testDbUrl } from "../support/db-url.js";

let dir: ReturnType<typeof tmpDir>;
let scope: Scope;
let db: Database;
let store: ExtensionStore;
let s1: string;
let s2: string;

beforeEach(async () => {
  dir = tmpDir("seam-ext-");
  scope = createScope("test");
  db = await openDatabase(scope, { home: dir.path, url: testDbUrl(`${dir.path}/ext.db`) });
  store = createExtensionStore(db);
  s1 = (await db.store.sessions.create({ title: "One", workspace: "/one" })).id;
  s2 = (await db.store.sessions.create({ title: "Two", workspace: "/two" })).id;
});
afterEach(async () => {
  await scope.dispose();
  await dir[Symbol.asyncDispose]();
});

const def = (hostCode: string | null, browserCode: string | null = null, purpose = "counts"): ExtensionDefinition => ({ purpose, hostCode, browserCode });
const isNotFound = (e: unknown) => e instanceof HostError && e.code === "not_found:extensions";
const counts = () => db.exclusive(async (p) => ({
  versions: await p.extensionVersion.count(),
  decisions: await p.extensionDecision.count(),
  grants: await p.extensionGrant.count(),
}));

describe("extension store (EXT-2)", () => {
  it("appends versions 1, 2, 3 with content hashes; an identical define writes nothing", async () => {
    const a = await store.define(s1, "counter", def("api.log(1)"));
    expect(a).toEqual({ packageId: expect.any(String), version: 1, hash: definitionHash(def("api.log(1)")), created: true });
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    const b = await store.define(s1, "counter", def("api.log(2)", "seam.root.textContent = 'hi'"));
    const c = await store.define(s1, "counter", def("api.log(2)", "seam.root.textContent = 'hi'", "counts better"));
    expect([b.version, c.version]).toEqual([2, 3]);
    expect(new Set([a.hash, b.hash, c.hash]).size).toBe(3);
    expect(b.packageId).toBe(a.packageId);

    const same = await store.define(s1, "counter", def("api.log(2)", "seam.root.textContent = 'hi'", "counts better"));
    expect(same).toEqual({ ...c, created: false });
    expect((await counts()).versions).toBe(3);

    // Back to an older definition is a new version: only the latest counts as "unchanged".
    expect(await store.define(s1, "counter", def("api.log(1)"))).toMatchObject({ version: 4, hash: a.hash, created: true });

    const view = await store.find(s1, "counter");
    expect(view).toMatchObject({ id: a.packageId, name: "counter", sessionId: s1, sessionTitle: "One", grant: null });
    expect(view?.versions.map((v) => [v.version, v.hasHost, v.hasBrowser, v.decision])).toEqual([[1, true, false, null], [2, true, true, null], [3, true, true, null], [4, true, false, null]]);
    expect(new Date(view!.createdAt).toISOString()).toBe(view!.createdAt);

    expect(await store.source(a.packageId, 2)).toMatchObject({ version: 2, packageName: "counter", hostCode: "api.log(2)", browserCode: "seam.root.textContent = 'hi'", purpose: "counts" });
    expect(await store.source(a.packageId)).toMatchObject({ version: 4, hostCode: "api.log(1)", browserCode: null });
  });

  it("the hash covers purpose and both halves, and a missing half differs from an empty one", () => {
    const base = definitionHash(def("x", "y"));
    expect(definitionHash(def("x", "y"))).toBe(base);
    expect(new Set([base, definitionHash(def("x", "y", "other")), definitionHash(def("y", "x")), definitionHash(def("x", null)), definitionHash(def("x", ""))]).size).toBe(5);
  });

  it("versions are immutable: the database refuses an update and the row stays", async () => {
    const { packageId } = await store.define(s1, "counter", def("api.log(1)"));
    const update = db.exclusive((p) => p.extensionVersion.update({ where: { packageId_number: { packageId, number: 1 } }, data: { hostCode: "evil()" } }));
    await expect(update).rejects.toMatchObject({ code: "conflict:db", message: expect.stringMatching(/immutable/) });
    const raw = db.exclusive((p) => p.$executeRawUnsafe(`UPDATE "ExtensionVersion" SET "purpose" = 'changed'`));
    await expect(raw).rejects.toMatchObject({ code: "conflict:db" });
    expect(await store.source(packageId, 1)).toMatchObject({ hostCode: "api.log(1)", purpose: "counts" });
  });

  it("another session's package reads as absent; listAll shows every session's", async () => {
    await store.define(s1, "counter", def("a"));
    await store.define(s2, "other", def("b"));
    await store.define(s2, "alpha", def("c"));
    expect(await store.find(s2, "counter")).toBeNull();
    expect(await store.find(s1, "other")).toBeNull();
    expect((await store.listForSession(s1)).map((p) => p.name)).toEqual(["counter"]);
    expect((await store.listForSession(s2)).map((p) => p.name)).toEqual(["alpha", "other"]);
    // The same name in two sessions is two packages.
    const twin = await store.define(s2, "counter", def("a"));
    expect(twin).toMatchObject({ version: 1, created: true });
    const all = await store.listAll();
    expect(all.map((p) => [p.sessionTitle, p.name]).sort()).toEqual([["One", "counter"], ["Two", "alpha"], ["Two", "counter"], ["Two", "other"]]);
  });

  it("remove deletes the package with its versions, decisions and grants", async () => {
    const { packageId } = await store.define(s1, "counter", def("a"));
    await store.define(s1, "counter", def("b"));
    const keep = await store.define(s2, "kept", def("k"));
    await store.decide(packageId, 1, "allow", "user", true);
    await store.grant(packageId, 1);
    await store.remove(packageId);
    expect(await store.find(s1, "counter")).toBeNull();
    expect(await counts()).toEqual({ versions: 1, decisions: 0, grants: 0 });
    await expect(store.remove(packageId)).rejects.toSatisfy(isNotFound);
    expect((await store.source(keep.packageId)).hostCode).toBe("k");
  });

  it("decisions: the latest per version shows, lastAllowed is the newest allowed version", async () => {
    const { packageId } = await store.define(s1, "counter", def("a"));
    await store.define(s1, "counter", def("b"));
    await store.define(s1, "counter", def("c"));
    expect(await store.lastAllowed(packageId)).toBeNull();

    await store.decide(packageId, 1, "allow", "user", false);
    await store.decide(packageId, 2, "allow", "user", false);
    await store.decide(packageId, 3, "deny", "user", false);
    expect((await store.lastAllowed(packageId))?.version).toBe(2);

    // A later denial of v2 supersedes its allow (same millisecond or not).
    await store.decide(packageId, 2, "deny", "user", false);
    const allowed = await store.lastAllowed(packageId);
    expect(allowed).toMatchObject({ version: 1, hostCode: "a", packageName: "counter", decision: { decision: "allow", by: "user" } });

    await store.decide(packageId, 3, "allow", "grant", false);
    expect((await store.lastAllowed(packageId))?.version).toBe(3);
    const versions = (await store.find(s1, "counter"))!.versions;
    expect(versions.map((v) => v.decision && [v.decision.decision, v.decision.by])).toEqual([["allow", "user"], ["deny", "user"], ["allow", "grant"]]);
    expect(new Date(versions[2]!.decision!.at).toISOString()).toBe(versions[2]!.decision!.at);

    await expect(store.decide(packageId, 9, "allow", "user", false)).rejects.toSatisfy(isNotFound);
    await expect(store.decide("nope", 1, "allow", "user", false)).rejects.toSatisfy(isNotFound);
    expect(await store.lastAllowed("nope")).toBeNull();
  });

  it("grants: one active per package, revocable, shown on the package", async () => {
    const { packageId } = await store.define(s1, "counter", def("a"));
    await store.define(s1, "counter", def("b"));
    expect(await store.activeGrant(packageId)).toBeNull();
    expect(await store.revoke(packageId)).toBe(false);

    const g = await store.grant(packageId, 1);
    expect(g).toEqual({ packageId, packageName: "counter", sessionId: s1, fromVersion: 1, grantedAt: expect.any(String) });
    expect(await store.grant(packageId, 2)).toEqual(g); // kept, not replaced
    expect(await store.activeGrant(packageId)).toEqual(g);
    expect((await store.find(s1, "counter"))?.grant).toEqual(g);

    expect(await store.revoke(packageId)).toBe(true);
    expect(await store.revoke(packageId)).toBe(false);
    expect(await store.activeGrant(packageId)).toBeNull();
    expect((await store.find(s1, "counter"))?.grant).toBeNull();

    const again = await store.grant(packageId, 2);
    expect(again.fromVersion).toBe(2);
    expect(await store.activeGrant(packageId)).toEqual(again);
    expect((await counts()).grants).toBe(2); // the revoked one stays as history
    await expect(store.grant("nope", 1)).rejects.toSatisfy(isNotFound);
  });

  it("deleting the session deletes its packages", async () => {
    const { packageId } = await store.define(s1, "counter", def("a"));
    await store.decide(packageId, 1, "allow", "user", true);
    await store.grant(packageId, 1);
    await store.define(s2, "kept", def("k"));
    await db.store.sessions.remove(s1);
    expect(await store.listForSession(s1)).toEqual([]);
    expect((await store.listAll()).map((p) => p.name)).toEqual(["kept"]);
    expect(await counts()).toEqual({ versions: 1, decisions: 0, grants: 0 });
  });

  it("source of an unknown package or version is not_found:extensions", async () => {
    const { packageId } = await store.define(s1, "counter", def("a"));
    await expect(store.source("nope")).rejects.toSatisfy(isNotFound);
    await expect(store.source("nope", 1)).rejects.toSatisfy(isNotFound);
    await expect(store.source(packageId, 2)).rejects.toSatisfy(isNotFound);
  });

  it("defining in an unknown session fails without creating anything", async () => {
    await expect(store.define("no-such-session", "counter", def("a"))).rejects.toMatchObject({ code: "not_found:session" });
    expect(await store.listAll()).toEqual([]);
  });
});
