/**
 * The bridge between a page and one browser-half frame, spoken over the MessagePort the page hands
 * to the frame (EXT-4). Everything the frame sends is untrusted and checked here.
 */

/** Frame → page. */
export type FrameMessage =
  | { t: "call"; id: number; method: string; params: unknown }
  | { t: "ready" }
  | { t: "error"; message: string }
  | { t: "size"; height: number };

/** Page → frame. */
export type PageMessage =
  | { t: "result"; id: number; ok: true; value: unknown }
  | { t: "result"; id: number; ok: false; error: string }
  | { t: "message"; message: unknown };

export const FRAME_MIN_HEIGHT = 40;
export const FRAME_MAX_HEIGHT = 800;

/** A frame message, or null for anything malformed (which the page drops silently). */
export function parseFrameMessage(data: unknown): FrameMessage | null {
  if (!data || typeof data !== "object") return null;
  const m = data as Record<string, unknown>;
  switch (m.t) {
    case "call":
      if (typeof m.id !== "number" || !Number.isSafeInteger(m.id)) return null;
      if (typeof m.method !== "string" || m.method.length === 0 || m.method.length > 100) return null;
      return { t: "call", id: m.id, method: m.method, params: m.params ?? null };
    case "ready":
      return { t: "ready" };
    case "error":
      return { t: "error", message: typeof m.message === "string" && m.message ? m.message.slice(0, 4000) : "The browser half failed without a message." };
    case "size":
      return typeof m.height === "number" && Number.isFinite(m.height) ? { t: "size", height: m.height } : null;
    default:
      return null;
  }
}

export function clampHeight(height: number): number {
  return Math.min(FRAME_MAX_HEIGHT, Math.max(FRAME_MIN_HEIGHT, Math.ceil(height)));
}

/**
 * Params as the host will receive them: plain JSON. Structured clone lets a frame send Maps, Dates or
 * cycles; those are turned into JSON here or refused with a message the extension can show.
 */
export function toJsonParams(params: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    const text = JSON.stringify(params ?? null);
    return { ok: true, value: text === undefined ? null : JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: `params must be JSON data: ${err instanceof Error ? err.message : String(err)}` };
  }
}
