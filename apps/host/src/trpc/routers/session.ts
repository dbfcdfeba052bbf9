import type { TRPCRouterRecord } from "@trpc/server";
import {
  SessionCallToolInput, SessionCreateInput, SessionDetailInput, SessionEditInput, SessionForkInput, SessionImportInput, SessionItemsAroundInput, SessionItemsInput, SessionModeInput, SessionRef, SessionRenameInput,
  SessionSearchInput, SessionSendInput,
} from "@seam/shared";
import { procedure } from "../trpc.js";

export const sessionRouter = {
  list: procedure.query(({ ctx }) => ctx.host.sessions.list()),
  create: procedure.input(SessionCreateInput).mutation(({ ctx, input }) => ctx.host.sessions.create(input)),
  rename: procedure.input(SessionRenameInput).mutation(({ ctx, input }) => ctx.host.sessions.rename(input.id, input.title)),
  setMode: procedure.input(SessionModeInput).mutation(({ ctx, input }) => ctx.host.sessions.setMode(input.sessionId, input.mode)),
  remove: procedure.input(SessionRef).mutation(({ ctx, input }) => ctx.host.sessions.remove(input.id)),
  /** The session with its latest page of items (CTX-4); older and newer pages come from `items`, a jump target's window from `itemsAround`. */
  get: procedure.input(SessionDetailInput).query(({ ctx, input }) => ctx.host.sessions.detail(input.id, { limit: input.limit })),
  items: procedure.input(SessionItemsInput).query(({ ctx, input }) => ctx.host.sessions.items(input)),
  itemsAround: procedure.input(SessionItemsAroundInput).query(({ ctx, input }) => ctx.host.sessions.itemsAround(input)),
  send: procedure.input(SessionSendInput).mutation(({ ctx, input }) => ctx.host.sessions.send(input)),
  callTool: procedure.input(SessionCallToolInput).mutation(({ ctx, input }) => ctx.host.sessions.callTool(input)),
  stop: procedure.input(SessionRef).mutation(({ ctx, input }) => ctx.host.sessions.stop(input.id)),
  context: procedure.input(SessionRef).query(({ ctx, input }) => ctx.host.sessions.context(input.id)),
  // Session operations (CTX-5)
  fork: procedure.input(SessionForkInput).mutation(({ ctx, input }) => ctx.host.sessions.fork(input)),
  editAndResend: procedure.input(SessionEditInput).mutation(({ ctx, input }) => ctx.host.sessions.editAndResend(input)),
  retry: procedure.input(SessionRef).mutation(({ ctx, input }) => ctx.host.sessions.retry(input.id)),
  exportMarkdown: procedure.input(SessionRef).query(({ ctx, input }) => ctx.host.sessions.exportMarkdown(input.id)),
  exportJson: procedure.input(SessionRef).query(({ ctx, input }) => ctx.host.sessions.exportJson(input.id)),
  importJson: procedure.input(SessionImportInput).mutation(({ ctx, input }) => ctx.host.sessions.importJson(input)),
  search: procedure.input(SessionSearchInput).query(({ ctx, input }) => ctx.host.sessions.search(input)),
} satisfies TRPCRouterRecord;
