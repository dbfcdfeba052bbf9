import { formatPromptArguments, type McpPromptInfo } from "@seam/shared";
import { argsFrom, type SchemaField } from "./schema-form";

/** A prompt's arguments as form fields: all strings, required ones marked. */
export const promptFields = (prompt: McpPromptInfo): SchemaField[] =>
  prompt.arguments.map((a) => ({ name: a.name, kind: "string", required: a.required, description: a.description, options: [], initial: "" }));

/** The command line a prompt runs as (`/mcp__server__prompt a=1 b="two words"`), or the fields' errors. */
export function promptCommandLine(server: string, prompt: McpPromptInfo, values: Record<string, string>): { ok: true; text: string } | { ok: false; errors: Record<string, string> } {
  const r = argsFrom(promptFields(prompt), values);
  if (!r.ok) return r;
  const args = formatPromptArguments(r.args as Record<string, string>);
  return { ok: true, text: `/mcp__${server}__${prompt.name}${args ? ` ${args}` : ""}` };
}
