import { formatIssues } from "@seam/shared";
import { z } from "zod";
import { isBlankBlock, splitFrontmatter } from "./frontmatter.js";
import { loadYaml, parseYaml } from "./frontmatter-yaml.js";
import type { SkillMeta } from "./registry.js";

/** A SKILL.md shaped like the usual ones: a block mapping, a folded description, a flow list, a nested map. */
const WARM_UP_SKILL = `---
name: warm-up
description: >-
  Warms the SKILL.md parser.
allowed-tools: read_file, grep
metadata:
  tags: [warm, up]
---
Body.
`;

/**
 * Loads the YAML parser now and parses one sample file (the host's warm-up after start), so the first skills
 * list of turn 1 finds the parser compiled; `parseSkill` loads it on first use anyway. Returns the outcome.
 */
export function loadParser(): ParseOutcome {
  loadYaml();
  return parseSkill(WARM_UP_SKILL);
}

/** A parsed SKILL.md (or flat `<name>.md`): frontmatter mapped to Seam's fields, and the body verbatim. */
export interface ParsedSkill {
  /** The frontmatter's `name`, if it has one (must equal the folder or file name). */
  declaredName?: string;
  description: string;
  whenToUse?: string;
  modelInvocable: boolean;
  userInvocable: boolean;
  meta: SkillMeta;
  body: string;
  warnings: string[];
}

export type ParseOutcome = { ok: true; skill: ParsedSkill } | { ok: false; reason: string };

export const DESCRIPTION_SOFT_MAX = 1024;

const Flag = z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")], {
  error: "must be true or false",
});
const Text = (what: string) => z.string({ error: `${what} must be a string` });

const Frontmatter = z.looseObject({
  name: z.string({ error: "name must be a string" }).optional(),
  description: z.string({ error: (i) => (i.input === undefined ? "description is required" : "description must be a string") })
    .trim().min(1, "description is empty"),
  when_to_use: Text("when_to_use").optional(),
  "when-to-use": Text("when-to-use").optional(),
  "model-invocable": Flag.optional(),
  "user-invocable": Flag.optional(),
  "disable-model-invocation": Flag.optional(),
  license: Text("license").optional(),
  compatibility: Text("compatibility").optional(),
  metadata: z.record(z.string(), z.unknown(), { error: "metadata must be a mapping" }).optional(),
  "allowed-tools": z.union([z.string(), z.array(z.string())], { error: "allowed-tools must be a string or a list of strings" }).optional(),
});

const KNOWN = new Set(Object.keys(Frontmatter.shape));

/** Splits `allowed-tools` given as one string: commas, or whitespace outside parentheses ("Bash(git add:*) Read"). */
export function splitAllowedTools(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  const hasComma = value.includes(",");
  for (const ch of value) {
    if (ch === "(") depth += 1;
    if (ch === ")") depth = Math.max(0, depth - 1);
    const separator = ch === "," || (!hasComma && depth === 0 && /\s/.test(ch));
    if (separator && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** Parses one skill file's text. Never throws: a malformed file is a reason for a diagnostic (SKL-3). */
export function parseSkill(text: string): ParseOutcome {
  const split = splitFrontmatter(text);
  if (!split.ok) return { ok: false, reason: split.reason };
  let data: unknown = {};
  if (!isBlankBlock(split.block)) {
    const yaml = parseYaml(split.block);
    if (!yaml.ok) return { ok: false, reason: yaml.reason };
    data = yaml.value ?? {};
  }
  if (typeof data !== "object" || Array.isArray(data)) return { ok: false, reason: "the frontmatter must be a mapping of keys to values" };
  const parsed = Frontmatter.safeParse(data);
  if (!parsed.success) return { ok: false, reason: formatIssues(parsed.error, { paths: false }) };
  const fm = parsed.data;
  const warnings: string[] = [];

  const disabled = fm["disable-model-invocation"] === true;
  if (disabled && fm["model-invocable"] === true) warnings.push("model-invocable: true conflicts with disable-model-invocation: true; the model cannot invoke it");
  const modelInvocable = !disabled && fm["model-invocable"] !== false;
  const userInvocable = fm["user-invocable"] !== false;

  if (fm.description.length > DESCRIPTION_SOFT_MAX) {
    warnings.push(`description is ${fm.description.length} characters (more than ${DESCRIPTION_SOFT_MAX}); the catalog shows the first 500`);
  }
  if (!split.body.trim()) warnings.push("the body is empty");

  const allowed = fm["allowed-tools"];
  const extra = Object.fromEntries(Object.entries(fm).filter(([k]) => !KNOWN.has(k)));
  const meta: SkillMeta = {
    ...(fm.license !== undefined && { license: fm.license }),
    ...(fm.compatibility !== undefined && { compatibility: fm.compatibility }),
    ...(fm.metadata !== undefined && { metadata: fm.metadata }),
    ...(allowed !== undefined && { allowedTools: typeof allowed === "string" ? splitAllowedTools(allowed) : allowed }),
    ...(Object.keys(extra).length > 0 && { extra }),
  };
  const whenToUse = (fm.when_to_use ?? fm["when-to-use"])?.trim();
  const skill: ParsedSkill = { declaredName: fm.name, description: fm.description, modelInvocable, userInvocable, meta, body: split.body, warnings };
  if (whenToUse) skill.whenToUse = whenToUse;
  return { ok: true, skill };
}
