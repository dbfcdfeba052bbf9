import { z } from "zod";

/**
 * Size bounds every client input shares (SEC-5): a bad input is refused with a typed error before
 * anything is stored, and no input can make the host recurse without end.
 */

/** Most characters in one session message (`session.send`); tool arguments are held to it too, as JSON text. */
export const SESSION_TEXT_MAX = 200_000;
/** Deepest nesting of arrays and objects in any JSON value a client sends. */
export const JSON_DEPTH_MAX = 64;
/** Longest environment-variable name (the names of keys and tokens, MCP env entries). */
export const ENV_NAME_MAX = 256;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Longest URL in a setting or a server config. */
export const URL_MAX = 4096;

/**
 * An env-var name: at most ENV_NAME_MAX characters, letters, digits and `_`, not starting with a digit.
 * `trim` strips surrounding blanks first (settings forms); without it they are refused.
 */
export const envVarName = (example: string, opts: { trim?: boolean } = {}) => {
  const text = z.string().max(ENV_NAME_MAX, `Use at most ${ENV_NAME_MAX} characters for an environment variable name`);
  return (opts.trim ? text.trim() : text).regex(ENV_NAME, `Use an environment variable name like ${example}`);
};

export interface JsonBounds {
  /** Characters of the value as `JSON.stringify` writes it. */
  maxChars: number;
  /** Nesting of arrays and objects (a scalar is 0 deep, `{}` 1, `{"a": []}` 2). Default JSON_DEPTH_MAX. */
  maxDepth?: number;
}

/** Why a value is not a JSON value within the bounds, as a phrase ("is nested more than 64 levels deep"), or null. */
export type JsonProblem = { kind: "depth" | "size" | "type"; phrase: string } | null;

const count = (n: number) => n.toLocaleString("en-US");

/**
 * Checks a value against JSON bounds without recursion: a walk with an explicit stack finds the depth
 * (a cycle counts as too deep), then, with the depth bounded, `JSON.stringify` measures the size.
 */
export function jsonProblem(value: unknown, bounds: JsonBounds): JsonProblem {
  const maxDepth = bounds.maxDepth ?? JSON_DEPTH_MAX;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop()!;
    const type = typeof v;
    if (type === "bigint" || type === "function" || type === "symbol") return { kind: "type", phrase: `holds a ${type}, which is not JSON` };
    if (type !== "object" || v === null) continue;
    if (depth + 1 > maxDepth) return { kind: "depth", phrase: `is nested more than ${maxDepth} levels deep` };
    for (const child of Array.isArray(v) ? v : Object.values(v as object)) stack.push({ value: child, depth: depth + 1 });
  }
  const chars = JSON.stringify(value)?.length ?? 0;
  if (chars > bounds.maxChars) return { kind: "size", phrase: `is ${count(chars)} characters as JSON; the limit is ${count(bounds.maxChars)}` };
  return null;
}

const refineJson = (bounds: JsonBounds) => (value: unknown, ctx: z.RefinementCtx) => {
  const problem = jsonProblem(value, bounds);
  if (problem) ctx.addIssue({ code: "custom", message: `The value ${problem.phrase}` });
};

/** Any JSON value at most `maxDepth` deep and `maxChars` long as JSON text. */
export const boundedJson = (bounds: JsonBounds) => z.unknown().superRefine(refineJson(bounds));

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`);

/**
 * A JSON object (string keys) within the bounds: tool arguments, initialization options. With `example`,
 * a value that is no object is refused in words ("Must be a JSON object like {…}, not an array").
 */
export const boundedJsonObject = (bounds: JsonBounds, example?: string) =>
  z.record(z.string(), z.unknown(), example === undefined ? undefined : { error: (issue) => `Must be a JSON object like ${example}, not ${kindOf(issue.input)}` })
    .superRefine(refineJson(bounds));

/** A record with at most `max` entries (zod records have no count check of their own). */
export const atMostEntries = (max: number, what: string) => (record: Record<string, unknown>, ctx: z.RefinementCtx) => {
  const n = Object.keys(record).length;
  if (n > max) ctx.addIssue({ code: "custom", message: `At most ${max} ${what} (got ${count(n)})` });
};
