import { homedir } from "node:os";
import type { Scope } from "./core/scope.js";
import type { HostApi } from "./host-api.js";
import { createStepHooks } from "./agent/hooks.js";
import { createToolRegistry, toolsApi } from "./agent/registry.js";
import { createToolRuntime } from "./agent/runtime.js";
import { createLoadedTools } from "./agent/loaded-tools.js";
import { toolSearchTool } from "./agent/tool-search.js";
import { createToolSet } from "./agent/tool-set.js";
import { createSessionService } from "./agent/session.js";
import { capabilityOverview } from "./capabilities.js";
import * as Checkpoints from "./checkpoints/checkpoints.js";
import { turnCheckpoints } from "./checkpoints/turns.js";
import { recordChildGroups } from "./core/child-groups.js";
import { processesApi } from "./core/process.js";
import { startupTrace, type StartupTrace } from "./core/startup-trace.js";
import * as Extensions from "./extensions/extensions.js";
import { createSecretSource } from "./llm/secrets.js";
import * as Lsp from "./lsp/lsp.js";
import * as Mcp from "./mcp/mcp.js";
import { openDatabase } from "./persistence/db.js";
import { databaseUrl } from "./persistence/url.js";
import { createReadiness } from "./persistence/readiness.js";
import { hostIdOf } from "./cluster/host-id.js";
import { createLog } from "./core/log.js";
import * as Permissions from "./permissions/permissions.js";
import { createModelSettings } from "./settings/model.js";
import * as Shell from "./shell/shell.js";
import * as Skills from "./skills/skills.js";
import * as Web from "./web/web.js";
import * as Workspace from "./workspace/workspace.js";
import { warmUp } from "./warm-up.js";

export interface HostOptions {
  home: string;
  env: NodeJS.ProcessEnv;
  version: string;
  /** Receives a phase per step of start-up (default: the process's trace, printed by main.ts with SEAM_TRACE_STARTUP=1). */
  trace?: StartupTrace;
  /** Where the HTTP server will listen (`http://127.0.0.1:<port>`), so OAuth redirect URIs are right before it does (MCP-11). */
  callbackOrigin?: string;
}

