import { createHash } from "node:crypto";
import type { ResourceBase, SkillDefinition, SkillSummary } from "./registry.js";

export const DESCRIPTION_CAP = 500;

const XML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Escapes text for XML element content and attribute values. */
export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML[c]!);

/** Collapses whitespace (stable bytes for folded YAML) and caps at `max` characters, never splitting a code point. */
export function capText(text: string, max = DESCRIPTION_CAP): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join("")}…`;
}

export interface CatalogEntry { name: string; description: string; whenToUse?: string }

/** Model-invocable rows, sorted by name (code-point order), descriptions capped (SKL-6). */
export function catalogEntries(candidates: readonly SkillSummary[]): CatalogEntry[] {
  return candidates
    .filter((c) => c.modelInvocable)
    .map((c) => ({ name: c.name, description: capText(c.description), ...(c.whenToUse ? { whenToUse: capText(c.whenToUse) } : {}) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The catalog reminder: names, descriptions and when_to_use only — no bodies, paths, sources or
 * providers. Byte-identical for the same entries, so an unchanged catalog keeps the prompt prefix stable.
 */
export function renderCatalog(entries: readonly CatalogEntry[]): string {
  if (entries.length === 0) {
    return [
      "<system-reminder>",
      "<available_skills>",
      "</available_skills>",
      "No skills are available any more; skills listed earlier in this conversation can no longer be loaded.",
      "</system-reminder>",
    ].join("\n");
  }
  const rows = entries.map((e) => [
    `<skill name="${escapeXml(e.name)}">`,
    `<description>${escapeXml(e.description)}</description>`,
    ...(e.whenToUse ? [`<when_to_use>${escapeXml(e.whenToUse)}</when_to_use>`] : []),
    "</skill>",
  ].join("\n"));
  return [
    "<system-reminder>",
    "Skills are instructions for specific kinds of work. When a task matches a skill's description, call the skill tool with its name to load the instructions before you start. This list replaces any earlier list of skills.",
    "<available_skills>",
    ...rows,
    "</available_skills>",
    "</system-reminder>",
  ].join("\n");
}

export const digestOf = (text: string) => createHash("sha256").update(text).digest("hex");

function renderBase(base: ResourceBase | null): string {
  if (!base) return "";
  if (base.kind === "directory") return `<resource_base kind="directory">${escapeXml(base.path)}</resource_base>`;
  if (base.kind === "url") return `<resource_base kind="url">${escapeXml(base.url)}</resource_base>`;
  return `<resource_base kind="opaque">${escapeXml(base.text)}</resource_base>`;
}

/**
 * The one renderer for a loaded skill, used by the skill tool and by `/name` (SKL-7, SKL-8). Framing
 * metadata is escaped; the body is trusted instructions and goes in verbatim.
 */
export function renderSkillContent(skill: Pick<SkillDefinition, "name" | "body" | "resourceBase">): string {
  const base = renderBase(skill.resourceBase);
  const usage = base
    ? "Follow these instructions for the current task. Files they mention are relative to the resource base above; read one with the skill tool (`file` argument) only when a step needs it."
    : "Follow these instructions for the current task.";
  const body = skill.body.endsWith("\n") ? skill.body : `${skill.body}\n`;
  return [`<skill_content name="${escapeXml(skill.name)}">`, ...(base ? [base] : []), `<usage>${usage}</usage>`, "", `${body}</skill_content>`].join("\n");
}
