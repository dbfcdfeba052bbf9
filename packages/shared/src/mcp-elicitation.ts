/**
 * MCP elicitation forms (MCP-12), pure: the requested schema read as a list of fields, defaults applied and
 * answers validated. The web form and the host's answer check use the same functions, so what the form accepts
 * the host accepts.
 */

export type ElicitValue = string | number | boolean | string[];
export type ElicitContent = Record<string, ElicitValue>;

export interface ElicitOption { value: string; label: string }

interface FieldBase { name: string; title: string; description: string | null; required: boolean }
export type ElicitField =
  | (FieldBase & { kind: "string"; default?: string; minLength?: number; maxLength?: number; format?: string })
  | (FieldBase & { kind: "number" | "integer"; default?: number; minimum?: number; maximum?: number })
  | (FieldBase & { kind: "boolean"; default?: boolean })
  | (FieldBase & { kind: "select"; options: ElicitOption[]; default?: string })
  | (FieldBase & { kind: "multiselect"; options: ElicitOption[]; default?: string[]; minItems?: number; maxItems?: number });

/** One field as the form holds it: text for text and number inputs, a flag, a choice or choices; absent = left empty. */
export type ElicitFormValue = string | boolean | string[] | number | undefined;
export type ElicitForm = Record<string, ElicitFormValue>;

export type ElicitCheck = { ok: true; content: ElicitContent } | { ok: false; errors: Record<string, string> };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

function titled(list: unknown): ElicitOption[] | null {
  if (!Array.isArray(list)) return null;
  const out: ElicitOption[] = [];
  for (const o of list) {
    if (!isObject(o) || typeof o.const !== "string") return null;
    out.push({ value: o.const, label: typeof o.title === "string" ? o.title : o.const });
  }
  return out;
}

function plainOptions(values: unknown, names?: unknown): ElicitOption[] | null {
  if (!Array.isArray(values) || !values.every((v) => typeof v === "string")) return null;
  const labels = Array.isArray(names) ? names : [];
  return (values as string[]).map((v, i) => ({ value: v, label: typeof labels[i] === "string" ? (labels[i] as string) : v }));
}

/** One property of the requested schema as a field; null when it is not one of the primitive kinds elicitation allows. */
function fieldOf(name: string, p: unknown, required: boolean): ElicitField | null {
  if (!isObject(p)) return null;
  const base: FieldBase = { name, title: str(p.title) ?? name, description: str(p.description) ?? null, required };
  if (p.type === "array") {
    const items = isObject(p.items) ? p.items : {};
    const options = titled(items.anyOf) ?? titled(items.oneOf) ?? plainOptions(items.enum);
    if (!options) return null;
    const def = Array.isArray(p.default) && p.default.every((v) => typeof v === "string") ? (p.default as string[]) : undefined;
    return { ...base, kind: "multiselect", options, default: def, minItems: num(p.minItems), maxItems: num(p.maxItems) };
  }
  if (p.type === "string") {
    const options = titled(p.oneOf) ?? titled(p.anyOf) ?? plainOptions(p.enum, p.enumNames);
    if (options) return { ...base, kind: "select", options, default: str(p.default) };
    return { ...base, kind: "string", default: str(p.default), minLength: num(p.minLength), maxLength: num(p.maxLength), format: str(p.format) };
  }
  if (p.type === "number" || p.type === "integer") return { ...base, kind: p.type, default: num(p.default), minimum: num(p.minimum), maximum: num(p.maximum) };
  if (p.type === "boolean") return { ...base, kind: "boolean", default: typeof p.default === "boolean" ? p.default : undefined };
  return null;
}

