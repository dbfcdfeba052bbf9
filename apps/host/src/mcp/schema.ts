import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { messageOf } from "../core/errors.js";

/** A compiled JSON schema: null when the data matches, else a message a model or a person can act on. */
export type Validator = (data: unknown) => string | null;

export type Compiled = { ok: true; validate: Validator } | { ok: false; reason: string };

// Servers advertise schemas from the wire: never fail on vocabulary Ajv does not know, never log, and
// ignore `format` (no format plugin is loaded, and an unknown format must not reject a call).
const options = { strict: false, allErrors: true, validateSchema: false, validateFormats: false, logger: false } as const;
let engines: { draft7: Ajv; draft2019: Ajv2019; draft2020: Ajv2020 } | undefined;
const getEngines = () => (engines ??= { draft7: new Ajv(options), draft2019: new Ajv2019(options), draft2020: new Ajv2020(options) });

/** Picks the engine for the schema's `$schema` (2020-12 when absent, as MCP 2025-11-25 says). */
function engineFor(schema: Record<string, unknown>): Ajv | Ajv2019 | Ajv2020 {
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  const e = getEngines();
  if (/draft-0[4-7]/.test(declared)) return e.draft7;
  if (/2019-09/.test(declared)) return e.draft2019;
  return e.draft2020;
}

/**
 * Compiles an advertised schema. A schema Ajv cannot compile (unsupported vocabulary, unresolvable
 * `$ref`, a meta-schema it does not ship) is reported, not thrown: callers then skip validation (MCP-6).
 */
export function compileSchema(schema: Record<string, unknown>): Compiled {
  try {
    const engine = engineFor(schema);
    const { $schema: _ignored, $id: _id, ...rest } = schema;
    // $id is dropped so that two servers advertising the same $id do not clash in the shared engine.
    const fn: ValidateFunction = engine.compile(rest);
    // The engine is shared and keys its cache by schema object: forget it, or every generation leaks.
    engine.removeSchema(rest);
    return { ok: true, validate: (data) => (fn(data) ? null : describeErrors(fn.errors ?? [])) };
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
}

/** `message: must be string; (root): must have required property 'message'` — at most 5 issues. */
export function describeErrors(errors: ErrorObject[]): string {
  const lines = errors.slice(0, 5).map((e) => {
    const path = e.instancePath ? e.instancePath.slice(1).replaceAll("/", ".") : "(root)";
    const extra = e.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})` : "";
    return `${path}: ${e.message ?? e.keyword}${extra}`;
  });
  const more = errors.length > 5 ? `; and ${errors.length - 5} more` : "";
  return `${lines.join("; ")}${more}`;
}
