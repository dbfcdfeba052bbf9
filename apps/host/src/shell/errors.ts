import type { ErrorKind } from "@seam/shared";
import { HostError, type Capability } from "../core/errors.js";

/** The capability half of the shell's error codes. */
export const CAPABILITY = "shell" satisfies Capability;

/** A shell failure: `kind` decides the tRPC status, `reason` is the code the model and the UI see. */
export function shellError(kind: ErrorKind, reason: string, message: string, data: Record<string, unknown> = {}): HostError {
  return new HostError(`${kind}:${CAPABILITY}`, message, { ...data, reason });
}
