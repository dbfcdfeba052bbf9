import type { TRPCRouterRecord } from "@trpc/server";
import { WebProbeInput, WebSettings } from "@seam/shared";
import { procedure } from "../trpc.js";

export const webRouter = {
  settings: procedure.query(({ ctx }) => ctx.host.web.settings()),
  setSettings: procedure.input(WebSettings).mutation(({ ctx, input }) => ctx.host.web.setSettings(input)),
  health: procedure.query(({ ctx }) => ctx.host.web.health()),
  probe: procedure.input(WebProbeInput).mutation(({ ctx, input }) => ctx.host.web.probe(input)),
} satisfies TRPCRouterRecord;
