/**
 * Full-text search across sessions (CTX-5) on SQLite FTS5. The index ("SearchIndex") and the triggers
 * that fill it are made by the hand-written migration `*_search_fts`; this file only reads it.
 * PostgreSQL implements the same `SearchStore` over a tsvector index (`search-pg.ts`).
 */
import type { SearchHit, SnippetPart } from "@seam/shared";
import type { PrismaClient } from "../generated/prisma/client.js";

export interface SearchOptions {
  /** 1…50 */
  limit: number;
  /** Only this session's items. */
  sessionId?: string;
}

export interface SearchStore {
  /** Best match first (bm25), then the most recent; [] when the query has no word to look for. */
  search(query: string, opts: SearchOptions): Promise<SearchHit[]>;
}

/** Snippet markers: control characters that typed text does not hold (they are dropped from snippets otherwise). */
export const OPEN = "\u0001";
export const CLOSE = "\u0002";
export const SNIPPET_TOKENS = 16;
const MARKERS = new RegExp(`([${OPEN}${CLOSE}])`, "u");

/**
 * The user's words → an FTS5 query that can never be a syntax error: every word is a quoted string
 * (so `AND`, `-`, `*`, `"` and `:` are plain text), all must match, the last one as a prefix (results
 * while typing), and only the "text" column is searched. Null when no word holds a letter or digit.
 */
export function ftsQuery(text: string): string | null {
  const words = text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length === 0) return null;
  const phrases = words.map((w, i) => `"${w.replaceAll('"', '""')}"${i === words.length - 1 ? " *" : ""}`);
  return `"text" : (${phrases.join(" ")})`;
}

/** `a \u0001b\u0002 c` → [{a, false}, {b, true}, {c, false}] */
export function snippetParts(marked: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let hit = false;
  for (const piece of marked.split(MARKERS)) {
    if (piece === OPEN) hit = true;
    else if (piece === CLOSE) hit = false;
    else if (piece) {
      const last = parts.at(-1);
      if (last && last.hit === hit) last.text += piece;
      else parts.push({ text: piece, hit });
    }
  }
  return parts;
}

export interface Row { itemId: string; sessionId: string; kind: string; role: string; seq: number | bigint; at: string | number | Date; title: string; snippet: string }

export const iso = (at: Row["at"]) => {
  const d = at instanceof Date ? at : new Date(typeof at === "string" && /^\d+$/.test(at) ? Number(at) : at);
  return Number.isNaN(d.getTime()) ? String(at) : d.toISOString();
};

/** Runs on the store's connection; the caller passes it through the store's gate. */
export function sqliteSearch(prisma: PrismaClient): SearchStore {
  return {
    async search(query, opts) {
      const match = ftsQuery(query);
      if (match === null) return [];
      const limit = Math.max(1, Math.min(50, Math.floor(opts.limit)));
      const args: unknown[] = [match];
      if (opts.sessionId !== undefined) args.push(opts.sessionId);
      args.push(limit);
      const rows = await prisma.$queryRawUnsafe<Row[]>(
        `SELECT "SearchIndex"."itemId" AS "itemId", "SearchIndex"."sessionId" AS "sessionId", "SearchIndex"."kind" AS "kind",
                "SearchIndex"."role" AS "role", "SearchIndex"."seq" AS "seq", "SearchIndex"."at" AS "at", "Session"."title" AS "title",
                snippet("SearchIndex", 0, char(1), char(2), '…', ${SNIPPET_TOKENS}) AS "snippet"
           FROM "SearchIndex" JOIN "Session" ON "Session"."id" = "SearchIndex"."sessionId"
          WHERE "SearchIndex" MATCH ?${opts.sessionId !== undefined ? ` AND "SearchIndex"."sessionId" = ?` : ""}
          ORDER BY bm25("SearchIndex"), "SearchIndex"."at" DESC, "SearchIndex"."rowid" DESC
          LIMIT ?`,
        ...args,
      );
      return rows.map(toHit);
    },
  };
}

export function toHit(r: Row): SearchHit {
  return {
    sessionId: r.sessionId,
    sessionTitle: r.title,
    itemId: r.itemId,
    seq: Number(r.seq),
    kind: r.kind === "tool_call" ? "tool_call" : "message",
    role: r.role,
    snippet: snippetParts(r.snippet),
    at: iso(r.at),
  };
}
