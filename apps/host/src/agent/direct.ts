import { jsonProblem, SESSION_TEXT_MAX } from "@seam/shared";
import { HostError } from "../core/errors.js";

/** A user message of the form `/call <tool> {json}` (direct mode, CORE-14). */
export interface DirectCall { name: string; args: Record<string, unknown> }

const CALL = /^\/call\s+([A-Za-z0-9_-]+)\s*([\s\S]*)$/;

/**
 * Throws a `bad_input:session` HostError when a direct call's arguments are deeper than JSON_DEPTH_MAX or
 * longer than the send limit as JSON (the bounds of `SessionCallToolInput`): a deeper value would overflow
 * the stack where it is written out, a longer one would be stored twice (the `/call` text and the arguments).
 */
export function checkCallArgs(name: string, args: unknown): void {
  const problem = jsonProblem(args, { maxChars: SESSION_TEXT_MAX });
  if (problem) throw new HostError("bad_input:session", `The arguments after /call ${name} ${problem.phrase.replace(/^is /, "are ").replace(/^holds /, "hold ")}.`);
}

/**
 * Returns the parsed call, null when the text is not a `/call`, or throws a HostError explaining the syntax
 * or the bounds (the arguments' depth and size, as for `session.callTool`).
 */
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
  checkCallArgs(name, args);
  return { name, args: args as Record<string, unknown> };
}
