import { readFileSync } from "node:fs";
import type { ToolEffect } from "@seam/shared";
import type { z } from "zod";
import { defineTool, type CallPreview, type ToolContext, type ToolDef, type ToolResult } from "../agent/tool.js";

/**
 * A workspace tool, `read` by default (PERM-1; write_file and edit_file pass `write`). The description
 * the model reads is the tool's name in kebab-case plus `.md`, beside this file (read_file →
 * read-file.md; copied to dist/ by scripts/copy-assets.mjs).
 */
export function workspaceTool<S extends z.ZodType>(
  name: string,
  input: S,
  run: (args: z.output<S>, ctx: ToolContext) => Promise<ToolResult>,
  options: { effect?: ToolEffect; preview?: (args: z.output<S>, ctx: ToolContext) => Promise<CallPreview> } = {},
): ToolDef {
  const description = readFileSync(new URL(`./${name.replaceAll("_", "-")}.md`, import.meta.url), "utf8").trim();
  return defineTool({ name, description, capability: "workspace", input, run, effect: options.effect ?? "read", preview: options.preview });
}
