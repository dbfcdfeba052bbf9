import { SKILL_INVOCATION_FACT, type SkillCompletion, type SkillInvocationPayload } from "@seam/shared";
import type { LoadedSkill, Observation } from "./registry.js";
import { capText, renderSkillContent } from "./render.js";

/** `/name` then optional text; the name must be kebab-case (SKL-8). */
const COMMAND = /^\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\s+([\s\S]*))?$/;

export interface UserInvocation {
  name: string;
  /** The rest of the message after `/name`, trimmed. */
  args: string;
  /** The skill rendered exactly as the skill tool renders it. */
  content: string;
  /** Ready to append after the user's message: the instructions as the last user context. */
  fact: { factKind: typeof SKILL_INVOCATION_FACT; text: string; payload: SkillInvocationPayload };
}

export function parseCommand(text: string): { name: string; args: string } | null {
  const m = COMMAND.exec(text.trim());
  return m ? { name: m[1]!, args: (m[2] ?? "").trim() } : null;
}

/**
 * Loads `/name` directly (no catalog gate) and requires the loaded definition to be user-invocable.
 * Unknown and user-disabled names return null: the message stays plain text.
 */
export async function resolveUserInvocation(
  get: (name: string) => Promise<LoadedSkill | null>,
  text: string,
): Promise<UserInvocation | null> {
  const command = parseCommand(text);
  if (!command) return null;
  const skill = await get(command.name);
  if (!skill?.userInvocable) return null;
  const content = renderSkillContent(skill);
  return {
    name: skill.name,
    args: command.args,
    content,
    fact: { factKind: SKILL_INVOCATION_FACT, text: content, payload: { name: skill.name, args: command.args, source: skill.source, path: skill.path ?? null } },
  };
}

/** Composer completions: user-invocable winners, sorted by name, short descriptions. */
export function userCompletions(observation: Observation): SkillCompletion[] {
  return observation.candidates
    .filter((c) => c.userInvocable)
    .map((c) => ({ name: c.name, description: capText(c.description, 200) }));
}