/** The fields of a requested schema, in the server's order; properties of unsupported kinds are listed in `unsupported`. */
export function elicitFields(schema: unknown): { fields: ElicitField[]; unsupported: string[] } {
  const props = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const required = new Set(isObject(schema) && Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  const fields: ElicitField[] = [];
  const unsupported: string[] = [];
  for (const [name, p] of Object.entries(props)) {
    const f = fieldOf(name, p, required.has(name));
    if (f) fields.push(f);
    else unsupported.push(name);
  }
  return { fields, unsupported };
}

/** The form's starting values: every default the schema gives. */
export function elicitInitialForm(fields: ElicitField[]): ElicitForm {
  const form: ElicitForm = {};
  for (const f of fields) {
    if (f.default === undefined) continue;
    form[f.name] = f.kind === "number" || f.kind === "integer" ? String(f.default) : f.default;
  }
  return form;
}

const isEmpty = (v: ElicitFormValue) => v === undefined || (typeof v === "string" && v.trim() === "");

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function formatProblem(format: string | undefined, v: string): string | null {
  if (format === "email" && !EMAIL.test(v)) return "Enter an email address, like name@example.com";
  if (format === "uri" && !URI.test(v)) return "Enter a full URL, like https://example.com";
  if (format === "date" && (!DATE.test(v) || Number.isNaN(Date.parse(v)))) return "Enter a date as YYYY-MM-DD";
  if (format === "date-time" && Number.isNaN(Date.parse(v))) return "Enter a date and time, like 2026-01-31T09:30:00Z";
  return null;
}

/** One field's value → its typed answer, or the problem in words. `undefined` value means left empty (after defaults). */
function checkField(f: ElicitField, v: ElicitFormValue): { value?: ElicitValue; error?: string } {
  switch (f.kind) {
    case "string": {
      if (typeof v !== "string") return { error: "Must be text" };
      if (f.minLength !== undefined && v.length < f.minLength) return { error: `At least ${f.minLength} characters` };
      if (f.maxLength !== undefined && v.length > f.maxLength) return { error: `At most ${f.maxLength} characters` };
      const problem = formatProblem(f.format, v);
      return problem ? { error: problem } : { value: v };
    }
    case "number":
    case "integer": {
      const n = typeof v === "number" ? v : typeof v === "string" ? Number(v.trim()) : Number.NaN;
      if (!Number.isFinite(n)) return { error: "Must be a number" };
      if (f.kind === "integer" && !Number.isInteger(n)) return { error: "Must be a whole number" };
      if (f.minimum !== undefined && n < f.minimum) return { error: `Must be at least ${f.minimum}` };
      if (f.maximum !== undefined && n > f.maximum) return { error: `Must be at most ${f.maximum}` };
      return { value: n };
    }
    case "boolean":
      return typeof v === "boolean" ? { value: v } : { error: "Must be yes or no" };
    case "select":
      return typeof v === "string" && f.options.some((o) => o.value === v) ? { value: v } : { error: "Choose one of the options" };
    case "multiselect": {
      if (!Array.isArray(v) || !v.every((x) => typeof x === "string" && f.options.some((o) => o.value === x))) return { error: "Choose from the options" };
      if (f.minItems !== undefined && v.length < f.minItems) return { error: `Choose at least ${f.minItems}` };
      if (f.maxItems !== undefined && v.length > f.maxItems) return { error: `Choose at most ${f.maxItems}` };
      return { value: [...new Set(v)] };
    }
  }
}

/**
 * The answer to send for an accepted form: fields left empty take the schema's default (string, number, integer,
 * boolean, enum, multi-select), then every field is checked. Required fields without a value and values that do not
 * fit are errors by field name; nothing outside the schema is sent.
 */
export function prepareElicitAnswer(fields: ElicitField[], form: ElicitForm): ElicitCheck {
  const content: ElicitContent = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    let v = form[f.name];
    if (isEmpty(v) || (f.kind === "multiselect" && Array.isArray(v) && v.length === 0 && f.default !== undefined)) {
      v = f.default;
    }
    if (isEmpty(v) || (f.kind === "multiselect" && Array.isArray(v) && v.length === 0 && f.required)) {
      if (f.required) errors[f.name] = "Required";
      continue;
    }
    const r = checkField(f, v);
    if (r.error !== undefined) errors[f.name] = r.error;
    else if (r.value !== undefined) content[f.name] = r.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}

/** Defaults applied to content a server would receive (the SEP-1034 behaviour: absent fields take their defaults). */
export function applyElicitDefaults(schema: unknown, content: Record<string, unknown>): Record<string, unknown> {
  const out = { ...content };
  for (const f of elicitFields(schema).fields) if (out[f.name] === undefined && f.default !== undefined) out[f.name] = f.default;
  return out;
}
