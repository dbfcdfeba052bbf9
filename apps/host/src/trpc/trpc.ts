import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { HostError } from "../core/errors.js";
import type { HostApi } from "../host-api.js";

export interface Context { host: HostApi }

const statusOf = {
  bad_input: "BAD_REQUEST",
  not_found: "NOT_FOUND",
  denied: "FORBIDDEN",
  conflict: "CONFLICT",
  timeout: "TIMEOUT",
} as const;

const t = initTRPC.context<Context>().create({
  sse: { ping: { enabled: true, intervalMs: 5_000 }, client: { reconnectAfterInactivityMs: 12_000 } },
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    return {
      ...shape,
      data: {
        ...shape.data,
        stack: undefined,
        hostCode: cause instanceof HostError ? cause.publicCode : null,
        zodError: cause instanceof ZodError ? cause.flatten() : null,
      },
    };
  },
});

/** Turns HostErrors thrown by services into tRPC errors with the right status. */
const hostErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  const cause = result.error.cause;
  if (cause instanceof HostError) {
    const code = statusOf[cause.kind as keyof typeof statusOf] ?? "INTERNAL_SERVER_ERROR";
    throw new TRPCError({ code, message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const procedure = t.procedure.use(hostErrors);
