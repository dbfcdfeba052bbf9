import { HostError, messageOf } from "../core/errors.js";
import { Prisma } from "../generated/prisma/client.js";

/**
 * Wraps a Prisma or driver failure in a HostError (STYLE §4). `what` names the record the
 * operation was about ("session abc"), so a missing row reads as `not_found:session`.
 */
export function toHostError(error: unknown, what: string): HostError {
  if (error instanceof HostError) return error;
  // A trigger's RAISE(ABORT, …) arrives with whatever code the adapter picked; its text says what it is.
  if (/are immutable/.test(messageOf(error))) {
    return new HostError("conflict:db", `${what}: extension versions are immutable`, undefined, { cause: error });
  }
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    const data = { prismaCode: error.code };
    switch (error.code) {
      case "P2025": // required record not found (update/delete)
      case "P2001":
        return new HostError("not_found:session", `${what} not found`, data, { cause: error });
      case "P2003": // foreign key: the session or turn referenced does not exist
        return new HostError("not_found:session", `${what}: a referenced session or turn does not exist`, data, { cause: error });
      case "P2002":
        return new HostError("conflict:db", `${what}: unique constraint violated`, data, { cause: error });
      case "P1008":
      case "P2024":
        return new HostError("timeout:db", `${what}: the database is busy`, data, { cause: error });
    }
  }
  const text = messageOf(error);
  if (/SQLITE_BUSY|database is locked|timed out/i.test(text)) {
    return new HostError("timeout:db", `${what}: the database is busy`, undefined, { cause: error });
  }
  return new HostError("internal:db", `${what}: ${text}`, undefined, { cause: error });
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
