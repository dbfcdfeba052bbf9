/**
 * Full-text search (CTX-5) on PostgreSQL (SCALE-1): the same `SearchStore` as FTS5, over the table
 * "SearchIndex" with a `tsvector` column under a GIN index, filled by the triggers of the hand-written
 * migration `prisma/postgres/migrations/*_search`. Text is indexed with the `simple` configuration (no
 * stemming, no stop words: like unicode61) after `unaccent`, and the query is folded the same way here.
 */
import type { PrismaClient } from "../generated/prisma/client.js";
import { CLOSE, OPEN, SNIPPET_TOKENS, toHit, type Row, type SearchStore } from "./search.js";

/**
 * The user's words → a `to_tsquery('simple', …)` text that can never be a syntax error: each word is
 * cut into its letter/digit runs (as the parser would), lowercased and stripped of diacritics; the runs
 * of one word must follow each other (`<->`), all words must match (`&`), and the last run is a prefix
 * (`:*`). Every lexeme is quoted, so nothing the user types is tsquery syntax. Null when there is no word.
 */
export function tsQuery(text: string): string | null {
  const words = text
    .split(/\s+/u)
    .map((w) => w.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean))
    .filter((runs) => runs.length > 0);
  if (words.length === 0) return null;
  return words
    .map((runs, i) => runs.map((r, j) => `'${r}'${i === words.length - 1 && j === runs.length - 1 ? ":*" : ""}`).join(" <-> "))
    .join(" & ");
}

const HEADLINE = `StartSel=${OPEN}, StopSel=${CLOSE}, MaxWords=${SNIPPET_TOKENS}, MinWords=${Math.floor(SNIPPET_TOKENS / 2)}, ShortWord=0, MaxFragments=1, FragmentDelimiter=…`;

/** Runs on the store's connection; the caller passes it through the store's gate. */
export function postgresSearch(prisma: PrismaClient): SearchStore {
  return {
    async search(query, opts) {
      const q = tsQuery(query);
      if (q === null) return [];
      const limit = Math.max(1, Math.min(50, Math.floor(opts.limit)));
      const args: unknown[] = [q, HEADLINE, limit];
      if (opts.sessionId !== undefined) args.push(opts.sessionId);
      const rows = await prisma.$queryRawUnsafe<Row[]>(
        `SELECT s."itemId", s."sessionId", s."kind", s."role", s."seq", s."at", "Session"."title" AS "title",
                ts_headline('simple', s."text", q, $2) AS "snippet"
           FROM "SearchIndex" s
           JOIN "Session" ON "Session"."id" = s."sessionId",
                to_tsquery('simple', $1) q
          WHERE s."tsv" @@ q${opts.sessionId !== undefined ? ` AND s."sessionId" = $4` : ""}
          ORDER BY ts_rank(s."tsv", q) DESC, s."at" DESC, s."itemId" DESC
          LIMIT $3`,
        ...args,
      );
      return rows.map(toHit);
    },
  };
}
