import { procedure, router } from "./trpc.js";
import { sessionRouter } from "./routers/session.js";
import { capabilitiesRouter, settingsRouter, toolsRouter } from "./routers/settings.js";

export const appRouter = router({
  health: procedure.query(({ ctx }) => ({ ok: true as const, ...ctx.host.info() })),
  session: sessionRouter,
  tools: toolsRouter,
  settings: settingsRouter,
  capabilities: capabilitiesRouter,
});

export type AppRouter = typeof appRouter;
