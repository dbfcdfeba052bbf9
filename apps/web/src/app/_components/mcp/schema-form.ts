/**
 * The "Try a tool" form's fields from a tool's JSON input schema (MCP-9): strings, numbers, integers, booleans
 * and enums get their own controls; arrays, objects and anything else are JSON fields. Values are kept as the
 * strings the user typed, and `argsFrom` turns them into arguments or per-field messages in words.
 */
export type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "json";

export interface SchemaField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string | null;
  /** For `enum`: the allowed values, as JSON text (so numbers and strings both round-trip). */
  options: string[];
  /** The schema's default as the field's starting text, or "". */
  initial: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function kindOf(schema: Obj): FieldKind {
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean")) return "enum";
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== "null") : [schema.type];
  if (type.length !== 1) return "json";
  switch (type[0]) {
    case "string": return "string";
    case "number": return "number";
    case "integer": return "integer";
    case "boolean": return "boolean";
    default: return "json";
  }
}

function initialOf(kind: FieldKind, schema: Obj): string {
  if (schema.default === undefined) return kind === "boolean" ? "false" : "";
  if (kind === "string") return typeof schema.default === "string" ? schema.default : "";
  if (kind === "json") return JSON.stringify(schema.default, null, 2);
  return kind === "enum" ? JSON.stringify(schema.default) : String(schema.default);
}

/** One field per top-level property; a schema without properties is one JSON field for the whole arguments. */
export function fieldsOf(inputSchema: unknown): SchemaField[] {
  const schema = isObj(inputSchema) ? inputSchema : {};
  const props = isObj(schema.properties) ? schema.properties : null;
  if (!props || Object.keys(props).length === 0) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  return Object.entries(props).map(([name, raw]) => {
    const s = isObj(raw) ? raw : {};
    const kind = kindOf(s);
    return {
      name,
      kind,
      required: required.has(name),
      description: typeof s.description === "string" ? s.description : null,
      options: kind === "enum" ? (s.enum as unknown[]).map((v) => JSON.stringify(v)) : [],
      initial: initialOf(kind, s),
    };
  });
}

export const initialValues = (fields: SchemaField[]): Record<string, string> => Object.fromEntries(fields.map((f) => [f.name, f.initial]));

export type ArgsResult = { ok: true; args: Record<string, unknown> } | { ok: false; errors: Record<string, string> };

/** Arguments from the typed values: empty optional fields are left out; each problem is a message for its field. */
export function argsFrom(fields: SchemaField[], values: Record<string, string>): ArgsResult {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const text = values[f.name] ?? "";
    if (f.kind === "boolean") {
      args[f.name] = text === "true";
      continue;
    }
    if (text.trim() === "" && f.kind !== "string") {
      if (f.required) errors[f.name] = "Required";
      continue;
    }
    if (f.kind === "string") {
      if (text === "" && !f.required) continue;
      if (text === "" && f.required) {
        errors[f.name] = "Required";
        continue;
      }
      args[f.name] = text;
      continue;
    }
    if (f.kind === "number" || f.kind === "integer") {
      const n = Number(text.trim());
      if (!Number.isFinite(n)) errors[f.name] = "Enter a number";
      else if (f.kind === "integer" && !Number.isInteger(n)) errors[f.name] = "Enter a whole number";
      else args[f.name] = n;
      continue;
    }
    try {
      args[f.name] = JSON.parse(text);
    } catch {
      errors[f.name] = f.kind === "enum" ? "Choose one of the values" : "Enter valid JSON, e.g. [\"a\"] or {\"k\": 1}";
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, args };
}
