import { LspExtension, LspServerConfig, type LspServerView } from "@seam/shared";
import { hostCodeOf, hostIssuesOf } from "@/lib/host-error";

/**
 * Settings → Language servers form state (LSP-7): the editable draft of one server, its validation
 * with the shared LspServerConfig schema, and the mapping of host refusals onto the form's fields.
 */

export interface LspDraft {
  id: string;
  label: string;
  command: string;
  /** One argument per line. */
  args: string;
  /** Normalized chips (lowercase, leading dot). */
  extensions: string[];
  /** What is typed in the chip input and not yet a chip; parsed on save too. */
  extensionInput: string;
  /** JSON object text; empty = none. */
  initOptions: string;
  /** JSON object text of the server's settings (answers workspace/configuration); empty = none. */
  settings: string;
  /** Minutes in the form; milliseconds in the config. Empty = the default (10 min). */
  idleMinutes: string;
  enabled: boolean;
}

export type LspField = "id" | "label" | "command" | "args" | "extensions" | "initOptions" | "settings" | "idleMinutes" | "enabled" | "form";
export type LspDraftErrors = Partial<Record<LspField, string>>;

export const DEFAULT_IDLE_MS = 600_000;

export const emptyDraft = (): LspDraft => ({
  id: "",
  label: "",
  command: "",
  args: "",
  extensions: [],
  extensionInput: "",
  initOptions: "",
  settings: "",
  idleMinutes: "",
  enabled: true,
});

const jsonText = (value: Record<string, unknown> | undefined) => (value && Object.keys(value).length > 0 ? JSON.stringify(value, null, 2) : "");

const minutes = (ms: number) => String(Math.round((ms / 60_000) * 100) / 100);

export function draftFrom(config: LspServerConfig, overrides: Partial<LspDraft> = {}): LspDraft {
  return {
    id: config.id,
    label: config.label ?? "",
    command: config.command,
    args: config.args.join("\n"),
    extensions: [...config.extensions],
    extensionInput: "",
    initOptions: jsonText(config.initializationOptions),
    settings: jsonText(config.settings),
    idleMinutes: config.idleTimeoutMs === DEFAULT_IDLE_MS ? "" : minutes(config.idleTimeoutMs),
    enabled: config.enabled,
    ...overrides,
  };
}

/** `TS`, `.Tsx`, ` py ` → `.ts`, `.tsx`, `.py`; null with the schema's words when it is no extension. */
export function normalizeExtension(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const r = LspExtension.safeParse(raw);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, message: `“${raw.trim()}” is not a file extension — use one like .ts or py` };
}

/** Splits typed or pasted text on commas and whitespace into extension candidates. */
export const splitExtensions = (text: string) => text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean);

export type JsonObjectText = { ok: true; value: Record<string, unknown> | undefined } | { ok: false; message: string };

