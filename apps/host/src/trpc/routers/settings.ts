import type { TRPCRouterRecord } from "@trpc/server";
import { ModelSettings, ToolListInput } from "@seam/shared";
import { procedure } from "../trpc.js";

export const settingsRouter = {
  model: procedure.query(({ ctx }) => ctx.host.settings.model()),
  setModel: procedure.input(ModelSettings).mutation(({ ctx, input }) => ctx.host.settings.setModel(input)),
} satisfies TRPCRouterRecord;

export const toolsRouter = {
  list: procedure.input(ToolListInput).query(({ ctx, input }) => ctx.host.tools.list(input.sessionId)),
} satisfies TRPCRouterRecord;

export const capabilitiesRouter = {
  list: procedure.query(({ ctx }) => ctx.host.capabilities.list()),
} satisfies TRPCRouterRecord;
