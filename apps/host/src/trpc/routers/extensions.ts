import type { TRPCRouterRecord } from "@trpc/server";
import {
  ApprovalAnswerInput, ExtensionBridgeCallInput, ExtensionBrowserReportInput, ExtensionPackageRef, ExtensionRunRef,
  ExtensionSettings, ExtensionSourceInput,
} from "@seam/shared";
import { procedure } from "../trpc.js";

/** Dynamic extensions (EXT-4..6): the page's view, approvals, grants and the browser-half bridge. Live data (the
 * snapshot, host → browser messages) comes through `live.stream`, topics `extensions` and `bridge`. */
export const extensionsRouter = {
  snapshot: procedure.query(({ ctx }) => ctx.host.extensions.snapshot()),
  source: procedure.input(ExtensionSourceInput).query(({ ctx, input }) => ctx.host.extensions.source(input)),
  answer: procedure.input(ApprovalAnswerInput).mutation(({ ctx, input }) => ctx.host.extensions.answer(input)),
  revokeGrant: procedure.input(ExtensionPackageRef).mutation(({ ctx, input }) => ctx.host.extensions.revokeGrant(input)),
  stop: procedure.input(ExtensionRunRef).mutation(({ ctx, input }) => ctx.host.extensions.stop(input)),
  setSettings: procedure.input(ExtensionSettings).mutation(({ ctx, input }) => ctx.host.extensions.setSettings(input)),
  /** Browser half → host half. The result is whatever the handler returned (JSON). */
  call: procedure.input(ExtensionBridgeCallInput)
    .mutation(async ({ ctx, input }) => ({ value: await ctx.host.extensions.call({ runId: input.runId, method: input.method, params: input.params }) })),
  reportBrowser: procedure.input(ExtensionBrowserReportInput).mutation(({ ctx, input }) => ctx.host.extensions.reportBrowser(input)),
} satisfies TRPCRouterRecord;
