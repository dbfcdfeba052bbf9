/**
 * Who gets a browser half's bridge (EXT-4). A sandboxed `srcdoc` frame has the opaque origin "null", so
 * `postMessage`'s targetOrigin cannot pin the approved document: whatever document the frame holds when the
 * page posts receives the port. The page therefore hands the port over exactly once per frame element, on
 * its first `load` (the srcdoc document, before any extension code has run: the bootstrap evaluates the
 * code only after the handshake), and listens on it only after the document proves it is that srcdoc by
 * echoing the per-frame nonce embedded in it. Every later `load` of the same element means the frame's
 * document was replaced (a navigation of any kind, or a reload): that is a render failure, and the page
 * tears the frame down.
 */

/** The message the page reports when a frame's document was replaced. */
export const NAVIGATED_AWAY =
  "The browser half navigated away from its document (a link, location change, refresh, window.open or reload loaded another page in its frame). A browser half must stay on the page Seam gives it; the frame was removed.";

/** The message the page reports when the document holding the port is not the approved one. */
export const NOT_IDENTIFIED = "The browser half's frame did not identify itself as the document Seam created; the frame was removed.";

/** Nonces are 32 hex digits (128 bits). */
const NONCE = /^[0-9a-f]{32}$/;

/** A fresh per-frame nonce, embedded in the srcdoc and never shown to the extension's code. */
export function newFrameNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function isFrameNonce(value: unknown): value is string {
  return typeof value === "string" && NONCE.test(value);
}

/** Whether `data` (the first message on the port) is the srcdoc bootstrap's hello carrying `nonce`. */
export function isFrameHello(data: unknown, nonce: string): boolean {
  if (!data || typeof data !== "object") return false;
  const m = data as Record<string, unknown>;
  return m.t === "hello" && isFrameNonce(m.nonce) && m.nonce === nonce;
}

/** What the page does with one `load` event of a frame element. */
export type FrameLoad = "handshake" | "navigated" | "ignore";

/**
 * Load bookkeeping per frame element: the first load gets the one handshake, the next one is a navigation
 * (and tears the frame down), anything after that is ignored.
 */
export class FrameLoads {
  private readonly loaded = new WeakSet<object>();
  private readonly failed = new WeakSet<object>();

  load(frame: object): FrameLoad {
    if (this.failed.has(frame)) return "ignore";
    if (!this.loaded.has(frame)) {
      this.loaded.add(frame);
      return "handshake";
    }
    this.failed.add(frame);
    return "navigated";
  }

  /** Marks a frame as failed for another reason (e.g. a wrong hello): its later loads are ignored. */
  fail(frame: object): void {
    this.loaded.add(frame);
    this.failed.add(frame);
  }
}
