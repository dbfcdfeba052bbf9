/**
 * Arguments that satisfy a tool's input schema, for calling a tool nobody filled in (the conformance entry): every
 * required property gets its default, its first enum value or a plain value of its type. Optional ones are left out.
 */
export function exampleArgs(schema: unknown): Record<string, unknown> {
  const s = asObject(schema);
  const props = asObject(s.properties);
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : [];
  const out: Record<string, unknown> = {};
  for (const name of required) out[name] = exampleValue(props[name], 0);
  return out;
}

function exampleValue(schema: unknown, depth: number): unknown {
  const s = asObject(schema);
  if ("default" in s) return s.default;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "number":
    case "integer":
      return typeof s.minimum === "number" ? s.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return depth < 4 ? nested(s, depth) : {};
    case "null":
      return null;
    default:
      return "test";
  }
}

function nested(s: Record<string, unknown>, depth: number): Record<string, unknown> {
  const props = asObject(s.properties);
  const required = Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : [];
  return Object.fromEntries(required.map((name) => [name, exampleValue(props[name], depth + 1)]));
}

const asObject = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
