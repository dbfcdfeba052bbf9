import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import type { ItemPage } from "@seam/shared";
import { longSessionExport } from "../../../../packages/testkit/src/index.js";
import type { Scope } from "../../src/core/scope.js";
import type { HostApi } from "../../src/host-api.js";
import { appRouter } from "../../src/trpc/root.js";
import { startTestHost } from "../support/host.js";
import { rejection } from "../support/errors.js";

let scope: Scope;
let host: HostApi;
let workspace: string;
let id: string;

beforeAll(async () => {
  ({ scope, host } = await startTestHost());
  workspace = mkdtempSync(join(tmpdir(), "seam-pages-ws-"));
  // 250 items in turns of 10: "User message #1", a tool call, "Reply #3"…
  id = (await host.sessions.importJson({ text: longSessionExport({ items: 250, workspace }) })).id;
});
afterAll(async () => {
  await scope.dispose();
  rmSync(workspace, { recursive: true, force: true });
});

/** The TRPCError `p` rejects with; the test fails when it resolves or rejects with anything else. */
async function fail(p: Promise<unknown>): Promise<TRPCError> {
  try {
    await p;
  } catch (error) {
    if (error instanceof TRPCError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}
const seqs = (p: { items: { seq: number }[] }) => p.items.map((i) => i.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => from + k);
/** Every item's turn is in the page, and no other turn. */
const turnsMatch = (p: ItemPage) => expect(p.turns.map((t) => t.id).sort()).toEqual([...new Set(p.items.map((i) => i.turnId!))].sort());

describe("session paging (CTX-4)", () => {
  it("detail: the session, its latest page (100 by default) with their turns, and the last turn", async () => {
    const d = await host.sessions.detail(id);
    expect(d.session.id).toBe(id);
    expect(seqs(d)).toEqual(range(151, 250));
    expect(d.hasOlder).toBe(true);
    expect(d.hasNewer).toBe(false);
    turnsMatch(d);
    expect(d.lastTurn?.endedAt).toBe(d.turns.at(-1)?.endedAt);
    expect(seqs(await host.sessions.detail(id, { limit: 5 }))).toEqual(range(246, 250));
  });

  it("items: older pages down to the first item, newer pages up to the last", async () => {
    let page = await host.sessions.items({ sessionId: id, beforeSeq: 151, limit: 100 });
    expect(seqs(page)).toEqual(range(51, 150));
    expect(page).toMatchObject({ hasOlder: true, hasNewer: true });
    turnsMatch(page);
    page = await host.sessions.items({ sessionId: id, beforeSeq: 51, limit: 100 });
    expect(seqs(page)).toEqual(range(1, 50));
    expect(page).toMatchObject({ hasOlder: false, hasNewer: true });
    expect(page.items[0]).toMatchObject({ kind: "message", role: "user", text: "User message #1" });

    page = await host.sessions.items({ sessionId: id, afterSeq: 0, limit: 200 });
    expect(seqs(page)).toEqual(range(1, 200));
    expect(page).toMatchObject({ hasOlder: false, hasNewer: true });
    page = await host.sessions.items({ sessionId: id, afterSeq: 200 });
    expect(seqs(page)).toEqual(range(201, 250));
    expect(page).toMatchObject({ hasOlder: true, hasNewer: false });
    // With no cursor: the latest page.
    page = await host.sessions.items({ sessionId: id, limit: 3 });
    expect(seqs(page)).toEqual([248, 249, 250]);
    expect(page).toMatchObject({ hasOlder: true, hasNewer: false });
  });

  it("itemsAround: a window centred on the item, with both directions open", async () => {
    const first = await host.sessions.items({ sessionId: id, afterSeq: 0, limit: 200 });
    const target = first.items.find((i) => i.seq === 101)!;
    let page = await host.sessions.itemsAround({ sessionId: id, itemId: target.id, limit: 11 });
    expect(seqs(page)).toEqual(range(96, 106));
    expect(page).toMatchObject({ hasOlder: true, hasNewer: true });
    turnsMatch(page);
    // Near the start, the window is cut short and says there is nothing older.
    page = await host.sessions.itemsAround({ sessionId: id, itemId: first.items[1]!.id, limit: 11 });
    expect(seqs(page)).toEqual(range(1, 7));
    expect(page).toMatchObject({ hasOlder: false, hasNewer: true });
    // A window of one is the item itself.
    page = await host.sessions.itemsAround({ sessionId: id, itemId: target.id, limit: 1 });
    expect(seqs(page)).toEqual([101]);
    expect(page).toMatchObject({ hasOlder: true, hasNewer: true });
  });

  it("an empty session has an empty page", async () => {
    const s = await host.sessions.create({ workspace, title: "empty" });
    expect(await host.sessions.detail(s.id)).toMatchObject({ items: [], turns: [], hasOlder: false, hasNewer: false, lastTurn: null });
    expect(await host.sessions.items({ sessionId: s.id, beforeSeq: 10 })).toEqual({ items: [], turns: [], hasOlder: false, hasNewer: false });
  });

  it("bad input: unknown session, unknown item, limits out of range, both cursors", async () => {
    const missing = await rejection(host.sessions.detail("nope"));
    expect(missing.code).toBe("not_found:session");
    expect((await rejection(host.sessions.items({ sessionId: "nope" }))).code).toBe("not_found:session");
    expect((await rejection(host.sessions.itemsAround({ sessionId: "nope", itemId: "x" }))).code).toBe("not_found:session");

    const item = await rejection(host.sessions.itemsAround({ sessionId: id, itemId: "no-such-item" }));
    expect(item.code).toBe("not_found:session");
    expect(item.message).toMatch(/has no item no-such-item/);
    expect(item.data).toMatchObject({ reason: "unknown_item" });
    // An item of another session is not found in this one.
    const other = await host.sessions.importJson({ text: longSessionExport({ items: 3, workspace }) });
    const foreign = (await host.sessions.detail(other.id)).items[0]!;
    expect((await rejection(host.sessions.itemsAround({ sessionId: id, itemId: foreign.id }))).code).toBe("not_found:session");

    for (const limit of [0, 501, 1.5]) {
      const bad = await rejection(host.sessions.items({ sessionId: id, limit }));
      expect(bad.code).toBe("bad_input:session");
      expect(bad.message).toMatch(/page/);
    }
    expect((await rejection(host.sessions.detail(id, { limit: 1000 }))).message).toMatch(/at most 500/);
    expect((await rejection(host.sessions.itemsAround({ sessionId: id, itemId: foreign.id, limit: -1 }))).code).toBe("bad_input:session");
    expect((await rejection(host.sessions.items({ sessionId: id, beforeSeq: 10, afterSeq: 5 }))).message).toMatch(/not both/);
    expect((await rejection(host.sessions.items({ sessionId: id, beforeSeq: -1 }))).code).toBe("bad_input:session");
  });

  it("through tRPC: the pages answer, bad input is BAD_REQUEST naming the field, an unknown item NOT_FOUND", async () => {
    const caller = appRouter.createCaller({ host });
    expect((await caller.session.get({ id, limit: 2 })).items.map((i) => i.seq)).toEqual([249, 250]);
    expect((await caller.session.items({ sessionId: id, beforeSeq: 3 })).items.map((i) => i.seq)).toEqual([1, 2]);
    const tooMany = await fail(caller.session.items({ sessionId: id, limit: 501 }));
    expect(tooMany.code).toBe("BAD_REQUEST");
    expect(tooMany.message).toMatch(/at most 500/);
    expect((await fail(caller.session.get({ id, limit: 0 }))).code).toBe("BAD_REQUEST");
    expect((await fail(caller.session.itemsAround({ sessionId: id, itemId: "nope" }))).code).toBe("NOT_FOUND");
  });
});
