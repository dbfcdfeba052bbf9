import type { ErrorKind } from "@seam/shared";
import { redact } from "./log.js";

export const CAPABILITIES = ["web", "lsp", "mcp", "skills", "extensions", "session", "llm", "db", "agent", "workspace", "host", "permissions"] as const;
export type Capability = (typeof CAPABILITIES)[number];
export const isCapability = (s: string): s is Capability => (CAPABILITIES as readonly string[]).includes(s);
export type ErrorCode = `${ErrorKind}:${Capability}`;

/**
 * The host's one error class. `code` says what kind of failure and which capability raised it;
 * `reason` optionally carries a seam-owned open code (e.g. `provider_not_found`) shown to the model.
 * `data` carries seam-owned fields only (names, ids, paths, statuses, `issues`), never a foreign
 * error or a secret: it goes on the wire through `toObject()`.
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

  get capability(): Capability {
    return this.code.slice(this.code.indexOf(":") + 1) as Capability;
  }

  /** The open code a consumer sees: the seam-owned reason if any, else the host code. */
  get publicCode(): string {
    return this.data?.reason ?? this.code;
  }

  /** `{code, message, data}` for the wire; `data` is redacted like a log line and holds JSON values only. */
  toObject(): { code: string; message: string; data: Record<string, unknown> } {
    return { code: this.publicCode, message: this.message, data: wireData(this.data) };
  }
}

export const isHostError = (e: unknown): e is HostError => e instanceof HostError;

/**
 * Whether a client may read this error's message (STYLE §4). Internal failures never: their text is
 * whatever broke. For the database only the kinds whose messages Seam writes itself from its own
 * words and ids ("session abc not found", "the database is busy", "… was changed concurrently",
 * "the database is closed"); `internal:db`, `unavailable:db` and `bad_input:db` carry driver or
 * engine text (paths, SQL, constraint names). Everything else is written for the user and may be sent.
 */
export function isPublic(error: HostError): boolean {
  if (error.kind === "internal") return false;
  if (error.capability === "db") return error.kind === "not_found" || error.kind === "conflict" || error.kind === "timeout" || error.kind === "closed";
  return true;
}

/** Best-effort text for any thrown value. */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  try { return JSON.stringify(e); } catch { return String(e); }
}

/** Everything worth logging about a failure: name, message, code and stack of it and of each cause. */
export function errorDetails(e: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let cur: unknown = e; cur !== undefined && cur !== null && out.length < 5; cur = cur instanceof Error ? cur.cause : undefined) {
    if (!(cur instanceof Error)) {
      out.push({ value: messageOf(cur) });
      break;
    }
    const code = (cur as { code?: unknown }).code;
    out.push({ name: cur.name, message: cur.message, ...(code !== undefined && { code: String(code) }), stack: cur.stack });
  }
  return out;
}

/** JSON values only (a foreign error or a cycle in `data` is a mistake; it is dropped, not sent). */
function wireData(data: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!data) return {};
  try {
    const json = JSON.stringify(data, (_key, value: unknown) => (value instanceof Error || typeof value === "bigint" ? undefined : value));
    return redact(JSON.parse(json) as unknown) as Record<string, unknown>;
  } catch {
    return data.reason === undefined ? {} : { reason: data.reason };
  }
}
