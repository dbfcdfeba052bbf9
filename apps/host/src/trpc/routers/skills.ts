import type { TRPCRouterRecord } from "@trpc/server";
import { SessionRef, SkillSettings, SkillsWhereInput } from "@seam/shared";
import { procedure } from "../trpc.js";

export const skillsRouter = {
  inspect: procedure.input(SkillsWhereInput).query(({ ctx, input }) => ctx.host.skills.inspect(input)),
  completions: procedure.input(SessionRef).query(({ ctx, input }) => ctx.host.skills.completions(input.id)),
  settings: procedure.query(({ ctx }) => ctx.host.skills.settings()),
  setSettings: procedure.input(SkillSettings).mutation(({ ctx, input }) => ctx.host.skills.setSettings(input)),
} satisfies TRPCRouterRecord;