/** JSON object text: undefined when empty, the object, or the reason it is not one (naming what it is instead). */
function parseJsonObject(text: string, example: string): JsonObjectText {
  if (text.trim() === "") return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not valid JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    return { ok: false, message: `Must be a JSON object, like ${example} — this is ${kind}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** The initialization options' JSON text (sent in `initialize`). */
export const parseInitOptions = (text: string): JsonObjectText => parseJsonObject(text, '{"tsserver": {"path": "…"}}');

/** The settings' JSON text (answers `workspace/configuration` by section; LSP-8). */
export const parseSettings = (text: string): JsonObjectText => parseJsonObject(text, '{"python": {"analysis": {"extraPaths": ["vendor"]}}}');

const FIELD_OF: Record<string, LspField> = {
  id: "id",
  label: "label",
  command: "command",
  args: "args",
  extensions: "extensions",
  initializationOptions: "initOptions",
  settings: "settings",
  idleTimeoutMs: "idleMinutes",
  enabled: "enabled",
};

const MESSAGES: Partial<Record<LspField, string>> = {
  idleMinutes: "Enter minutes from 0.17 (10 seconds) to 1,440 (24 hours), or leave empty for 10",
  args: "Up to 100 arguments of at most 4,096 characters each",
  label: "Up to 80 characters",
};

/** Validates the draft with the shared schema; returns the config to send or errors by field. */
export function parseDraft(d: LspDraft): { ok: true; value: LspServerConfig } | { ok: false; errors: LspDraftErrors } {
  const errors: LspDraftErrors = {};

  const extensions = [...d.extensions];
  for (const raw of splitExtensions(d.extensionInput)) {
    const n = normalizeExtension(raw);
    if (!n.ok) errors.extensions ??= n.message;
    else if (!extensions.includes(n.value)) extensions.push(n.value);
  }

  const init = parseInitOptions(d.initOptions);
  if (!init.ok) errors.initOptions = init.message;
  const settings = parseSettings(d.settings);
  if (!settings.ok) errors.settings = settings.message;

  const idleText = d.idleMinutes.trim();
  const idle = idleText === "" ? undefined : Number(idleText);
  if (idle !== undefined && !Number.isFinite(idle)) errors.idleMinutes = MESSAGES.idleMinutes;

  const candidate = {
    id: d.id.trim(),
    ...(d.label.trim() ? { label: d.label.trim() } : {}),
    command: d.command.trim(),
    args: d.args.split("\n").map((a) => a.trim()).filter((a) => a !== ""),
    extensions,
    ...(init.ok && init.value ? { initializationOptions: init.value } : {}),
    ...(settings.ok && settings.value ? { settings: settings.value } : {}),
    enabled: d.enabled,
    ...(idle !== undefined && Number.isFinite(idle) ? { idleTimeoutMs: Math.round(idle * 60_000) } : {}),
  };
  const parsed = LspServerConfig.safeParse(candidate);
  if (parsed.success && Object.keys(errors).length === 0) return { ok: true, value: parsed.data };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const field = FIELD_OF[String(issue.path[0] ?? "")] ?? "form";
    const message = field === "extensions" && typeof issue.path[1] === "number" ? `${extensions[issue.path[1]] ?? "An extension"}: ${issue.message}` : (MESSAGES[field] ?? issue.message);
    errors[field] ??= message;
  }
  return { ok: false, errors };
}

/** Which configured servers (other than `selfId`) already claim one of `extensions`. */
export function extensionConflicts(extensions: readonly string[], selfId: string, servers: readonly LspServerView[]) {
  const out: { extension: string; server: LspServerView }[] = [];
  for (const ext of extensions) {
    for (const s of servers) if (s.config.id !== selfId && s.config.enabled && s.config.extensions.includes(ext)) out.push({ extension: ext, server: s });
  }
  return out;
}

/**
 * Puts a host refusal next to the field it concerns: the input validator's field errors, a
 * `path: message` prefix (bad_input:lsp names field paths), an extension conflict or a command that
 * does not resolve. Whatever cannot be placed stays on the form.
 */
export function hostErrorFields(error: unknown): LspDraftErrors {
  const e = error as { message?: string } | null;
  if (!e) return {};
  const out: LspDraftErrors = {};
  for (const { path, message } of hostIssuesOf(error)) {
    const field = FIELD_OF[path.split(".")[0] ?? ""] ?? FIELD_OF[path.replace(/^config\./, "").split(".")[0] ?? ""];
    if (field) out[field] ??= message;
  }
  if (Object.keys(out).length > 0) return out;
  const code = hostCodeOf(error) ?? "";
  // The host joins several issues with "; ", each led by its field path (`extensions.0: …`).
  for (const part of (e.message ?? "").split(/;\s+(?=[\w.]+:\s)/)) {
    const prefixed = /^(?:config\.)?([a-zA-Z]+)(?:\.\d+)?:\s+/.exec(part);
    const head = prefixed ? FIELD_OF[prefixed[1] ?? ""] : undefined;
    let field: LspField;
    let text = part;
    if (head) {
      field = head;
      text = part.slice(prefixed![0].length) || part;
    } else if (code === "extension_conflict" || /\bextension/i.test(part)) field = "extensions";
    else if (code === "command_not_found" || /\bcommand\b|not found on PATH|executable/i.test(part)) field = "command";
    else if (code === "duplicate_id") field = "id";
    else field = "form";
    out[field] = out[field] ? `${out[field]} ${text}` : text;
  }
  return out;
}

const NAMES: Record<LspField, string> = {
  id: "id",
  label: "label",
  command: "command",
  args: "arguments",
  extensions: "extensions",
  initOptions: "initialization options",
  settings: "settings",
  idleMinutes: "idle timeout",
  enabled: "enabled",
  form: "the form",
};
export const describeField = (f: LspField) => NAMES[f];
