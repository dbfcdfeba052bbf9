import type { TRPCRouterRecord } from "@trpc/server";
import { procedure } from "../trpc.js";

/** What the capability overview page shows: each capability's state, and the child processes the host runs. */
export const capabilitiesRouter = {
  list: procedure.query(({ ctx }) => ctx.host.capabilities.list()),
} satisfies TRPCRouterRecord;

export const processesRouter = {
  list: procedure.query(({ ctx }) => ctx.host.processes.list()),
} satisfies TRPCRouterRecord;
