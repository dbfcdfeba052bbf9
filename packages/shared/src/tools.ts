import { z } from "zod";

/**
 * What running a tool does (PERM-1): `read` and `network` run in every mode; `write` changes files, `execute`
 * runs commands, `external` calls an MCP server's tool, `extension` runs model-written code.
 */
export const ToolEffect = z.enum(["read", "write", "execute", "network", "external", "extension"]);
export type ToolEffect = z.infer<typeof ToolEffect>;

export const ToolInfo = z.object({
  name: z.string(),
  description: z.string(),
  capability: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  effect: ToolEffect,
});
export type ToolInfo = z.infer<typeof ToolInfo>;

export const ToolListInput = z.object({ sessionId: z.string().min(1).max(64).optional() });
