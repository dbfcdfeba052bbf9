import { readFileSync } from "node:fs";
import { z } from "zod";
import { SKILL_NAME, SKILL_NAME_MAX } from "@seam/shared";
import { defineTool, type ToolDef } from "../agent/tool.js";
import { HostError } from "../core/errors.js";
import type { LoadedSkill, Observation } from "./registry.js";
import { renderSkillContent } from "./render.js";
import { readSkillResource, renderSkillResource } from "./resource.js";

const description = readFileSync(new URL("./skill.md", import.meta.url), "utf8").trim();

const Input = z.object({
  name: z.string()
    .max(SKILL_NAME_MAX, `a skill name has at most ${SKILL_NAME_MAX} characters`)
    .regex(SKILL_NAME, "use the exact kebab-case name from <available_skills>, e.g. pdf-tools")
    .describe("The skill's name as listed in <available_skills>"),
  file: z.string().min(1).max(1024).optional()
    .describe("Optional: a file of the skill's bundle to read instead of its instructions, relative to its resource base (e.g. reference/forms.md)"),
});

export interface SkillToolDeps {
  list(cwd: string, scopes: readonly string[], signal?: AbortSignal): Promise<Observation>;
  get(name: string, cwd: string, scopes: readonly string[], signal?: AbortSignal): Promise<LoadedSkill | null>;
  scopes(sessionId: string): readonly string[];
}

/** What the UI and programs get from a `skill` call. */
export interface SkillToolResult {
  name: string;
  description: string;
  source: string;
  path: string | null;
  resourceBase: LoadedSkill["resourceBase"];
  body: string;
}

const unknown = (name: string) =>
  new HostError("not_found:skills", `The skill "${name}" is unknown or no longer available. Use a name from the latest <available_skills> list.`, { reason: "unknown_skill" });
const notForModel = (name: string) =>
  new HostError("denied:skills", `The skill "${name}" can only be invoked by the user (with /${name}), not by the model.`, { reason: "not_model_invocable" });

/** `skill({name})` (SKL-7): summary check before loading, policy re-checked on the fresh definition. */
export function skillTool(deps: SkillToolDeps): ToolDef {
  return defineTool({
    name: "skill",
    description,
    capability: "skills",
    input: Input,
    timeoutMs: 30_000,
    async run({ name, file }, ctx) {
      const scopes = deps.scopes(ctx.sessionId);
      const observation = await deps.list(ctx.workspace, scopes, ctx.signal);
      const summary = observation.candidates.find((c) => c.name === name);
      if (!summary) throw unknown(name);
      if (!summary.modelInvocable) throw notForModel(name);
      const skill = await deps.get(name, ctx.workspace, scopes, ctx.signal);
      if (!skill) throw unknown(name);
      if (!skill.modelInvocable) throw notForModel(name);
      if (file !== undefined) {
        if (skill.resourceBase?.kind !== "directory") {
          throw new HostError("bad_input:skills", `The skill "${name}" has no resource files to read.`, { reason: "no_resources" });
        }
        const resource = await readSkillResource(skill.resourceBase.path, file);
        return { canonical: { name: skill.name, file: resource.path, content: resource.content, truncated: resource.truncated }, rendered: renderSkillResource(skill.name, resource) };
      }
      const canonical: SkillToolResult = {
        name: skill.name, description: skill.description, source: skill.source, path: skill.path ?? null, resourceBase: skill.resourceBase, body: skill.body,
      };
      return { canonical, rendered: renderSkillContent(skill) };
    },
  });
}
