export type LogLevel = "info" | "warn" | "error";

export interface Log {
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

const SECRET_KEY = /key|token|secret|password|authorization|cookie/i;
/** `user:password@` in a URL. */
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]*@/gi;

/**
 * A deep copy of `value` with the values of secret-looking keys replaced by "[redacted]", and the
 * credentials in URLs within strings too (SEC-2).
 */
export function redact(value: unknown): unknown {
  return redactIn(value, new WeakSet());
}

function redactIn(value: unknown, ancestors: WeakSet<object>): unknown {
  if (value instanceof Error) return { name: value.name, message: redactIn(value.message, ancestors) };
  if (typeof value === "string") return value.replace(URL_CREDENTIALS, "$1[redacted]@");
  if (typeof value !== "object" || value === null) return value;
  if (ancestors.has(value)) return "[circular]";
  ancestors.add(value);
  const out: unknown = Array.isArray(value)
    ? value.map((item) => redactIn(item, ancestors))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? "[redacted]" : redactIn(item, ancestors)]));
  ancestors.delete(value);
  return out;
}

/** One JSON-ish line per call on stderr: `time LEVEL [label] message {data}`. */
export function createLog(label: string, write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Log {
  const line = (level: LogLevel, message: string, data?: Record<string, unknown>) => {
    const suffix = data === undefined ? "" : ` ${safeJson(redact(data))}`;
    write(`${new Date().toISOString()} ${level.toUpperCase()} [${label}] ${message}${suffix}`);
  };
  return {
    info: (message, data) => line("info", message, data),
    warn: (message, data) => line("warn", message, data),
    error: (message, data) => line("error", message, data),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  } catch {
    return '"[unserializable]"';
  }
}
