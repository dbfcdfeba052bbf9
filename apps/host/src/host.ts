import { homedir } from "node:os";
import type { Scope } from "./core/scope.js";
import type { SkillsWhereInput } from "@seam/shared";
import type { HostApi } from "./host-api.js";
import { createToolRegistry } from "./agent/registry.js";
import { createToolRuntime } from "./agent/runtime.js";
import { createSessionService } from "./agent/session.js";
import { createStepHooks } from "./agent/hooks.js";
import { capabilityRows } from "./capabilities.js";
import { listChildren } from "./core/process.js";
import { createLsp } from "./lsp/lsp.js";
import { createMcpHub } from "./mcp/mcp.js";
import { createMcpService } from "./mcp/service.js";
import { transportFactory } from "./mcp/transport.js";
import { createSecretSource } from "./llm/secrets.js";
import { createSkills } from "./skills/skills.js";
import { createWebSeam } from "./web/web.js";
import { openDatabase } from "./persistence/db.js";
import { createModelSettings } from "./settings/model.js";
import { workspaceTools } from "./workspace/workspace.js";
import { createExtensions } from "./extensions/service.js";
import { createExtensionStore } from "./extensions/store.js";
import { extensionTools } from "./extensions/tools.js";

export interface HostOptions { home: string; env: NodeJS.ProcessEnv; version: string }

/** The composition root: each capability gets its own scope, created in dependency order. */
export async function createHost(scope: Scope, opts: HostOptions): Promise<HostApi> {
  const startedAt = new Date().toISOString();
  const db = await openDatabase(scope.child("db"), { home: opts.home });
  const recovered = await db.store.recoverInterrupted();
  if (recovered.turns > 0) console.error(`[host] marked ${recovered.turns} turn(s) cut short by the last shutdown as interrupted`);

  const registry = createToolRegistry();
  const tools = scope.child("tools");
  for (const tool of workspaceTools()) tools.add(registry.register(tool), `tool:${tool.name}`);
  const runtime = createToolRuntime({ registry });
  // Registers the `lsp` tool itself while at least one language server routes files (LSP-3, LSP-5).
  const lsp = await createLsp(scope.child("lsp"), { store: db.store, registry });
  const secrets = createSecretSource({ home: opts.home, env: opts.env });
  const mcpScope = scope.child("mcp");
  const mcpTransport = transportFactory((name) => secrets.get(name)?.value);
  const mcp = await createMcpService(mcpScope, { hub: createMcpHub(mcpScope, { registry, transport: mcpTransport }), db });

  const hooks = createStepHooks();
  const skills = createSkills(scope.child("skills"), { store: db.store, userHome: opts.env.HOME ?? homedir() });
  tools.add(registry.register(skills.skillTool), "tool:skill");
  scope.add(hooks.add("skills:catalog", skills.catalogHook()), "hook:skills:catalog");

  const web = await createWebSeam(scope.child("web"), {
    store: db.store, secrets, registry, env: opts.env, turnOf: (sessionId) => sessions.runningTurn(sessionId),
  });
  const model = createModelSettings({ store: db.store, secrets, env: opts.env });
  const sessions = createSessionService(scope.child("sessions"), {
    store: db.store, registry, runtime, hooks, model: () => model.resolve(),
    userInvocation: (text, workspace, sessionId) => skills.resolveUserInvocation(text, workspace, sessionId),
  });
  const extensions = createExtensions(scope.child("extensions"), { extStore: createExtensionStore(db), store: db.store, registry });
  for (const tool of extensionTools(extensions, registry)) tools.add(registry.register(tool), `tool:${tool.name}`);
  const workspaceOf = async (where: SkillsWhereInput) => ("workspace" in where ? where.workspace : (await sessions.detail(where.sessionId)).session.workspace);

  const toolInfo = (sessionId?: string) => registry.visible(sessionId).map((t) => ({
    name: t.name, description: t.description, capability: t.capability, inputSchema: t.inputSchema, readOnly: t.readOnly, approval: t.approval,
  }));

  return {
    sessions: {
      ...sessions,
      // A deleted session's extensions stop and its run requests are withdrawn (EXT-2).
      remove: async (id) => {
        await extensions.forgetSession(id);
        await sessions.remove(id);
      },
    },
    extensions: extensions.api,
    tools: { list: async (sessionId) => toolInfo(sessionId) },
    settings: { model: () => model.status(), setModel: (s) => model.set(s) },
    capabilities: { list: async () => capabilityRows(registry.visible(), await model.status(), mcp.list(), web.health(), lsp.list()) },
    web: {
      settings: async () => web.settings.get(),
      setSettings: (s) => web.settings.set(s),
      health: async () => web.health(),
      probe: (input) => web.probe(input.kind, input.id),
    },
    mcp,
    lsp: lsp.api,
    skills: {
      inspect: async (where) => skills.inspect(await workspaceOf(where), "sessionId" in where ? where.sessionId : undefined),
      completions: async (sessionId) => skills.userInvocable((await sessions.detail(sessionId)).session.workspace, sessionId),
      settings: () => skills.settings.get(),
      setSettings: (s) => skills.settings.set(s),
    },
    processes: {
      list: async () => listChildren().map((c) => ({
        label: c.label, pid: c.pid, command: c.command, state: c.state,
        exitCode: c.exit?.code ?? null, exitSignal: c.exit?.signal ?? null,
        startedAt: c.startedAt.toISOString(), endedAt: c.endedAt?.toISOString() ?? null, stderrTail: c.stderrTail,
      })),
    },
    info: () => ({ version: opts.version, pid: process.pid, home: opts.home, startedAt }),
  };
}
