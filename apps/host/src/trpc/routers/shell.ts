import type { TRPCRouterRecord } from "@trpc/server";
import { ShellJobRef, ShellSessionRef, ShellSettings } from "@seam/shared";
import { procedure } from "../trpc.js";

/** The shell (CODE-3, CODE-4): sandbox settings and probe, a session's background jobs. Job changes stream on live topic `jobs`. */
export const shellRouter = {
  settings: procedure.query(({ ctx }) => ctx.host.shell.settings.get()),
  setSettings: procedure.input(ShellSettings).mutation(({ ctx, input }) => ctx.host.shell.settings.set(input)),
  probe: procedure.mutation(({ ctx }) => ctx.host.shell.probe()),
  jobs: procedure.input(ShellSessionRef).query(({ ctx, input }) => ctx.host.shell.jobs.list(input.sessionId)),
  killJob: procedure.input(ShellJobRef).mutation(({ ctx, input }) => ctx.host.shell.jobs.kill(input.sessionId, input.jobId)),
  jobOutput: procedure.input(ShellJobRef).query(({ ctx, input }) => ctx.host.shell.jobs.output(input.sessionId, input.jobId)),
} satisfies TRPCRouterRecord;
