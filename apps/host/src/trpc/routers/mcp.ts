import type { TRPCRouterRecord } from "@trpc/server";
import { McpImportApplyInput, McpImportInput, McpServerConfig, McpServerRef, McpSetEnabledInput, McpSetApprovalInput, McpSetToolInput, McpUpdateInput } from "@seam/shared";
import { procedure } from "../trpc.js";

/** MCP server management (MCP-10). Inputs are the shared schemas; a bad input changes nothing (SEC-5). */
export const mcpRouter = {
  list: procedure.query(({ ctx }) => ctx.host.mcp.list()),
  add: procedure.input(McpServerConfig).mutation(({ ctx, input }) => ctx.host.mcp.add(input)),
  update: procedure.input(McpUpdateInput).mutation(({ ctx, input }) => ctx.host.mcp.update(input.name, input.config)),
  remove: procedure.input(McpServerRef).mutation(({ ctx, input }) => ctx.host.mcp.remove(input.name)),
  setEnabled: procedure.input(McpSetEnabledInput).mutation(({ ctx, input }) => ctx.host.mcp.setEnabled(input.name, input.enabled)),
  setTool: procedure.input(McpSetToolInput).mutation(({ ctx, input }) => ctx.host.mcp.setTool(input)),
  setApproval: procedure.input(McpSetApprovalInput).mutation(({ ctx, input }) => ctx.host.mcp.setApproval(input.name, input.approval)),
  restart: procedure.input(McpServerRef).mutation(({ ctx, input }) => ctx.host.mcp.restart(input.name)),
  importPreview: procedure.input(McpImportInput).mutation(({ ctx, input }) => ctx.host.mcp.importPreview(input.json)),
  importApply: procedure.input(McpImportApplyInput).mutation(({ ctx, input }) => ctx.host.mcp.importApply(input.json, input.names)),
  export: procedure.query(({ ctx }) => ctx.host.mcp.exportJson()),
  /** OAuth (MCP-11): the Authorization tab. */
  authStatus: procedure.input(McpServerRef).query(({ ctx, input }) => ctx.host.mcpOAuth.status(input.name)),
  authorize: procedure.input(McpServerRef).mutation(({ ctx, input }) => ctx.host.mcpOAuth.authorize(input.name)),
  signOut: procedure.input(McpServerRef).mutation(({ ctx, input }) => ctx.host.mcpOAuth.signOut(input.name)),
} satisfies TRPCRouterRecord;
