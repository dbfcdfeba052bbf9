import type { TRPCRouterRecord } from "@trpc/server";
import { LspRestartInput, LspServerConfig, LspServerRef, LspUpdateInput } from "@seam/shared";
import { procedure } from "../trpc.js";

/** Language servers (LSP-7). Inputs are the shared schemas; a refused change saves nothing (LSP-2, LSP-5). */
export const lspRouter = {
  servers: procedure.query(({ ctx }) => ctx.host.lsp.servers()),
  presets: procedure.query(({ ctx }) => ctx.host.lsp.presets()),
  add: procedure.input(LspServerConfig).mutation(({ ctx, input }) => ctx.host.lsp.add(input)),
  update: procedure.input(LspUpdateInput).mutation(({ ctx, input }) => ctx.host.lsp.update(input)),
  remove: procedure.input(LspServerRef).mutation(({ ctx, input }) => ctx.host.lsp.remove(input)),
  restart: procedure.input(LspRestartInput).mutation(({ ctx, input }) => ctx.host.lsp.restart(input)),
} satisfies TRPCRouterRecord;
