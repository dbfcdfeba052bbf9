import type { McpApproval } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { ToolDef, ToolResult } from "../agent/tool.js";
import { toToolResult } from "./results.js";
import { compileSchema, type Compiled } from "./schema.js";
import type { McpTool } from "./sync.js";
import type { CallContext } from "./surface-types.js";
import { PROGRESS_MAX_FACTOR } from "./client-surface.js";

/** Sends tools/call for a tool of `generation` and returns the raw wire result; throws HostError. */
export type ToolSender = (rawName: string, generation: number, args: Record<string, unknown>, signal: AbortSignal, call?: CallContext) => Promise<unknown>;

/**
 * The registry entry for one MCP tool of one generation: the server's name, description and schema, a
 * local ajv check of the arguments, and a run() that calls the raw name on the wire.
 */
export function mcpToolDef(server: string, tool: McpTool, generation: number, callTimeoutMs: number, send: ToolSender, approval: McpApproval = "auto"): ToolDef {
  let input: Compiled | undefined;
  let output: Compiled | undefined;
  const description = tool.description || `Tool "${tool.rawName}" of the MCP server "${server}".`;
  return {
    name: tool.publicName,
    description,
    capability: "mcp",
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    timeoutMs: callTimeoutMs,
    // Progress restarts the deadline, up to this many call timeouts (MCP-12).
    maxTimeoutMs: callTimeoutMs * PROGRESS_MAX_FACTOR,
    effect: tool.readOnlyHint ? "read" : "external",
    // `ask` asks before every call through the permissions gate (MCP-8); `auto` leaves it to the mode and rules.
    ...(approval === "ask" ? { approval: "ask" as const } : {}),
    // Servers bring dozens of tools: past the budget they wait behind tool_search (CTX-3).
    deferrable: true,
    source: server,
    parse(args) {
      const value = args === undefined || args === null ? {} : args;
      if (typeof value !== "object" || Array.isArray(value)) return { ok: false, message: "(arguments): must be a JSON object" };
      input ??= compileSchema(tool.inputSchema);
      // A schema Ajv cannot compile is left to the server to enforce.
      const problem = input.ok ? input.validate(value) : null;
      return problem ? { ok: false, message: problem } : { ok: true, value };
    },
    async run(args, ctx): Promise<ToolResult> {
      if (tool.taskRequired) {
        throw new HostError("bad_input:mcp", `${tool.publicName} requires task-based (asynchronous) execution, which Seam does not support. Use another tool.`, {
          reason: "mcp_task_required",
        });
      }
      const wire = await send(tool.rawName, generation, args as Record<string, unknown>, ctx.signal, {
        sessionId: ctx.sessionId, callId: ctx.callId, tool: tool.publicName, signal: ctx.signal,
        ...(ctx.progress ? { progress: ctx.progress } : {}),
        ...(ctx.pauseDeadline ? { pauseDeadline: ctx.pauseDeadline } : {}),
      });
      if (tool.outputSchema) output ??= compileSchema(tool.outputSchema);
      return toToolResult(wire, {
        server,
        rawName: tool.rawName,
        hasOutputSchema: tool.outputSchema !== null,
        validateOutput: output?.ok ? output.validate : null,
      });
    },
  };
}
