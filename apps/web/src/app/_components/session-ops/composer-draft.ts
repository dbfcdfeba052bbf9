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

/** The draft left for this session, removed as it is read; "" when there is none. */
export function takeComposerDraft(sessionId: string): string {
  try {
    const text = window.sessionStorage.getItem(key(sessionId));
    if (text !== null) window.sessionStorage.removeItem(key(sessionId));
    return text ?? "";
  } catch {
    return "";
  }
}
