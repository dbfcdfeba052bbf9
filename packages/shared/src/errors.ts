import { z } from "zod";

/** The kind half of a host error code; decides the tRPC status. */
export const ErrorKind = z.enum(["bad_input", "not_found", "denied", "conflict", "timeout", "unavailable", "closed", "internal"]);
export type ErrorKind = z.infer<typeof ErrorKind>;

/** A failure as the wire and the UI see it. `code` is an open string owned by the layer that raised it. */
export const ErrorInfo = z.object({ code: z.string(), message: z.string() });
export type ErrorInfo = z.infer<typeof ErrorInfo>;
