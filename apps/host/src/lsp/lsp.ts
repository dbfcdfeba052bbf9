import { LspSettings, LspServerConfig, messageFor, type CapabilityRow, type LspPreset, type LspServerConfigInput, type LspServerView } from "@seam/shared";
import { toolsOf, type ToolRegistry } from "../agent/registry.js";
import type { ToolDef } from "../agent/tool.js";
import { HostError, messageOf } from "../core/errors.js";
import { createChanges } from "../core/changes.js";
import type { LiveSources } from "../core/live.js";
import { createLog, type Log } from "../core/log.js";
import type { Disposer, Scope } from "../core/scope.js";
import type { Store } from "../persistence/store.js";
import { createPool, type Pool, type PoolOptions, type QueryInput, type QueryResult } from "./pool.js";
import { defaultServers, presets } from "./presets.js";
import { createProviderRegistry, type ProviderRegistry } from "./registry.js";
import type { RenderLimits } from "./render.js";
import { extensionConflicts, parseConfig, requireResolvable, resolveServer, validateMapping } from "./servers.js";
import { lspStatus } from "./status.js";
import { lspTool } from "./tool.js";

export type { QueryInput, QueryResult } from "./pool.js";
export type { LspToolResult, LspLocationView } from "./render.js";

/** The settings key holding `LspSettings`. */
export const SETTINGS_KEY = "lsp";

/** What the tRPC layer calls (`HostApi["lsp"]`): configured servers with their processes (LSP-7); a refused change saves nothing. */
export interface Api {
  servers(): Promise<LspServerView[]>;
  presets(): Promise<LspPreset[]>;
  /**
   * Validates the whole mapping and resolves the command before saving, then activates it. Refuses invalid
   * fields (`bad_input:lsp`, field path first), extension conflicts (`conflict:lsp`) and an enabled server whose
   * command does not resolve.
   */
  add(config: LspServerConfigInput): Promise<LspServerView>;
  /** Replaces server `id` (`config.id` may rename it); its processes stop and it activates anew. */
  update(input: { id: string; config: LspServerConfigInput }): Promise<LspServerView>;
  remove(input: { id: string }): Promise<void>;
  /** Restarts one workspace's process, or every process of the server; re-activates an inactive server. */
  restart(input: { id: string; workspace?: string }): Promise<LspServerView>;
}

/** The LSP capability (LSP-1..7). */
export interface Interface {
  /** The `lsp` tool as registered now (or as it would be, listing no extensions, while none is routed). */
  readonly tool: ToolDef;
  readonly api: Api;
  /** Live topic `lsp`: every server's view now, then after each burst of changes. */
  readonly live: Pick<LiveSources, "lsp">;
  /** The capability overview's row (LSP-7). */
  status(): CapabilityRow;
  /** The seam (`ctx.lsp`): one query through routing, the pool and the server. */
  query(input: QueryInput): Promise<QueryResult>;
  /** Views synchronously (capability overview). */
  list(): LspServerView[];
  /** Whether the tool is registered: only while at least one provider routes files (CAP-LSP-OPTIONAL). */
  toolVisible(): boolean;
  readonly providers: ProviderRegistry;
  readonly pool: Pool;
  onChange(fn: () => void): Disposer;
}

export interface Deps {
  store: { settings: Store["settings"] };
  registry: ToolRegistry;
  env?: NodeJS.ProcessEnv;
  /** Where commands are looked up after PATH (default: the host's node_modules/.bin); tests simulate a missing server. */
  binDirs?: string[];
  log?: Log;
  pool?: Pick<PoolOptions, "maxSourceBytes" | "requestTimeoutMs" | "restartBudget" | "observe" | "maxOpenDocuments" | "readiness">;
  render?: Partial<RenderLimits>;
  /** Coalescing window for `events` (default 100 ms). */
  throttleMs?: number;
}

interface Active { dispose: Disposer; command: string }

/**
 * Loads the saved servers (the TypeScript preset on a fresh install) and activates them
 * transactionally (LSP-5). Teardown, by scope order: the tool and every route go first, then every
 * process, then the failures are reported together.
 */
