import type { TRPCRouterRecord } from "@trpc/server";
import { ToolListInput } from "@seam/shared";
import { procedure } from "../trpc.js";

export const toolsRouter = {
  list: procedure.input(ToolListInput).query(({ ctx, input }) => ctx.host.tools.list(input.sessionId)),
} satisfies TRPCRouterRecord;
