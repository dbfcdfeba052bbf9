import { procedure, router } from "./trpc.js";
import { sessionRouter } from "./routers/session.js";
import { capabilitiesRouter, processesRouter } from "./routers/overview.js";
import { settingsRouter } from "./routers/settings.js";
import { toolsRouter } from "./routers/tools.js";
import { skillsRouter } from "./routers/skills.js";
import { webRouter } from "./routers/web.js";
import { mcpRouter } from "./routers/mcp.js";
import { lspRouter } from "./routers/lsp.js";
import { extensionsRouter } from "./routers/extensions.js";
import { liveRouter } from "./routers/live.js";
import { permissionsRouter } from "./routers/permissions.js";
import { shellRouter } from "./routers/shell.js";
import { checkpointsRouter } from "./routers/checkpoints.js";

export const appRouter = router({
  health: procedure.query(({ ctx }) => ({ ok: true as const, ...ctx.host.info() })),
  session: sessionRouter,
  tools: toolsRouter,
  settings: settingsRouter,
  capabilities: capabilitiesRouter,
  processes: processesRouter,
  skills: skillsRouter,
  web: webRouter,
  mcp: mcpRouter,
  lsp: lspRouter,
  extensions: extensionsRouter,
  permissions: permissionsRouter,
  shell: shellRouter,
  checkpoints: checkpointsRouter,
  live: liveRouter,
});

export type AppRouter = typeof appRouter;
