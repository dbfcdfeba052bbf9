import type { LspProcessView } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import { createRestartBudget, type RestartBudget, type RestartPolicy } from "../core/supervisor.js";
import type { LspClient } from "./client.js";
import type { OpenDocuments } from "./documents.js";
import type { PoolEvent, PoolServerConfig } from "./pool-types.js";
import type { Serialized } from "./workspace-queue.js";

/** One (server, canonical workspace) pair: its process if any, and what its view shows. */
export interface Entry {
  key: string;
  serverId: string;
  root: string;
  config: PoolServerConfig;
  scope: Scope | undefined;
  client: LspClient | undefined;
  spawning: Promise<LspClient> | undefined;
  state: LspProcessView["state"];
  pid: number | null;
  restarts: number;
  budget: RestartBudget;
  broken: string | null;
  startedAt: string | null;
  lastUsedAt: string | null;
  lastError: string | null;
  stderrTail: () => string;
  idle: NodeJS.Timeout | undefined;
  retired: boolean;
  /** The documents open on the current process (LSP-4 revised); replaced with the process. */
  documents: OpenDocuments | undefined;
}

/** LSP-4 as the core supervisor's schedule: a query replaces its server once, at once; the budget spans queries. */
const replaceOnce = (budget: { max: number; windowMs: number }): RestartPolicy => ({ initialDelayMs: 0, factor: 1, maxDelayMs: 0, maxAttempts: 1, budget });

export interface ProcessDeps {
  /** Server processes live in child scopes of it. */
  servers: Scope;
  serverFor(id: string): PoolServerConfig | undefined;
  restartBudget: { max: number; windowMs: number };
  serialized: Serialized;
  changed(): void;
  observe(event: PoolEvent): void;
}

/** The pool's processes: one per entry, started lazily, deduplicated, stopped on idle (LSP-4, LSP-6). */
export function poolProcesses(d: ProcessDeps) {
  const entries = new Map<string, Entry>();
  let seq = 0;

  const entryFor = (serverId: string, root: string): Entry => {
    const key = `${serverId}\u0000${root}`;
    let entry = entries.get(key);
    const config = d.serverFor(serverId);
    if (!config) throw new HostError("closed:lsp", `The language server "${serverId}" was removed.`, { reason: "server_stopped" });
    if (!entry) {
      entry = {
        key, serverId, root, config, scope: undefined, client: undefined, spawning: undefined, state: "stopped", pid: null, restarts: 0,
        budget: createRestartBudget(replaceOnce(d.restartBudget)), broken: null, startedAt: null, lastUsedAt: null, lastError: null,
        stderrTail: () => "", idle: undefined, retired: false, documents: undefined,
      };
      entries.set(key, entry);
    }
    return entry;
  };

  /** The entry's running client, starting one unless one is running or starting. */
  const start = (entry: Entry): Promise<LspClient> => {
    if (entry.client && !entry.client.closed) return Promise.resolve(entry.client);
    if (entry.spawning) return entry.spawning;
    if (entry.retired) return Promise.reject(new HostError("closed:lsp", `The language server "${entry.serverId}" was stopped.`, { reason: "server_stopped" }));
    const serverScope = d.servers.child(`${entry.config.id}#${++seq}`);
    entry.scope = serverScope;
    entry.state = "starting";
    entry.pid = null;
    d.changed();
    d.observe({ type: "spawn", serverId: entry.serverId, workspace: entry.root });
    const spawning: Promise<LspClient> = spawn(d, entry, serverScope).finally(() => {
      if (entry.spawning === spawning) entry.spawning = undefined;
    });
    entry.spawning = spawning;
    return spawning;
  };

  return {
    entries,
    entryFor,
    start,
    stopProcess: (entry: Entry, state?: LspProcessView["state"]) => stopProcess(d, entry, state),
    scheduleIdle: (entry: Entry) => scheduleIdle(d, entry),
  };
}

/** Stops the entry's process (routes are the caller's business); the entry stays for its view. */
async function stopProcess(d: ProcessDeps, entry: Entry, state: LspProcessView["state"] = "stopped") {
  clearTimeout(entry.idle);
  const { scope: serverScope, client } = entry;
  entry.client = undefined;
  entry.documents = undefined;
  entry.scope = undefined;
  entry.spawning = undefined;
  if (client) entry.stderrTail = client.stderrTail;
  if (serverScope) {
    entry.state = "stopping";
    d.changed();
    try {
      await serverScope.dispose();
    } finally {
      if (!entry.client) {
        entry.state = state;
        entry.pid = null;
      }
      d.changed();
    }
  } else if (entry.state !== "failed") {
    entry.state = state;
    d.changed();
  }
}

/** Starts the client in `serverScope`; the entry adopts it unless it was stopped meanwhile. */
async function spawn(d: ProcessDeps, entry: Entry, serverScope: Scope): Promise<LspClient> {
  const config = entry.config;
  try {
    // vscode-jsonrpc (~0.1 s, ~10 MB) loads with the first language server, not at host start.
    const { startClient } = await import("./client.js");
    const client = await startClient(serverScope, {
      label: `lsp:${config.id}`, command: config.command, args: config.args, root: entry.root, initializationOptions: config.initializationOptions,
      settings: config.settings,
    });
    if (entry.scope !== serverScope) {
      await serverScope.dispose().catch(() => {});
      throw new HostError("closed:lsp", `The language server "${entry.serverId}" was stopped while it started.`, { reason: "server_stopped" });
    }
    adopt(d, entry, client, serverScope);
    return client;
  } catch (error) {
    if (entry.scope === serverScope) {
      entry.scope = undefined;
      entry.state = "failed";
      entry.pid = null;
      entry.lastError = messageOf(error);
    }
    await serverScope.dispose().catch(() => {});
    d.changed();
    throw error;
  }
}

/** The entry's process is now `client`; an unexpected exit marks it failed and kills its tree. */
function adopt(d: ProcessDeps, entry: Entry, client: LspClient, serverScope: Scope) {
  entry.client = client;
  entry.pid = client.pid;
  entry.state = "ready";
  entry.startedAt = new Date().toISOString();
  entry.stderrTail = client.stderrTail;
  client.onClose((error, expected) => {
    d.observe({ type: "exit", serverId: entry.serverId, workspace: entry.root, pid: client.pid });
    if (expected || entry.client !== client) return;
    entry.client = undefined;
    entry.state = "failed";
    entry.lastError = error.message;
    // The tree may outlive its leader; the scope's teardown kills the whole process group.
    if (entry.scope === serverScope) entry.scope = undefined;
    void serverScope.dispose().catch(() => {}).finally(d.changed);
    d.changed();
  });
  d.observe({ type: "ready", serverId: entry.serverId, workspace: entry.root, pid: client.pid });
  d.changed();
}

/** Stops the process once it has been idle for its idle time, unless a query used it meanwhile. */
function scheduleIdle(d: ProcessDeps, entry: Entry) {
  clearTimeout(entry.idle);
  const scheduledAt = entry.lastUsedAt;
  entry.idle = setTimeout(() => {
    void d.serialized(entry.root, undefined, async () => {
      // A query that ran while this waited in the queue keeps the server (and scheduled its own timer).
      if (!entry.client || entry.retired || entry.lastUsedAt !== scheduledAt) return;
      if (entry.documents?.client === entry.client) entry.documents.closeAll("idle");
      await stopProcess(d, entry, "stopped");
    }).catch(() => {});
  }, entry.config.idleTimeoutMs);
  entry.idle.unref();
}
