import type { HostError } from "../core/errors.js";
import { Prisma, type PrismaClient } from "../generated/prisma/client.js";
import type { Database } from "./db.js";

/** A store's own error for each Prisma failure it expects: P2002 (unique constraint), P2025 (record not found). */
export type ExpectedFailures = Record<"P2002" | "P2025", (cause: Prisma.PrismaClientKnownRequestError) => HostError>;

/** Runs `fn` through the store gate (`db.exclusive`) with the expected failures mapped; the gate maps anything else. */
export function runExpecting<T>(db: Pick<Database, "exclusive">, expected: ExpectedFailures, fn: (prisma: PrismaClient) => Promise<T>): Promise<T> {
  return db.exclusive(async (prisma) => {
    try {
      return await fn(prisma);
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && (error.code === "P2002" || error.code === "P2025")) throw expected[error.code](error);
      throw error;
    }
  });
}
