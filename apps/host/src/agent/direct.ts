import { HostError } from "../core/errors.js";

/** A user message of the form `/call <tool> {json}` (direct mode, CORE-14). */
export interface DirectCall { name: string; args: Record<string, unknown> }

const CALL = /^\/call\s+([A-Za-z0-9_-]+)\s*([\s\S]*)$/;

/** Returns the parsed call, null when the text is not a `/call`, or throws a HostError explaining the syntax. */
export function parseDirectCall(text: string): DirectCall | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("/call")) return null;
  const m = CALL.exec(trimmed);
  if (!m) throw new HostError("bad_input:session", "Usage: /call <tool> {json arguments}, e.g. /call list_dir {}");
  const name = m[1]!;
  const raw = m[2]!.trim() || "{}";
  let args: unknown;
  try {
    args = JSON.parse(raw);
  } catch (e) {
    throw new HostError("bad_input:session", `The arguments after /call ${name} are not valid JSON (${(e as Error).message}). Write them as an object, e.g. {"path": "README.md"}.`);
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new HostError("bad_input:session", `The arguments after /call ${name} must be a JSON object, e.g. {}.`);
  }
  return { name, args: args as Record<string, unknown> };
}
