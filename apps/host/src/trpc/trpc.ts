import { randomBytes } from "node:crypto";
import { initTRPC, TRPCError } from "@trpc/server";
import { formatIssues, FieldIssue, issuesOf, McpProbeFailure, messageFor } from "@seam/shared";
import { ZodError } from "zod";
import { errorDetails, HostError, isHostError, isPublic } from "../core/errors.js";
import { createLog, type Log } from "../core/log.js";
import type { HostApi } from "../host-api.js";
import { BODY_TOO_LARGE } from "./limits.js";

export interface Context {
  host: HostApi;
  /** Where concealed failures are logged (default: stderr, label "trpc"). */
  log?: Log;
}

const statusOf = {
  bad_input: "BAD_REQUEST",
  not_found: "NOT_FOUND",
  denied: "FORBIDDEN",
  conflict: "CONFLICT",
  timeout: "TIMEOUT",
  /** A peer or resource the host needs cannot be used now (an MCP server that fails to start): 503, not the host's fault. */
  unavailable: "SERVICE_UNAVAILABLE",
} as const;

const defaultLog = createLog("trpc");
/** Errors already made safe for the client; `toClient` passes them through unchanged. */
const safe = new WeakSet<TRPCError>();

/**
 * The error the client sees (STYLE §4). A public HostError keeps its message under the status of its
 * kind; input that fails its schema says what is wrong field by field; tRPC's own refusals (no such
 * procedure, a bad request body) pass. Anything else — an internal or private-db HostError (see
 * `isPublic`) or any other thrown value — is logged in full under a fresh ref, and the client gets
 * `messageFor(code)` with that ref. Idempotent.
 */
function toClient(error: TRPCError, where: { path: string | undefined; log: Log | undefined }): TRPCError {
  if (safe.has(error)) return error;
  const cause = error.cause;
  let shown: TRPCError;
  if (isHostError(cause) && isPublic(cause)) {
    shown = new TRPCError({ code: statusOf[cause.kind as keyof typeof statusOf] ?? "INTERNAL_SERVER_ERROR", message: cause.message, cause });
  } else if (cause instanceof ZodError && error.code === "BAD_REQUEST") {
    shown = new TRPCError({ code: error.code, message: formatIssues(cause), cause });
  } else if (error.code === "PAYLOAD_TOO_LARGE") {
    // tRPC's own refusal of a streamed body over `maxBodySize` says only its code.
    shown = new TRPCError({ code: error.code, message: BODY_TOO_LARGE, cause });
  } else if (!isHostError(cause) && error.code !== "INTERNAL_SERVER_ERROR") {
    shown = error;
  } else {
    const ref = randomBytes(4).toString("hex");
    const code = isHostError(cause) ? cause.code : "internal:host";
    (where.log ?? defaultLog).error(`${where.path ?? "(no procedure)"} failed (ref ${ref})`, { ref, code, errors: errorDetails(cause ?? error) });
    const message = `${messageFor(code)} The host log has the details (ref ${ref}).`;
    shown = new TRPCError({ code: "INTERNAL_SERVER_ERROR", message, cause: new HostError(code, message, { ref }) });
  }
  safe.add(shown);
  return shown;
}

/** The text a client may read of any failure, for errors sent as data (a live stream's `error` event). */
export function clientMessage(error: unknown, path: string, log?: Log): string {
  const wrapped = error instanceof TRPCError ? error : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: error });
  return toClient(wrapped, { path, log }).message;
}

const t = initTRPC.context<Context>().create({
  sse: { ping: { enabled: true, intervalMs: 5_000 }, client: { reconnectAfterInactivityMs: 12_000 } },
  errorFormatter({ shape, error, path, ctx }) {
    // Errors raised outside a procedure's middleware (a subscription's stream) are made safe here.
    const shown = toClient(error, { path, log: ctx?.log });
    const cause = shown.cause;
    const carried = isHostError(cause) ? FieldIssue.array().safeParse(cause.data?.issues) : null;
    return {
      ...shape,
      message: shown.message,
      data: {
        ...shape.data,
        stack: undefined,
        hostCode: isHostError(cause) ? cause.publicCode : null,
        /** Set when the message is generic: the id of the host log line with the details. */
        ref: isHostError(cause) && typeof cause.data?.ref === "string" ? cause.data.ref : null,
        /** Field by field, when the input (or a config inside it) failed validation. */
        issues: cause instanceof ZodError && shown.code === "BAD_REQUEST" ? issuesOf(cause) : carried?.success ? carried.data : null,
        /** A failed try of an MCP server before saving it (MCP-10): step, reason, stderr tail. */
        mcpProbe: isHostError(cause) ? (McpProbeFailure.safeParse(cause.data?.probe).data ?? null) : null,
      },
    };
  },
});

/** Turns errors thrown by services into what the client may see, with the right status (`toClient`). */
const hostErrors = t.middleware(async ({ next, path, ctx }) => {
  const result = await next();
  if (result.ok) return result;
  throw toClient(result.error, { path, log: ctx.log });
});

export const router = t.router;
export const procedure = t.procedure.use(hostErrors);
