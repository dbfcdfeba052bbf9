import { messageFor } from "@seam/shared";
import { HostError, messageOf, type Capability } from "../core/errors.js";
import { Prisma } from "../generated/prisma/client.js";

/** What a database operation was about, so its failures can say so. */
export interface DbSubject {
  /** The capability owning the record: a missing row is `not_found:<capability>`, a duplicate `conflict:<capability>`. */
  capability: Capability;
  /** The record, for messages: "session abc", `MCP server "x"`. */
  what: string;
  /** Whose records this one refers to (a failed foreign key, P2003); default `capability`. */
  references?: Capability;
  /** Replaces `${what} not found`. */
  notFound?: string;
  /** Replaces `${what}: unique constraint violated`. */
  conflict?: string;
  /** Seam-owned fields added to the HostError's data (ids, names). */
  data?: Record<string, unknown>;
}

/**
 * Wraps a Prisma or driver failure in a HostError (STYLE §4), coded by the capability the operation
 * was about. Only `internal:db` keeps the driver's text, and tRPC never sends that (core/errors `isPublic`).
 */
export function toHostError(error: unknown, about: DbSubject): HostError {
  if (error instanceof HostError) return error;
  const { capability, what } = about;
  const text = messageOf(error);
  const wrap = (code: HostError["code"], message: string, prismaCode?: string) =>
    new HostError(code, message, { ...about.data, ...(prismaCode && { prismaCode }) }, { cause: error });
  // A trigger's RAISE(ABORT, …) arrives with whatever code the adapter picked; its text says what it is.
  if (/are immutable/.test(text)) return wrap("conflict:db", `${what}: extension versions are immutable`);
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    switch (error.code) {
      case "P2025": // required record not found (update/delete)
      case "P2001":
        return wrap(`not_found:${capability}`, about.notFound ?? `${what} not found`, error.code);
      case "P2003": // foreign key: the record referred to does not exist
        return wrap(`not_found:${about.references ?? capability}`, `${what}: a record it refers to does not exist`, error.code);
      case "P2002":
        return wrap(`conflict:${capability}`, about.conflict ?? `${what}: unique constraint violated`, error.code);
      case "P1008":
      case "P2024":
        return wrap("timeout:db", `${what}: ${messageFor("timeout:db")}`, error.code);
    }
  }
  if (/SQLITE_BUSY|database is locked|timed out/i.test(text)) return wrap("timeout:db", `${what}: ${messageFor("timeout:db")}`);
  return wrap("internal:db", `${what}: ${text}`);
}

/** JSON for a TEXT column; values JSON cannot represent (cycles, BigInt) are the caller's mistake. */
export function toJson(value: unknown, what: string): string {
  try {
    return JSON.stringify(value) ?? "null";
  } catch (error) {
    throw new HostError("bad_input:db", `${what} is not JSON-serialisable: ${messageOf(error)}`, undefined, { cause: error });
  }
}

export function fromJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HostError("internal:db", `corrupt JSON column: ${messageOf(error)}`, undefined, { cause: error });
  }
}
