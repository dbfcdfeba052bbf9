import type { McpResourceAttachment } from "@seam/shared";

/**
 * Resources attached from the MCP page to a session's next message (MCP-9): kept in sessionStorage for this tab
 * until that session's composer sends or removes them.
 */
const key = (sessionId: string) => `seam.mcp-attachments.${sessionId}`;
const EVENT = "seam:mcp-attachments";

export function readPendingAttachments(sessionId: string): McpResourceAttachment[] {
  if (typeof window === "undefined") return [];
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(key(sessionId)) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((a): a is McpResourceAttachment => typeof a?.server === "string" && typeof a?.uri === "string") : [];
  } catch {
    return [];
  }
}

export function writePendingAttachments(sessionId: string, list: McpResourceAttachment[]): void {
  try {
    if (list.length === 0) window.sessionStorage.removeItem(key(sessionId));
    else window.sessionStorage.setItem(key(sessionId), JSON.stringify(list));
    window.dispatchEvent(new CustomEvent(EVENT, { detail: sessionId }));
  } catch {
    // Storage blocked: the attachment is not kept.
  }
}

/** Adds one (no duplicates); returns the new list. */
export function addPendingAttachment(sessionId: string, a: McpResourceAttachment): McpResourceAttachment[] {
  const list = readPendingAttachments(sessionId);
  const next = list.some((x) => x.server === a.server && x.uri === a.uri) ? list : [...list, a];
  writePendingAttachments(sessionId, next);
  return next;
}

/** Calls `fn` when another part of the page changes a session's pending attachments. */
export function onPendingAttachments(fn: (sessionId: string) => void): () => void {
  const listener = (e: Event) => fn(String((e as CustomEvent).detail));
  window.addEventListener(EVENT, listener);
  return () => window.removeEventListener(EVENT, listener);
}
