import { createRequire } from "node:module";
import type * as JsYaml from "js-yaml";

/**
 * The YAML inside a skill's frontmatter, parsed with js-yaml 4 (a cold list parses thousands of these;
 * js-yaml's `load` is ~10x cheaper than `yaml`'s `parseDocument` + `toJS` for this kind of text).
 *
 * - Types are YAML 1.2 core (`CORE_SCHEMA`): strings, numbers, booleans (`true`/`false`, `True`, `TRUE`…; not
 *   `yes`/`no`), null, lists and mappings; no timestamps, binary or `<<` merges (`<<` is an ordinary key).
 * - A tag js-yaml does not know (`!foo bar`, `!!binary …`) keeps the value as written, as `yaml` did.
 * - Duplicate keys are an error; so is every syntax error, reported as one sentence with its line.
 * - js-yaml keeps an alias (`*a`) as a second reference to the anchored value, which costs nothing here
 *   but is written out in full by every later JSON serialization (tRPC to the page): ten levels of ten
 *   aliases are 10^10 values. So a parsed value with aliases is walked with a budget (see `expansionBudget`).
 */

const load = createRequire(import.meta.url);
let lib: { load: typeof JsYaml.load; schema: JsYaml.Schema; YAMLException: typeof JsYaml.YAMLException } | undefined;

function jsYaml(): NonNullable<typeof lib> {
  if (lib) return lib;
  const yaml = load("js-yaml") as typeof JsYaml;
  // Unknown tags resolve to the node as written (prefix "" matches every tag js-yaml does not know).
  const asWritten = (["scalar", "sequence", "mapping"] as const).map((kind) => new yaml.Type("", { kind, multi: true }));
  lib = { load: yaml.load, schema: yaml.CORE_SCHEMA.extend({ explicit: asWritten }), YAMLException: yaml.YAMLException };
  return lib;
}

/** Loads js-yaml now (the host's warm-up after start); parsing loads it on first use anyway. */
export function loadYaml(): void {
  jsYaml();
}

/**
 * How much written-out data a block with aliases may parse to. Every value weighs 1, every string and
 * mapping key 1 more per character. Without aliases a block's value weighs about its length (each value
 * and key takes at least one character of the source), so this only stops data repeated through aliases
 * (the `yaml` library this replaced had `maxAliasCount: 50`) or a cycle (`&a [*a]`).
 */
export const expansionBudget = (block: string) => 1_000 + 2 * block.length;

/**
 * The weight of `value` written out in full (shared references and cycles expanded, see
 * `expansionBudget`), counted only up to `limit`: the walk stops at the first running total past it and
 * returns that total, so it takes at most about `limit` steps whatever the value.
 */
export function expandedSize(value: unknown, limit: number): number {
  let weight = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && weight <= limit) {
    const v = pending.pop();
    weight += typeof v === "string" ? 1 + v.length : 1;
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      // Each element weighs at least 1 when it is popped: do not queue what cannot fit.
      if (weight + v.length > limit) return weight + v.length;
      for (let i = 0; i < v.length; i++) pending.push(v[i]);
    } else {
      const record = v as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        weight += key.length + 1;
        if (weight > limit) return weight;
        pending.push(record[key]);
      }
    }
  }
  return weight;
}

const MORE_THAN_ONE = "invalid YAML: the frontmatter holds more than one document (a ... line ends the first); keep a single mapping";

export type YamlOutcome = { ok: true; value: unknown } | { ok: false; reason: string };

/** Parses a frontmatter block (its line 1 is the opening fence's line, so line numbers are the file's). */
export function parseYaml(block: string): YamlOutcome {
  const { load: parse, schema, YAMLException } = jsYaml();
  let value: unknown;
  try {
    value = parse(block, { schema });
  } catch (error) {
    if (error instanceof YAMLException) {
      if (!error.mark && /single document/.test(error.reason)) return { ok: false, reason: MORE_THAN_ONE };
      const at = error.mark ? ` at line ${error.mark.line + 1}` : "";
      return { ok: false, reason: `invalid YAML${at}: ${error.reason}` };
    }
    // js-yaml recurses per nesting level: thousands of `[` exhaust the stack.
    if (error instanceof RangeError) return { ok: false, reason: "invalid YAML: the frontmatter is nested too deeply; flatten it" };
    return { ok: false, reason: `invalid YAML: ${error instanceof Error ? error.message : String(error)}` };
  }
  // Only an alias (`*name`) makes shared references; most blocks have no `*` at all.
  const budget = expansionBudget(block);
  if (value !== null && typeof value === "object" && block.includes("*") && expandedSize(value, budget) > budget) {
    return { ok: false, reason: "the frontmatter's * aliases repeat more data than the file holds; write the values out instead of referring to them" };
  }
  return { ok: true, value };
}
