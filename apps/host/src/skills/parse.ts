import { createRequire } from "node:module";
import type matterFn from "gray-matter";
import { formatIssues } from "@seam/shared";
import { z } from "zod";
import type { SkillMeta } from "./registry.js";

// gray-matter and yaml (~0.13 s of imports) load with the first skill parsed, not at host start.
const load = createRequire(import.meta.url);
let modules: { matter: typeof matterFn; parseDocument: typeof import("yaml").parseDocument } | undefined;
const lib = () => (modules ??= { matter: load("gray-matter") as typeof matterFn, parseDocument: (load("yaml") as typeof import("yaml")).parseDocument });

/** Loads gray-matter and yaml now (the host's warm-up after start); `parseSkill` loads them on first use anyway. */
export function loadParser(): void {
  lib();
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

/** Only YAML frontmatter; gray-matter's `---js` engine would evaluate the block, so every other language is refused. */
const refuse = (language: string) => ({
  parse(): object {
    throw new Error(`frontmatter in ${language} is not supported; use YAML`);
  },
});

const YAML_OPTIONS = { uniqueKeys: true, prettyErrors: false, logLevel: "silent" } as const;
const TO_JS = { maxAliasCount: 50 } as const;

const yamlEngine = {
  parse(source: string): object {
    const doc = lib().parseDocument(source, YAML_OPTIONS);
    const first = doc.errors[0];
    if (first) throw new Error(`invalid YAML: ${first.message.split("\n")[0]}`);
    const value: unknown = doc.toJS(TO_JS);
    if (value === null || value === undefined) return {};
    if (typeof value !== "object" || Array.isArray(value)) throw new Error("the frontmatter must be a mapping of keys to values");
    return value;
  },
};

const MATTER_OPTIONS = {
  language: "yaml",
  engines: { yaml: yamlEngine, javascript: refuse("JavaScript"), coffee: refuse("CoffeeScript"), json: refuse("JSON") },
};

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

/** The frontmatter block must open on the first line and close on a line of its own. */
function frontmatterShape(text: string): string | null {
  const lines = text.split("\n");
  if (lines[0]?.replace(/\r$/, "").trimEnd() !== "---") {
    return /^---\S/.test(lines[0] ?? "") ? "the frontmatter must be YAML (the first line must be exactly ---)" : "missing frontmatter: the file must start with a --- block holding name and description";
  }
  const closes = lines.slice(1).some((l) => l.replace(/\r$/, "").trimEnd() === "---");
  return closes ? null : "the frontmatter block is not closed (no --- line after it)";
}

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
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const shape = frontmatterShape(clean);
  if (shape) return { ok: false, reason: shape };
  let file: { data: Record<string, unknown>; content: string };
  try {
    file = lib().matter(clean, MATTER_OPTIONS);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const parsed = Frontmatter.safeParse(file.data);
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
  if (!file.content.trim()) warnings.push("the body is empty");

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
  const skill: ParsedSkill = { declaredName: fm.name, description: fm.description, modelInvocable, userInvocable, meta, body: file.content, warnings };
  if (whenToUse) skill.whenToUse = whenToUse;
  return { ok: true, skill };
}
