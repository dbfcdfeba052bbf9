/**
 * Hands text to the composer of a session that is about to open ("Restore to here" opens its fork with
 * the message ready to edit, CTX-5). Kept in sessionStorage for this tab only and read once.
 */
const key = (sessionId: string) => `seam.composer-draft.${sessionId}`;

export function putComposerDraft(sessionId: string, text: string): void {
  try {
    window.sessionStorage.setItem(key(sessionId), text);
  } catch {
    // Storage full or blocked: the fork still opens, with an empty composer.
  }
}

/** The draft left for this session; "" when there is none (and on the server). */
export function readComposerDraft(sessionId: string): string {
  if (typeof window === "undefined") return "";
  try {
    return window.sessionStorage.getItem(key(sessionId)) ?? "";
  } catch {
    return "";
  }
}

/** Forgets the draft once the composer has it. */
export function clearComposerDraft(sessionId: string): void {
  try {
    window.sessionStorage.removeItem(key(sessionId));
  } catch {
    // nothing to forget
  }
}
