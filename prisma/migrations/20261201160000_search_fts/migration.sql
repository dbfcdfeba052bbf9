-- Full-text search across sessions (CTX-5), hand-written: Prisma has no model for FTS5 tables.
-- "SearchIndex" is an FTS5 table holding a copy of every settled message's text (user and
-- assistant) and of every tool call's name and arguments. Triggers keep it in step with
-- "Message" and "ToolCall"; a message is indexed once it is no longer streaming. The rows that
-- exist when this runs are indexed at the end (backfill).
--
-- "itemId" is an indexed column so a trigger can find an item's row by MATCH (FTS5 has no
-- secondary indexes and rowids of the source tables are not stable); searches always restrict
-- the match to "text". The other columns are stored, not indexed.
--
-- Prisma's migration engine must not see this table or its shadow tables (SearchIndex_data,
-- _idx, _content, _docsize, _config): they are passed as external tables by
-- apps/host/src/persistence/migrate.ts (SEARCH_TABLES). A migration that redefines "Message" or
-- "ToolCall" (DROP + RENAME) drops these triggers: it must create them again and rebuild the
-- index (see apps/host/src/persistence/README.md).

CREATE VIRTUAL TABLE "SearchIndex" USING fts5(
  "text",
  "itemId",
  "sessionId" UNINDEXED,
  "kind" UNINDEXED,
  "role" UNINDEXED,
  "seq" UNINDEXED,
  "at" UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER "SearchIndex_message_insert" AFTER INSERT ON "Message" WHEN new."state" <> 'streaming' BEGIN
  INSERT INTO "SearchIndex" ("text", "itemId", "sessionId", "kind", "role", "seq", "at")
  VALUES (new."text", new."id", new."sessionId", 'message', new."role", new."seq", new."createdAt");
END;

CREATE TRIGGER "SearchIndex_message_update" AFTER UPDATE OF "text", "state" ON "Message"
WHEN old."state" <> 'streaming' OR new."state" <> 'streaming' BEGIN
  DELETE FROM "SearchIndex" WHERE "SearchIndex" MATCH '"itemId" : "' || old."id" || '"' AND "itemId" = old."id";
  INSERT INTO "SearchIndex" ("text", "itemId", "sessionId", "kind", "role", "seq", "at")
  SELECT new."text", new."id", new."sessionId", 'message', new."role", new."seq", new."createdAt" WHERE new."state" <> 'streaming';
END;

CREATE TRIGGER "SearchIndex_message_delete" AFTER DELETE ON "Message" WHEN old."state" <> 'streaming' BEGIN
  DELETE FROM "SearchIndex" WHERE "SearchIndex" MATCH '"itemId" : "' || old."id" || '"' AND "itemId" = old."id";
END;

CREATE TRIGGER "SearchIndex_toolcall_insert" AFTER INSERT ON "ToolCall" BEGIN
  INSERT INTO "SearchIndex" ("text", "itemId", "sessionId", "kind", "role", "seq", "at")
  VALUES (new."name" || ' ' || new."argsJson", new."id", new."sessionId", 'tool_call', new."name", new."seq", new."startedAt");
END;

CREATE TRIGGER "SearchIndex_toolcall_update" AFTER UPDATE OF "name", "argsJson" ON "ToolCall" BEGIN
  DELETE FROM "SearchIndex" WHERE "SearchIndex" MATCH '"itemId" : "' || old."id" || '"' AND "itemId" = old."id";
  INSERT INTO "SearchIndex" ("text", "itemId", "sessionId", "kind", "role", "seq", "at")
  VALUES (new."name" || ' ' || new."argsJson", new."id", new."sessionId", 'tool_call', new."name", new."seq", new."startedAt");
END;

CREATE TRIGGER "SearchIndex_toolcall_delete" AFTER DELETE ON "ToolCall" BEGIN
  DELETE FROM "SearchIndex" WHERE "SearchIndex" MATCH '"itemId" : "' || old."id" || '"' AND "itemId" = old."id";
END;

-- Backfill: the rows written before this migration.
INSERT INTO "SearchIndex" ("text", "itemId", "sessionId", "kind", "role", "seq", "at")
SELECT "text", "id", "sessionId", 'message', "role", "seq", "createdAt" FROM "Message" WHERE "state" <> 'streaming';
INSERT INTO "SearchIndex" ("text", "itemId", "sessionId", "kind", "role", "seq", "at")
SELECT "name" || ' ' || "argsJson", "id", "sessionId", 'tool_call', "name", "seq", "startedAt" FROM "ToolCall";
