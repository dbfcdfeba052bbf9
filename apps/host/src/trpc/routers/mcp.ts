import type { TRPCRouterRecord } from "@trpc/server";
import { McpElicitationAnswer, McpLogsInput, McpSetLogLevelInput } from "@seam/shared";
import { McpAddInput, McpImportApplyInput, McpImportInput, McpProbeRef, McpServerRef, McpSetEnabledInput, McpSetApprovalInput, McpSetToolInput, McpUpdateInput } from "@seam/shared";
import { McpGetPromptInput, McpReadResourceInput, McpResourcesInput, McpTryToolInput } from "@seam/shared";
import { procedure } from "../trpc.js";

/** MCP server management (MCP-10). Inputs are the shared schemas; a bad input changes nothing (SEC-5). */
export const mcpRouter = {
  list: procedure.query(({ ctx }) => ctx.host.mcp.list()),
  add: procedure.input(McpAddInput).mutation(({ ctx, input: { force, probeId, ...config } }) => ctx.host.mcp.add(config, { force, probeId })),
  update: procedure.input(McpUpdateInput).mutation(({ ctx, input }) => ctx.host.mcp.update(input.name, input.config, { force: input.force, probeId: input.probeId })),
  remove: procedure.input(McpServerRef).mutation(({ ctx, input }) => ctx.host.mcp.remove(input.name)),
  setEnabled: procedure.input(McpSetEnabledInput).mutation(({ ctx, input }) => ctx.host.mcp.setEnabled(input.name, input.enabled)),
  setTool: procedure.input(McpSetToolInput).mutation(({ ctx, input }) => ctx.host.mcp.setTool(input)),
  setApproval: procedure.input(McpSetApprovalInput).mutation(({ ctx, input }) => ctx.host.mcp.setApproval(input.name, input.approval)),
  restart: procedure.input(McpServerRef).mutation(({ ctx, input }) => ctx.host.mcp.restart(input.name)),
  importPreview: procedure.input(McpImportInput).mutation(({ ctx, input }) => ctx.host.mcp.importPreview(input.json)),
  importApply: procedure.input(McpImportApplyInput).mutation(({ ctx, input }) => ctx.host.mcp.importApply(input.json, input.names, input.force)),
  export: procedure.query(({ ctx }) => ctx.host.mcp.exportJson()),
  /** Progress of the try before a save (MCP-10), polled by the form while `add`/`update` runs. */
  probeStatus: procedure.input(McpProbeRef).query(({ ctx, input }) => ctx.host.mcp.probeStatus(input.probeId)),
  /** MCP-12: pending requests for input (live topic `elicitations`) and their answers. */
  elicitations: procedure.query(({ ctx }) => ctx.host.mcp.elicitations()),
  answerElicitation: procedure.input(McpElicitationAnswer).mutation(({ ctx, input }) => ctx.host.mcp.answerElicitation(input)),
  /** MCP-12: a server's log ring (new entries on live topic `mcpLogs`). */
  logs: procedure.input(McpLogsInput).query(({ ctx, input }) => ctx.host.mcp.logs(input)),
  setLogLevel: procedure.input(McpSetLogLevelInput).mutation(({ ctx, input }) => ctx.host.mcp.setLogLevel(input)),
  // MCP-9: resources, prompts and "try a tool" on a ready server's live connection.
  resources: procedure.input(McpResourcesInput).query(({ ctx, input }) => ctx.host.mcp.resources(input.name, input.cursor)),
  resourceTemplates: procedure.input(McpServerRef).query(({ ctx, input }) => ctx.host.mcp.resourceTemplates(input.name)),
  readResource: procedure.input(McpReadResourceInput).query(({ ctx, input }) => ctx.host.mcp.readResource(input.name, input.uri)),
  prompts: procedure.input(McpServerRef).query(({ ctx, input }) => ctx.host.mcp.prompts(input.name)),
  getPrompt: procedure.input(McpGetPromptInput).mutation(({ ctx, input }) => ctx.host.mcp.getPrompt(input.name, input.prompt, input.arguments)),
  promptCommands: procedure.query(({ ctx }) => ctx.host.mcp.promptCommands()),
  tryTool: procedure.input(McpTryToolInput).mutation(({ ctx, input }) => ctx.host.mcp.tryTool(input.name, input.tool, input.args)),
  /** OAuth (MCP-11): the Authorization tab. */
  authStatus: procedure.input(McpServerRef).query(({ ctx, input }) => ctx.host.mcpOAuth.status(input.name)),
  authorize: procedure.input(McpServerRef).mutation(({ ctx, input }) => ctx.host.mcpOAuth.authorize(input.name)),
  signOut: procedure.input(McpServerRef).mutation(({ ctx, input }) => ctx.host.mcpOAuth.signOut(input.name)),
} satisfies TRPCRouterRecord;
