import {
  formatIssues, SESSION_PAGE_DEFAULT, SessionDetailInput, SessionItemsAroundInput, SessionItemsInput,
  type ItemPage, type SessionDetail, type SessionInfo, type TimelineItem,
} from "@seam/shared";
import type { z } from "zod";
import { HostError } from "../core/errors.js";
import type { SessionRow, Store } from "../persistence/store.js";

/** The chat's paged timeline (CTX-4): the latest page with the session, older or newer pages, a window around one item. */
export interface SessionPages {
  /** The session with its latest page of items (default 100), their turns and its last turn. */
  detail(id: string, opts?: { limit?: number }): Promise<SessionDetail>;
  /** The page before `beforeSeq` or after `afterSeq` (the latest page with neither), with its turns. */
  items(input: SessionItemsInput): Promise<ItemPage>;
  /** About `limit` items centred on `itemId` (it included), with their turns; page on both ways from there. */
  itemsAround(input: SessionItemsAroundInput): Promise<ItemPage>;
}

interface Deps {
  store: Store;
  requireSession(id: string): Promise<SessionRow>;
  info(row: SessionRow): SessionInfo;
  /** The session was opened: capabilities may get ready for its next turn. */
  opened(row: SessionRow): void;
}

/** Every call is validated here too: the service is also called in-process, not only through tRPC. */
function parse<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new HostError("bad_input:session", `The page request is not valid: ${formatIssues(r.error)}`, { reason: "bad_page" });
  return r.data;
}

export function createSessionPages(d: Deps): SessionPages {
  const { store } = d;
  const turnsOf = (sessionId: string, items: readonly TimelineItem[]) =>
    store.turns.byIds(sessionId, items.flatMap((i) => (i.turnId ? [i.turnId] : [])));

  const pages: SessionPages = {
    async detail(id, opts = {}) {
      const input = parse(SessionDetailInput, { id, ...opts });
      const row = await d.requireSession(input.id);
      d.opened(row);
      const page = await store.items.page(input.id, { limit: input.limit ?? SESSION_PAGE_DEFAULT });
      const [turns, lastTurn] = await Promise.all([turnsOf(input.id, page.items), store.turns.last(input.id)]);
      return { session: d.info(row), items: page.items, turns, hasOlder: page.more, hasNewer: false, lastTurn };
    },
    async items(raw) {
      const input = parse(SessionItemsInput, raw);
      await d.requireSession(input.sessionId);
      const { items, more } = await store.items.page(input.sessionId, {
        beforeSeq: input.beforeSeq, afterSeq: input.afterSeq, limit: input.limit ?? SESSION_PAGE_DEFAULT,
      });
      const newer = input.afterSeq !== undefined;
      const [turns, beyond] = await Promise.all([
        turnsOf(input.sessionId, items),
        // The other direction: anything on the far side of the cursor (nothing past the latest page).
        input.beforeSeq === undefined && !newer ? Promise.resolve(false) : hasBeyond(input.sessionId, newer ? { beforeSeq: input.afterSeq! + 1 } : { afterSeq: input.beforeSeq! - 1 }),
      ]);
      return { items, turns, hasOlder: newer ? beyond : more, hasNewer: newer ? more : beyond };
    },
    async itemsAround(raw) {
      const input = parse(SessionItemsAroundInput, raw);
      await d.requireSession(input.sessionId);
      const seq = await store.items.seqOf(input.sessionId, input.itemId);
      if (seq === null) {
        throw new HostError("not_found:session", `Session ${input.sessionId} has no item ${input.itemId}; it may have been deleted, or the link belongs to another session.`, { reason: "unknown_item" });
      }
      const limit = input.limit ?? SESSION_PAGE_DEFAULT;
      const before = Math.floor((limit - 1) / 2);
      // The item and what follows it, then what precedes it (nothing when the limit is 1: only whether there is any).
      const after = await store.items.page(input.sessionId, { afterSeq: seq - 1, limit: limit - before });
      const older = before > 0
        ? await store.items.page(input.sessionId, { beforeSeq: seq, limit: before })
        : { items: [], more: await hasBeyond(input.sessionId, { beforeSeq: seq }) };
      const items = [...older.items, ...after.items];
      return { items, turns: await turnsOf(input.sessionId, items), hasOlder: older.more, hasNewer: after.more };
    },
  };

  /** Whether any item lies before `beforeSeq` (exclusive) or after `afterSeq` (exclusive). */
  async function hasBeyond(sessionId: string, at: { beforeSeq: number } | { afterSeq: number }) {
    if ("beforeSeq" in at && at.beforeSeq <= 0) return false;
    return (await store.items.page(sessionId, { ...at, limit: 1 })).items.length > 0;
  }

  return pages;
}
