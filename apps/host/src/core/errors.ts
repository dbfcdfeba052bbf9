import type { ErrorKind } from "@seam/shared";

export type Capability = "web" | "lsp" | "mcp" | "skills" | "extensions" | "session" | "llm" | "db" | "agent" | "workspace" | "host";
export type ErrorCode = `${ErrorKind}:${Capability}`;

/**
 * The host's one error class. `code` says what kind of failure and which capability raised it;
 * `reason` optionally carries a seam-owned open code (e.g. `provider_not_found`) shown to the model.
 */
export class HostError extends Error {
  override name = "HostError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data?: Record<string, unknown> & { reason?: string },
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get kind(): ErrorKind {
    return this.code.split(":")[0] as ErrorKind;
  }

  /** The open code a consumer sees: the seam-owned reason if any, else the host code. */
  get publicCode(): string {
    return this.data?.reason ?? this.code;
  }

  toObject() {
    return { code: this.publicCode, message: this.message };
  }
}

export const isHostError = (e: unknown): e is HostError => e instanceof HostError;

/** Best-effort text for any thrown value. */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  try { return JSON.stringify(e); } catch { return String(e); }
}
