import type { TRPCRouterRecord } from "@trpc/server";
import { tracked } from "@trpc/server";
import { SessionCallToolInput, SessionCreateInput, SessionRef, SessionRenameInput, SessionSendInput } from "@seam/shared";
import { procedure } from "../trpc.js";

let eventSeq = 0;

export const sessionRouter = {
  list: procedure.query(({ ctx }) => ctx.host.sessions.list()),
  create: procedure.input(SessionCreateInput).mutation(({ ctx, input }) => ctx.host.sessions.create(input)),
  rename: procedure.input(SessionRenameInput).mutation(({ ctx, input }) => ctx.host.sessions.rename(input.id, input.title)),
  remove: procedure.input(SessionRef).mutation(({ ctx, input }) => ctx.host.sessions.remove(input.id)),
  get: procedure.input(SessionRef).query(({ ctx, input }) => ctx.host.sessions.detail(input.id)),
  send: procedure.input(SessionSendInput).mutation(({ ctx, input }) => ctx.host.sessions.send(input)),
  callTool: procedure.input(SessionCallToolInput).mutation(({ ctx, input }) => ctx.host.sessions.callTool(input)),
  stop: procedure.input(SessionRef).mutation(({ ctx, input }) => ctx.host.sessions.stop(input.id)),
  /** Live events of one session. The client refetches `get` on (re)connect, so ids only need to be unique. */
  events: procedure.input(SessionRef).subscription(async function* ({ ctx, input, signal }) {
    for await (const event of ctx.host.sessions.events(input.id, signal ?? new AbortController().signal)) {
      yield tracked(String(++eventSeq), event);
    }
  }),
  /** The session list, pushed whenever it changes. */
  listEvents: procedure.subscription(async function* ({ ctx, signal }) {
    for await (const list of ctx.host.sessions.listEvents(signal ?? new AbortController().signal)) {
      yield tracked(String(++eventSeq), list);
    }
  }),
} satisfies TRPCRouterRecord;
