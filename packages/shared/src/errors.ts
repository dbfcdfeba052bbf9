import { z } from "zod";

/** The kind half of a host error code; decides the tRPC status. */
export const ErrorKind = z.enum(["bad_input", "not_found", "denied", "conflict", "timeout", "unavailable", "closed", "internal"]);
export type ErrorKind = z.infer<typeof ErrorKind>;

/** A failure as the wire and the UI see it. `code` is an open string owned by the layer that raised it. */
export const ErrorInfo = z.object({ code: z.string(), message: z.string() });
export type ErrorInfo = z.infer<typeof ErrorInfo>;

/**
 * The one table of generic user-facing text (STYLE §4): what a failure says when nothing more specific
 * may or can be said. Keys are whole codes (`timeout:db`) or kinds (`internal`); a code falls back to
 * its kind.
 */
const MESSAGES: Readonly<Record<ErrorKind, string>> & Readonly<Record<string, string>> = {
  bad_input: "The request is not valid.",
  not_found: "It was not found.",
  denied: "This is not allowed.",
  conflict: "This conflicts with a change made meanwhile; reload and try again.",
  timeout: "It did not finish in time.",
  unavailable: "It is not available right now.",
  closed: "It was stopped before it finished.",
  internal: "Something went wrong in the host.",
  "internal:db": "Something went wrong in the host's database.",
  "unavailable:db": "The host's database cannot be used.",
  "timeout:db": "The database is busy.",
  "closed:db": "The database is closed.",
  "closed:host": "The host is shutting down.",
};

/** Generic text for an error code (`timeout:db`), a kind (`internal`), or any open code (unknown → kind → internal). */
export function messageFor(code: string): string {
  const kind = code.split(":")[0] ?? "";
  return MESSAGES[code] ?? MESSAGES[kind] ?? MESSAGES.internal;
}
