import type { ToolDef } from "./tool.js";
import { toolSpec } from "./tool-specs.js";
import { countText } from "./tokens.js";

/** Tokens a tool spec costs: name, description with guidance, JSON schema. */
export function toolTokens(t: ToolDef): number {
  const spec = toolSpec(t);
  return countText(spec.name) + countText(spec.description) + countText(JSON.stringify(spec.inputSchema));
}

const cache = new WeakMap<ToolDef, number>();

/** `toolTokens`, cached by definition object (a tool's spec never changes; a new generation is a new object). */
export function cachedToolTokens(t: ToolDef): number {
  let n = cache.get(t);
  if (n === undefined) cache.set(t, (n = toolTokens(t)));
  return n;
}
