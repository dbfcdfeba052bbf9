import { z } from "zod";
import { CheckpointConflict, RewindResult } from "./checkpoints.js";
import { SessionId, SessionInfo } from "./session.js";

/** Search across sessions (CTX-5): the query is plain words, never search syntax. */
export const SEARCH_QUERY_MAX = 200;
export const SEARCH_LIMIT_MAX = 50;
export const SEARCH_LIMIT_DEFAULT = 20;

export const SessionSearchInput = z.strictObject({
  query: z.string().trim().min(1, "Type something to search for").max(SEARCH_QUERY_MAX, `A search may have at most ${SEARCH_QUERY_MAX} characters`),
  limit: z.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT),
  /** Only this session's items. */
  sessionId: SessionId.optional(),
});
export type SessionSearchInput = z.input<typeof SessionSearchInput>;

/** A piece of a snippet; `hit` pieces are the words that matched. */
export const SnippetPart = z.object({ text: z.string(), hit: z.boolean() });
export type SnippetPart = z.infer<typeof SnippetPart>;

export const SearchHit = z.object({
  sessionId: z.string(),
  sessionTitle: z.string(),
  itemId: z.string(),
  seq: z.number().int(),
  kind: z.enum(["message", "tool_call"]),
  /** `user` | `assistant` for a message, the tool's name for a tool call. */
  role: z.string(),
  /** Words around the match, the matching words marked; `…` where text was cut. */
  snippet: z.array(SnippetPart),
  /** When the item was written (ISO). */
  at: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

/** "Restore to here" that also forks (CTX-5, CODE-5): rewind the files, then fork before the message. */
export const RestoreAndForkInput = z.strictObject({
  sessionId: SessionId,
  messageId: z.string().min(1).max(64),
  /** Keep a restore that left some files as they were (conflicts) and fork anyway; without it such a restore is rolled back. */
  acceptConflicts: z.boolean().default(false),
});
export type RestoreAndForkInput = z.input<typeof RestoreAndForkInput>;

/**
 * What "Restore to here" did. `forked`: the files were rewound and `session` is the fork holding the
 * history before the message, `text` the message to put in its composer. `conflicts`: some files could
 * not be restored, so the restore was rolled back and no fork was made — nothing changed.
 */
export const RestoreAndForkResult = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("forked"), session: SessionInfo, text: z.string(), result: RewindResult }),
  z.object({ outcome: z.literal("conflicts"), conflicts: z.array(CheckpointConflict) }),
]);
export type RestoreAndForkResult = z.infer<typeof RestoreAndForkResult>;
