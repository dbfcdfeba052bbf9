-- Full-text search across sessions (CTX-5) on PostgreSQL, hand-written: the counterpart of the SQLite
-- migration *_search_fts. "SearchIndex" holds a copy of every settled message's text (user and
-- assistant) and of every tool call's name and arguments, with a tsvector of it under a GIN index.
-- Triggers keep it in step with "Message" and "ToolCall"; a message is indexed once it is no longer
-- streaming. The rows that exist when this runs are indexed at the end (backfill).
--
-- The text is folded with unaccent (a trusted extension since PostgreSQL 13, so the database's owner
-- may create it) and parsed with the 'simple' configuration: no stemming, no stop words, like FTS5's
-- unicode61 with remove_diacritics. apps/host/src/persistence/search-pg.ts folds queries the same way.
--
-- Prisma's migration engine must not manage this table: apps/host/src/persistence/migrate.ts passes it
-- as an external table (PG_SEARCH_TABLES). A migration that recreates "Message" or "ToolCall" drops
-- these triggers: it must create them again and rebuild the index.

CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TABLE "SearchIndex" (
    "itemId" TEXT NOT NULL PRIMARY KEY,
    "sessionId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "text" TEXT NOT NULL,
    "tsv" TSVECTOR NOT NULL
);
CREATE INDEX "SearchIndex_tsv_idx" ON "SearchIndex" USING GIN ("tsv");
CREATE INDEX "SearchIndex_sessionId_idx" ON "SearchIndex" ("sessionId");

CREATE FUNCTION "SearchIndex_put"(item TEXT, session TEXT, kind TEXT, role TEXT, seq INTEGER, at TIMESTAMP(3), body TEXT) RETURNS VOID
LANGUAGE sql AS $$
  INSERT INTO "SearchIndex" ("itemId", "sessionId", "kind", "role", "seq", "at", "text", "tsv")
  VALUES (item, session, kind, role, seq, at, body, to_tsvector('simple', unaccent(body)))
  ON CONFLICT ("itemId") DO UPDATE SET "text" = EXCLUDED."text", "tsv" = EXCLUDED."tsv", "role" = EXCLUDED."role";
$$;

CREATE FUNCTION "SearchIndex_message"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM "SearchIndex" WHERE "itemId" = OLD."id";
    RETURN OLD;
  END IF;
  IF NEW."state" = 'streaming' THEN
    DELETE FROM "SearchIndex" WHERE "itemId" = NEW."id";
  ELSE
    PERFORM "SearchIndex_put"(NEW."id", NEW."sessionId", 'message', NEW."role", NEW."seq", NEW."createdAt", NEW."text");
  END IF;
  RETURN NEW;
END;
$$;

CREATE FUNCTION "SearchIndex_toolcall"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM "SearchIndex" WHERE "itemId" = OLD."id";
    RETURN OLD;
  END IF;
  PERFORM "SearchIndex_put"(NEW."id", NEW."sessionId", 'tool_call', NEW."name", NEW."seq", NEW."startedAt", NEW."name" || ' ' || NEW."argsJson");
  RETURN NEW;
END;
$$;

CREATE TRIGGER "SearchIndex_message_insert" AFTER INSERT ON "Message" FOR EACH ROW WHEN (NEW."state" <> 'streaming')
  EXECUTE FUNCTION "SearchIndex_message"();
CREATE TRIGGER "SearchIndex_message_update" AFTER UPDATE OF "text", "state" ON "Message" FOR EACH ROW
  WHEN (OLD."state" <> 'streaming' OR NEW."state" <> 'streaming')
  EXECUTE FUNCTION "SearchIndex_message"();
CREATE TRIGGER "SearchIndex_message_delete" AFTER DELETE ON "Message" FOR EACH ROW WHEN (OLD."state" <> 'streaming')
  EXECUTE FUNCTION "SearchIndex_message"();
CREATE TRIGGER "SearchIndex_toolcall_insert" AFTER INSERT ON "ToolCall" FOR EACH ROW
  EXECUTE FUNCTION "SearchIndex_toolcall"();
CREATE TRIGGER "SearchIndex_toolcall_update" AFTER UPDATE OF "name", "argsJson" ON "ToolCall" FOR EACH ROW
  EXECUTE FUNCTION "SearchIndex_toolcall"();
CREATE TRIGGER "SearchIndex_toolcall_delete" AFTER DELETE ON "ToolCall" FOR EACH ROW
  EXECUTE FUNCTION "SearchIndex_toolcall"();

-- Backfill: the rows written before this migration.
SELECT "SearchIndex_put"("id", "sessionId", 'message', "role", "seq", "createdAt", "text") FROM "Message" WHERE "state" <> 'streaming';
SELECT "SearchIndex_put"("id", "sessionId", 'tool_call', "name", "seq", "startedAt", "name" || ' ' || "argsJson") FROM "ToolCall";
