import { z } from "zod";

/** A child process the host started (language servers, MCP servers…), with its stderr tail (SEC-4). */
export const ProcessInfo = z.object({
  label: z.string(),
  pid: z.number().int(),
  command: z.string(),
  state: z.enum(["running", "exited"]),
  exitCode: z.number().int().nullable(),
  exitSignal: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  stderrTail: z.string(),
});
export type ProcessInfo = z.infer<typeof ProcessInfo>;
