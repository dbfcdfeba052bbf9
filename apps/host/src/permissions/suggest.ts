// Interim until the rule engine (coding-perm branch) lands. Replaced wholesale.
import type { CallFacts } from "./types.js";

export function suggestRules(call: CallFacts): string[] {
  return [call.tool];
}
