import { z } from "zod";

export const ToolInfo = z.object({
  name: z.string(),
  description: z.string(),
  capability: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  readOnly: z.boolean(),
  approval: z.enum(["auto", "ask"]),
});
export type ToolInfo = z.infer<typeof ToolInfo>;

export const ToolListInput = z.object({ sessionId: z.string().min(1).max(64).optional() });
