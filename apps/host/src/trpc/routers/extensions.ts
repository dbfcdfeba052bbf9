import type { TRPCRouterRecord } from "@trpc/server";
import { tracked } from "@trpc/server";
import {
  ApprovalAnswerInput, ExtensionBridgeCallInput, ExtensionBridgeInput, ExtensionBrowserReportInput, ExtensionPackageRef, ExtensionRunRef,
  ExtensionSettings, ExtensionSourceInput,
} from "@seam/shared";
import { procedure } from "../trpc.js";

let eventSeq = 0;
let bridgeSeq = 0;

/** Dynamic extensions (EXT-4..6): the page's view, approvals, grants and the browser-half bridge. */
export const extensionsRouter = {
  snapshot: procedure.query(({ ctx }) => ctx.host.extensions.snapshot()),
  /** The snapshot now, then after each burst of changes. */
  events: procedure.subscription(async function* ({ ctx, signal }) {
    for await (const snapshot of ctx.host.extensions.events(signal ?? new AbortController().signal)) {
      yield tracked(String(++eventSeq), snapshot);
    }
  }),
  source: procedure.input(ExtensionSourceInput).query(({ ctx, input }) => ctx.host.extensions.source(input)),
  answer: procedure.input(ApprovalAnswerInput).mutation(({ ctx, input }) => ctx.host.extensions.answer(input)),
  revokeGrant: procedure.input(ExtensionPackageRef).mutation(({ ctx, input }) => ctx.host.extensions.revokeGrant(input)),
  stop: procedure.input(ExtensionRunRef).mutation(({ ctx, input }) => ctx.host.extensions.stop(input)),
  setSettings: procedure.input(ExtensionSettings).mutation(({ ctx, input }) => ctx.host.extensions.setSettings(input)),
  /** Browser half → host half. The result is whatever the handler returned (JSON). */
  call: procedure.input(ExtensionBridgeCallInput).mutation(async ({ ctx, input }) => ({ value: await ctx.host.extensions.call(input) })),
  /** Host halves → browser halves: each `api.send` as `{ runId, message }`, of one run or (no runId) of all. */
  bridge: procedure.input(ExtensionBridgeInput).subscription(async function* ({ ctx, input, signal }) {
    for await (const event of ctx.host.extensions.bridge(signal ?? new AbortController().signal, input?.runId)) {
      yield tracked(String(++bridgeSeq), event);
    }
  }),
  reportBrowser: procedure.input(ExtensionBrowserReportInput).mutation(({ ctx, input }) => ctx.host.extensions.reportBrowser(input)),
} satisfies TRPCRouterRecord;
