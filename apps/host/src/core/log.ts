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

/** The host's log formats (SCALE-4): `text` (the default) or `json` (`SEAM_LOG_FORMAT`). */
export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * `SEAM_LOG_FORMAT` read as a format: unset or empty is `text`; anything but the allowed values throws an
 * error naming them (main.ts turns it into a start-up failure). A plain Error: core/errors.ts imports this
 * file (redact), so HostError cannot be imported here without a cycle.
 */
export function parseLogFormat(value: string | undefined): LogFormat {
  const v = value?.trim().toLowerCase();
  if (!v) return "text";
  if ((LOG_FORMATS as readonly string[]).includes(v)) return v as LogFormat;
  throw new Error(`SEAM_LOG_FORMAT must be one of ${LOG_FORMATS.map((f) => `"${f}"`).join(", ")} (unset means "text"), not "${value}"`);
}

let processFormat: LogFormat | undefined;
/**
 * The process's log format: `SEAM_LOG_FORMAT`, read once on first use. An invalid value throws here;
 * a log line written before main.ts checked it falls back to `text` (see `createLog`).
 */
export function logFormat(): LogFormat {
  return (processFormat ??= parseLogFormat(process.env.SEAM_LOG_FORMAT));
}
/** Overrides the process's format (tests); `undefined` reads `SEAM_LOG_FORMAT` again on next use. */
export function setLogFormat(format: LogFormat | undefined): void {
  processFormat = format;
}

/** A `Log` that can hand out children carrying fields (e.g. `{ session }`) on every line. */
export interface ContextLog extends Log {
  /** The same log with `fields` added to every line's data (a call's own data wins on a clash). */
  child(fields: Record<string, unknown>): ContextLog;
}

export interface LogOptions {
  /** Fixed format (tests); default: the process's `logFormat()`, decided when each line is written. */
  format?: LogFormat;
  /** Fields on every line, as `child(fields)` gives. */
  fields?: Record<string, unknown>;
}

/** The keys a JSON line owns; data under these names moves into a `data` object instead of overwriting them. */
const JSON_KEYS = new Set(["time", "level", "capability", "message", "data"]);

/**
 * One line per call. `text`: `time LEVEL [label] message {data}` on stderr. `json`: one object on stdout,
 * `{"time","level","capability":label,"message",...data}` (`session` among the data when the caller knows it).
 * Data is redacted (`redact`) in both. `write` replaces the destination (tests, quiet logs).
 */
export function createLog(label: string, write?: (line: string) => void, opts: LogOptions = {}): ContextLog {
  const line = (level: LogLevel, message: string, data?: Record<string, unknown>) => {
    const format = opts.format ?? currentFormat();
    const all = opts.fields ? { ...opts.fields, ...data } : data;
    if (format === "json") {
      const out = write ?? ((l: string) => process.stdout.write(`${l}\n`));
      out(jsonLine(level, label, message, all));
      return;
    }
    const suffix = all === undefined ? "" : ` ${safeJson(redact(all))}`;
    const out = write ?? ((l: string) => process.stderr.write(`${l}\n`));
    out(`${new Date().toISOString()} ${level.toUpperCase()} [${label}] ${message}${suffix}`);
  };
  return {
    info: (message, data) => line("info", message, data),
    warn: (message, data) => line("warn", message, data),
    error: (message, data) => line("error", message, data),
    child: (fields) => createLog(label, write, { ...opts, fields: { ...opts.fields, ...fields } }),
  };
}

/** Adds `fields` to every line of any `Log` (one that is not a `ContextLog`, e.g. a test's). */
export function withFields(log: Log, fields: Record<string, unknown>): Log {
  const merge = (data?: Record<string, unknown>) => ({ ...fields, ...data });
  return {
    info: (message, data) => log.info(message, merge(data)),
    warn: (message, data) => log.warn(message, merge(data)),
    error: (message, data) => log.error(message, merge(data)),
  };
}

/** The process's format, or `text` while an invalid SEAM_LOG_FORMAT has not yet stopped the start. */
function currentFormat(): LogFormat {
  try {
    return logFormat();
  } catch {
    return "text";
  }
}

function jsonLine(level: LogLevel, capability: string, message: string, data?: Record<string, unknown>): string {
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, capability, message };
  if (data !== undefined) {
    const clean = redact(data);
    const moved: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(clean as Record<string, unknown>)) {
      if (JSON_KEYS.has(key)) moved[key] = value;
      else if (value !== undefined) entry[key] = value;
    }
    if (Object.keys(moved).length) entry.data = moved;
  }
  const text = safeJson(entry);
  return text.startsWith("{") ? text : safeJson({ time: entry.time, level, capability, message: entry.message, data: "[unserializable]" });
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  } catch {
    return '"[unserializable]"';
  }
}
