import type { TRPCRouterRecord } from "@trpc/server";
import { ModelSettings } from "@seam/shared";
import { procedure } from "../trpc.js";

export const settingsRouter = {
  model: procedure.query(({ ctx }) => ctx.host.settings.model()),
  setModel: procedure.input(ModelSettings).mutation(({ ctx, input }) => ctx.host.settings.setModel(input)),
} satisfies TRPCRouterRecord;