/** The composition root: each capability gets its own scope, created in dependency order. */
export async function createHost(scope: Scope, opts: HostOptions): Promise<HostApi & { warmUp(): Promise<void> }> {
  const startedAt = new Date().toISOString();
  const trace = opts.trace ?? startupTrace;
  // First, before any capability spawns: reap the process groups a crashed host left behind, then record ours.
  await trace.phase("child groups", () => recordChildGroups(scope.child("children"), { home: opts.home }));
  const db = await trace.phase("database open + migrations", () => openDatabase(scope.child("db"), { home: opts.home, url: databaseUrl(opts.home, opts.env) }));
  const log = createLog("host");
  // On PostgreSQL other hosts may share the database (SCALE-2): their running turns are theirs, and a dead
  // host's are taken over by the cluster's heartbeat once its leases lapse. On SQLite this host is alone
  // (and the cluster's code, with pg, is never loaded).
  const cluster = db.provider === "postgresql"
    ? await trace.phase("join the cluster", async () => {
      const { createCluster, leaseMsFrom } = await import("./cluster/cluster.js");
      return createCluster(scope.child("cluster"), { url: db.url, hostId: hostIdOf(opts.home), leaseMs: leaseMsFrom(opts.env) });
    })
    : null;
  if (!cluster) {
    const recovered = await trace.phase("recover interrupted turns", () => db.store.recoverInterrupted());
    if (recovered.turns > 0) log.warn(`marked ${recovered.turns} turn(s) cut short by the last shutdown as interrupted`);
  }

  const registry = createToolRegistry();
  const permissions = await trace.phase("create permissions", () => Permissions.create(scope.child("permissions"), {
    db, sessionTitle: async (id) => (await db.store.sessions.get(id))?.title ?? null,
  }));
  const runtime = createToolRuntime({ registry, authorize: permissions.authorize });
  const hooks = createStepHooks();
  const secrets = createSecretSource({ home: opts.home, env: opts.env });
  const model = createModelSettings({ store: db.store, secrets, env: opts.env });
  // Past the budget, deferrable (MCP) tools wait behind tool_search; one answer for the loop and the meter (CTX-3).
  const toolSet = createToolSet({ registry, loaded: createLoadedTools({ items: db.store.items }), budget: () => model.toolBudget() });
  scope.add(registry.register(toolSearchTool({ tools: toolSet })), "tool:tool_search");

  // Seam's own writes reach the skills cache and the language servers at once (CODE-6); the closures run only on a write.
  const workspace = await trace.phase("create workspace", () => Workspace.create(scope.child("workspace"), {
    registry,
    afterWrite: async ({ workspace: root, abs }) => {
      skills.invalidate(abs);
      await lsp.pool.fileChanged(root, abs, "changed");
    },
  }));
  // Registers the `lsp` tool itself while at least one language server routes files (LSP-3, LSP-5).
  const lsp = await trace.phase("create lsp", () => Lsp.create(scope.child("lsp"), { store: db.store, registry }));
  // The shell's bwrap probe is a child process (~0.1 s of waiting): the next capabilities are created meanwhile.
  const shellReady = trace.phase("create shell", () => Shell.create(scope.child("shell"), { registry, settings: db.store.settings, home: opts.home, env: opts.env }));
  shellReady.catch(() => {}); // awaited below; this only keeps an early failure from counting as unhandled
  const mcp = await trace.phase("create mcp", () => Mcp.create(scope.child("mcp"), { db, registry, secrets, broker: permissions.broker, callbackOrigin: opts.callbackOrigin }));
  // Sessions are created below; these closures only run once a request names a session.
  const skills = await trace.phase("create skills", () => Skills.create(scope.child("skills"), {
    store: db.store, userHome: opts.env.HOME ?? homedir(), registry, hooks, workspaceOf: (id) => sessions.workspaceOf(id),
    visibleCatalog: (id) => sessions.visibleCatalog(id),
  }));
  const web = await trace.phase("create web", () => Web.create(scope.child("web"), {
    store: db.store, secrets, registry, env: opts.env, turnOf: (sessionId) => sessions.runningTurn(sessionId),
  }));
  // Created before the sessions, so it is disposed after them: a turn ended by shutdown still gets its end snapshot.
  const checkpointsScope = scope.child("checkpoints");
  const checkpoints = await trace.phase("create checkpoints", () => Checkpoints.create(checkpointsScope, { home: opts.home, env: opts.env }));
  const shell = await shellReady;
  const sessions = createSessionService(scope.child("sessions"), {
    store: db.store, registry, runtime, hooks, model: () => model.resolve(), contextWindow: () => model.contextWindow(), toolSet,
    approvals: { waiting: (id) => permissions.waiting(id), onChange: (fn) => permissions.broker.onChange(fn) },
    // `/mcp__server__prompt …` runs an MCP prompt (MCP-9); other `/name` lines are skills (SKL-8).
    userInvocation: async (text, workspace, sessionId) => (await mcp.messages.promptInvocation(text)) ?? skills.resolveUserInvocation(text, workspace, sessionId),
    attachments: (list) => mcp.messages.attachmentsFact(list),
    systemExtra: () => mcp.instructions(),
    ...(cluster ? { link: cluster } : {}),
  });
  cluster?.start();
  scope.add(sessions.beforeRemove((id) => permissions.forgetSession(id)), "permissions:forget-session");
  // A session created or opened gets its workspace's skills catalog ready before its first message (#17 item 2).
  scope.add(sessions.onOpened(({ id, workspace }) => skills.prepare(workspace, id)), "skills:prepare-on-open");
  // MCP roots follow the sessions' workspaces (MCP-13): servers hear roots/list_changed when the set changes.
  const rootsWatch = new AbortController();
  scope.add(() => rootsWatch.abort(), "mcp:roots-watch");
  void (async () => {
    try {
      for await (const _ of sessions.listChanges(rootsWatch.signal)) mcp.workspacesChanged();
    } catch (error) {
      if (!rootsWatch.signal.aborted) log.error(`MCP roots stopped following the sessions: ${String(error)}`);
    }
  })();
  scope.add(sessions.beforeRemove((id) => shell.killSessionJobs(id)), "shell:kill-session-jobs");
  scope.add(sessions.beforeRemove(async (id) => workspace.ledger.forget(id)), "workspace:forget-reads");
  const turns = turnCheckpoints({
    engine: checkpoints.api, runtime, sessions, items: db.store.items,
    forks: { forkBefore: (id, itemId) => sessions.forkBefore(id, itemId), remove: (id) => sessions.remove(id) },
  });
  for (const dispose of turns.disposers) checkpointsScope.add(dispose, "checkpoints:turns");
  const extensions = await trace.phase("create extensions", () => Extensions.create(scope.child("extensions"), {
    db, registry, sessions, broker: permissions.broker,
    audit: (decision) => permissions.recordRun(decision),
  }));

  return {
    sessions,
    tools: toolsApi(registry),
    settings: model.api,
    capabilities: capabilityOverview([model.status, permissions.status, workspace.status, shell.status, checkpoints.status, web.status, lsp.status, mcp.status, skills.status, extensions.status]),
    processes: processesApi,
    mcp: mcp.api,
    mcpOAuth: mcp.oauth,
    web: web.api,
    skills: skills.api,
    lsp: lsp.api,
    extensions: extensions.api,
    permissions: permissions.api,
    shell: shell.api,
    checkpoints: turns.api,
    live: { ...sessions.live, ...mcp.live, ...lsp.live, ...extensions.live, ...permissions.live, ...shell.live },
    info: () => ({ version: opts.version, pid: process.pid, home: opts.home, startedAt }),
    ready: createReadiness({ db, stopping: scope.signal, log }).check,
    // main.ts runs it once the server listens (#17 item 2): what the first turn needs, loaded off the request path.
    warmUp: () => warmUp({ model, store: db.store, registry, others: [() => permissions.warm(), () => skills.warm()] }),
  };
}
