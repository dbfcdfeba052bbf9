import type { TRPCRouterRecord } from "@trpc/server";
import { RestoreAndForkInput } from "@seam/shared";
import { z } from "zod";
import { procedure } from "../trpc.js";

const Id = z.string().min(1).max(100);

/** Checkpoints (CODE-5): "Undo this turn" on a Changed files card, "Restore to here" on a user message and its undo. */
export const checkpointsRouter = {
  undo: procedure.input(z.strictObject({ sessionId: Id, turnId: Id })).mutation(({ ctx, input }) => ctx.host.checkpoints.undo(input.sessionId, input.turnId)),
  restore: procedure.input(z.strictObject({ sessionId: Id, messageId: Id })).mutation(({ ctx, input }) => ctx.host.checkpoints.restore(input.sessionId, input.messageId)),
  /** "Restore to here" (CTX-5): rewind the files and fork the conversation before the message. */
  restoreAndFork: procedure.input(RestoreAndForkInput).mutation(({ ctx, input }) => ctx.host.checkpoints.restoreAndFork(input)),
  undoRestore: procedure.input(z.strictObject({ sessionId: Id, factId: Id })).mutation(({ ctx, input }) => ctx.host.checkpoints.undoRestore(input.sessionId, input.factId)),
} satisfies TRPCRouterRecord;
