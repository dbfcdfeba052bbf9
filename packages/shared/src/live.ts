import { z } from "zod";

/**
 * One live stream per page carries every topic it watches (SSE holds one of the browser's six
 * HTTP/1.1 connections per host, so a stream per topic froze the UI with a few tabs open).
 * Topics: the session list, one session's events, extensions, the extension bridge, MCP, LSP.
 */
export const LiveTopic = z.union([
  z.enum(["sessions", "extensions", "bridge", "mcp", "lsp"]),
  z.string().regex(/^session:[A-Za-z0-9_-]{1,100}$/, "session:<id>"),
]);
export type LiveTopic = z.infer<typeof LiveTopic>;

export const LiveInput = z.object({ topics: z.array(LiveTopic).max(50) });

/** `started` once every topic is subscribed (refetch what may have been missed); then the topics' data. */
export type LiveEvent = { kind: "started" } | { kind: "data"; topic: string; data: unknown } | { kind: "error"; topic: string; message: string };
