import type { ToolSpec } from "../llm/llm.js";
import type { ToolDef } from "./tool.js";

/** What the model sees of a tool: its name, description with guidance, and JSON schema. */
export function toolSpec(t: ToolDef): ToolSpec {
  return { name: t.name, description: t.guidance ? `${t.description}\n\n${t.guidance}` : t.description, inputSchema: t.inputSchema };
}