export async function create(scope: Scope, deps: Deps): Promise<Interface> {
  const log = deps.log ?? createLog("lsp");
  const env = deps.env ?? process.env;
  const throttleMs = deps.throttleMs ?? 100;
  const providers = createProviderRegistry();
  let configs: LspServerConfig[] = await load(deps.store, log);
  const active = new Map<string, Active>();
  const problems = new Map<string, string>();
  let closed = false;
  const changes = createChanges(() => list(), { throttleMs, onListenerError: (error) => log.warn("a change listener failed", { error: messageOf(error) }) });
  const changed = () => changes.changed();

  const pool = createPool(scope, {
    ...deps.pool,
    registry: providers,
    serverFor: (id) => {
      const config = configs.find((c) => c.id === id);
      const run = active.get(id);
      return config && run ? { ...config, command: run.command } : undefined;
    },
    onChange: changed,
  });

  const query = (input: QueryInput) => pool.query(input);
  let registered: { tool: ToolDef; key: string; unregister: Disposer } | undefined;
  const syncTool = () => {
    const extensions = providers.providers().flatMap((p) => p.extensions);
    const key = extensions.join(" ");
    if (registered?.key === key && extensions.length > 0) return;
    registered?.unregister();
    registered = undefined;
    if (extensions.length === 0 || closed) return;
    const tool = lspTool({ query, extensions, limits: deps.render });
    try {
      registered = { tool, key, unregister: deps.registry.register(tool) };
    } catch (error) {
      log.error("the lsp tool could not be registered", { error: messageOf(error) });
    }
  };

  /** Routes go first, then the processes; failures are collected, never thrown half-way. */
  const deactivate = async (ids: string[]): Promise<unknown[]> => {
    for (const id of ids) {
      active.get(id)?.dispose();
      active.delete(id);
      problems.delete(id);
    }
    syncTool();
    const results = await Promise.allSettled(ids.map((id) => pool.disposeServer(id)));
    return results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  };

  /**
   * Resolves every executable, then registers every provider; a registration failure rolls back what
   * this batch registered (LSP-5). Servers that cannot run get their problem in words instead.
   */
  const activate = (batch: LspServerConfig[]) => {
    const runnable: { config: LspServerConfig; command: string }[] = [];
    for (const c of batch) {
      if (!c.enabled) {
        problems.set(c.id, "Disabled.");
        continue;
      }
      const r = resolveServer(c, env, deps.binDirs);
      if (r.ok) runnable.push({ config: c, command: r.command });
      else problems.set(c.id, r.problem);
    }
    // Conflicts with servers already routing, or within the batch: both sides are named, none is published.
    const conflicts = providers.validate(runnable.map((r) => r.config));
    const conflicted = new Set(conflicts.flatMap((c) => c.providers));
    for (const c of conflicts) for (const id of c.providers) problems.set(id, `extensions: ${c.extension} is claimed by both "${c.providers[0]}" and "${c.providers[1]}".`);
    const done: [string, Active][] = [];
    try {
      for (const r of runnable.filter((x) => !conflicted.has(x.config.id))) {
        done.push([r.config.id, { dispose: providers.register(r.config), command: r.command }]);
      }
    } catch (error) {
      for (const [, a] of done.reverse()) a.dispose();
      for (const r of runnable) problems.set(r.config.id, `Activation was rolled back: ${messageOf(error)}`);
      return;
    }
    for (const [id, a] of done) {
      active.set(id, a);
      problems.delete(id);
    }
  };

  const viewOf = (c: LspServerConfig): LspServerView => ({
    config: c,
    active: active.has(c.id),
    problem: active.has(c.id) ? null : problems.get(c.id) ?? (c.enabled ? "Not activated yet." : "Disabled."),
    processes: pool.processes(c.id),
  });
  const list = () => configs.map(viewOf);
  const find = (id: string) => {
    const c = configs.find((x) => x.id === id);
    if (!c) throw new HostError("not_found:lsp", `There is no language server with the id "${id}".`, { reason: "not_found", id });
    return c;
  };

  // Whole-mapping changes run one at a time.
  let chain: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(() => {
      if (closed) throw new HostError("closed:lsp", messageFor("closed:host"));
      return fn();
    });
    chain = run.catch(() => {});
    return run.finally(changed);
  };

  /** Validate the whole next mapping and the touched executables, save, then swap the touched servers. */
  const commit = async (next: LspServerConfig[], touched: string[]) => {
    validateMapping(next);
    for (const id of touched) {
      const c = next.find((x) => x.id === id);
      if (c) requireResolvable(c, env, deps.binDirs);
    }
    await deps.store.settings.set(SETTINGS_KEY, { servers: next } satisfies LspSettings);
    configs = next;
    const failures = await deactivate(touched.filter((id, i) => touched.indexOf(id) === i));
    activate(next.filter((c) => touched.includes(c.id)));
    syncTool();
    for (const f of failures) log.warn("a language server did not stop cleanly", { error: messageOf(f) });
  };

  const api: Api = {
    servers: async () => list(),
    presets: async () => presets(env, deps.binDirs),
    add: (input) => exclusive(async () => {
      const config = parseConfig(input);
      if (configs.some((c) => c.id === config.id)) throw new HostError("conflict:lsp", `id: a language server with the id "${config.id}" already exists.`, { reason: "duplicate_id", id: config.id });
      await commit([...configs, config], [config.id]);
      return viewOf(config);
    }),
    update: ({ id, config: input }) => exclusive(async () => {
      find(id);
      const config = parseConfig(input);
      if (config.id !== id && configs.some((c) => c.id === config.id)) {
        throw new HostError("conflict:lsp", `id: cannot rename "${id}" to "${config.id}": that id is taken.`, { reason: "duplicate_id", id: config.id });
      }
      const old = find(id);
      // Saving the same config again changes nothing and keeps its processes.
      if (JSON.stringify(old) === JSON.stringify(config) && active.has(id) === config.enabled) return viewOf(old);
      await commit(configs.map((c) => (c.id === id ? config : c)), [id, config.id]);
      return viewOf(config);
    }),
    remove: ({ id }) => exclusive(async () => {
      find(id);
      await commit(configs.filter((c) => c.id !== id), [id]);
    }),
    restart: ({ id, workspace }) => exclusive(async () => {
      const c = find(id);
      if (!c.enabled) throw new HostError("bad_input:lsp", `"${id}" is disabled: enable it first.`, { reason: "server_disabled", id });
      if (!active.has(id)) {
        activate([c]);
        syncTool();
        if (!active.has(id)) throw new HostError("unavailable:lsp", problems.get(id) ?? `"${id}" could not be activated.`, { reason: "server_inactive", id });
      }
      await pool.restart(id, workspace);
      return viewOf(c);
    }),
  };

  // Start-up activation: conflicts in what was saved leave both sides inactive, with the reason.
  for (const c of extensionConflicts(configs)) {
    for (const id of c.providers) problems.set(id, `extensions: ${c.extension} is claimed by both "${c.providers[0]}" and "${c.providers[1]}".`);
  }
  activate(configs.filter((c) => !problems.has(c.id)));
  syncTool();

  // Added after the pool: runs before it, so the tool and the routes are gone before any process stops.
  scope.add(() => {
    closed = true;
    registered?.unregister();
    registered = undefined;
    for (const a of active.values()) a.dispose();
    active.clear();
    changes.close();
  }, "lsp:routes");

  return {
    get tool() { return registered?.tool ?? lspTool({ query, extensions: [], limits: deps.render }); },
    api,
    live: { lsp: (signal) => changes.snapshots(signal) },
    status: () => lspStatus(toolsOf(deps.registry, "lsp"), list()),
    query,
    list,
    toolVisible: () => registered !== undefined,
    providers,
    pool,
    onChange: (fn) => changes.on(fn),
  };
}

/** The saved servers; nothing saved yet means a fresh install (the TypeScript preset). Unreadable entries are skipped. */
async function load(store: Deps["store"], log: Log): Promise<LspServerConfig[]> {
  const raw = await store.settings.get(SETTINGS_KEY);
  if (raw === undefined) return defaultServers();
  const whole = LspSettings.safeParse(raw);
  if (whole.success) return whole.data.servers;
  const items = Array.isArray((raw as { servers?: unknown })?.servers) ? (raw as { servers: unknown[] }).servers : [];
  const out: LspServerConfig[] = [];
  for (const item of items) {
    const one = LspServerConfig.safeParse(item);
    if (one.success && !out.some((c) => c.id === one.data.id)) out.push(one.data);
    else log.warn("a saved language server config is unreadable and was skipped", { item: JSON.stringify(item)?.slice(0, 200) });
  }
  return out;
}

/** The brief's name for `create`. */
export const createLsp = create;

