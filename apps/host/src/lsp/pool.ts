import { readFileSync, realpathSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { LspOperation, LspProcessView } from "@seam/shared";
import { HostError, isHostError, messageOf } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import { createRestartBudget, type RestartBudget, type RestartDecision, type RestartPolicy } from "../core/supervisor.js";
import { isInside, resolveInside, workspaceRoot } from "../workspace/contain.js";
import { startClient, type LspClient } from "./client.js";
import { languageIdOf } from "./language.js";
import { lastExtension, type ProviderRegistry } from "./registry.js";
import { hoverMarkdown, locationsOf, splitLines, type RawLocation } from "./results.js";

/** What the pool needs to start a provider's server. */
export interface PoolServerConfig {
  id: string;
  command: string;
  args: readonly string[];
  initializationOptions?: Record<string, unknown>;
  idleTimeoutMs: number;
}

/** Observation points, for tests and diagnostics. Listener errors are ignored. */
export type PoolEvent =
  | { type: "spawn" | "ready" | "exit" | "replace"; serverId: string; workspace: string; pid?: number }
  | { type: "didOpen" | "request" | "response" | "didClose"; serverId: string; workspace: string; pid: number; uri: string; method?: string };

export interface PoolOptions {
  registry: ProviderRegistry;
  /** The live config of a registered provider. */
  serverFor(id: string): PoolServerConfig | undefined;
  /** Source files larger than this are refused (default 2 MiB). */
  maxSourceBytes?: number;
  /** A query (start-up included) gives up after this long (default 60 s). */
  requestTimeoutMs?: number;
  /** More transport failures than `max` within `windowMs` mark the process failed until a restart (default 4 in 3 min). */
  restartBudget?: { max: number; windowMs: number };
  onChange?(): void;
  observe?(event: PoolEvent): void;
}

export interface QueryInput {
  workspace: string;
  filePath: string;
  operation: LspOperation;
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  character: number;
  signal?: AbortSignal;
}

export interface QueryResult {
  operation: LspOperation;
  serverId: string;
  /** The canonical workspace. */
  root: string;
  /** The queried file's real path. */
  file: string;
  /** The text the server was given. */
  source: string;
  locations: RawLocation[];
  hover: string | null;
}

export interface Pool {
  /** read → didOpen → query → didClose on the workspace's queue; one replacement on transport failure (LSP-4). */
  query(input: QueryInput): Promise<QueryResult>;
  processes(serverId?: string): LspProcessView[];
  /** Restarts a server's processes (one workspace's, or all); a workspace without one gets it started. */
  restart(serverId: string, workspace?: string): Promise<void>;
  /** Stops and forgets every process of a server; rejects with the aggregated failures after all settled. */
  disposeServer(serverId: string): Promise<void>;
}

const METHODS: Record<LspOperation, { method: string; capability: string }> = {
  goToDefinition: { method: "textDocument/definition", capability: "definitionProvider" },
  findReferences: { method: "textDocument/references", capability: "referencesProvider" },
  goToImplementation: { method: "textDocument/implementation", capability: "implementationProvider" },
  hover: { method: "textDocument/hover", capability: "hoverProvider" },
};

export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;
const DEFAULT_BUDGET = { max: 4, windowMs: 180_000 };

/** LSP-4 as the core supervisor's schedule: a query replaces its server once, at once; the budget spans queries. */
const replaceOnce = (budget: { max: number; windowMs: number }): RestartPolicy => ({ initialDelayMs: 0, factor: 1, maxDelayMs: 0, maxAttempts: 1, budget });

interface Entry {
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
  versions: number;
}

/** A failure of the process or its pipes: the one kind a read-only query is replayed after. */
const isTransportFailure = (e: unknown) =>
  isHostError(e) && (e.data?.reason === "server_exited" || e.data?.reason === "server_failed" || e.data?.reason === "spawn_failed");

export function createPool(scope: Scope, opts: PoolOptions): Pool {
  const maxBytes = opts.maxSourceBytes ?? MAX_SOURCE_BYTES;
  const timeoutMs = opts.requestTimeoutMs ?? 60_000;
  const budget = opts.restartBudget ?? DEFAULT_BUDGET;
  /** Created now, so that process teardown stays ordered after whatever the owner adds later (routes). */
  const servers = scope.child("servers");
  const entries = new Map<string, Entry>();
  /** One serial queue per canonical workspace (LSP-4). */
  const queues = new Map<string, Promise<void>>();
  let seq = 0;

  const changed = () => {
    try {
      opts.onChange?.();
    } catch {
      // Views are best-effort; the pool's state is already updated.
    }
  };
  const observe = (event: PoolEvent) => {
    try {
      opts.observe?.(event);
    } catch {
      // Observers watch; they do not steer.
    }
  };

  const serialized = async <T>(root: string, signal: AbortSignal | undefined, job: () => Promise<T>): Promise<T> => {
    const previous = queues.get(root) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => { release = r; });
    const tail = previous.then(() => mine);
    queues.set(root, tail);
    try {
      await untilAborted(previous, signal);
      return await job();
    } finally {
      release();
      if (queues.get(root) === tail) queues.delete(root);
    }
  };

  const entryFor = (serverId: string, root: string): Entry => {
    const key = `${serverId}\u0000${root}`;
    let entry = entries.get(key);
    const config = opts.serverFor(serverId);
    if (!config) throw new HostError("closed:lsp", `The language server "${serverId}" was removed.`, { reason: "server_stopped" });
    if (!entry) {
      entry = {
        key, serverId, root, config, scope: undefined, client: undefined, spawning: undefined, state: "stopped", pid: null, restarts: 0, budget: createRestartBudget(replaceOnce(budget)),
        broken: null, startedAt: null, lastUsedAt: null, lastError: null, stderrTail: () => "", idle: undefined, retired: false, versions: 0,
      };
      entries.set(key, entry);
    }
    return entry;
  };

  /** Stops the entry's process (routes are the caller's business); the entry stays for its view. */
  const stopProcess = async (entry: Entry, state: LspProcessView["state"] = "stopped") => {
    clearTimeout(entry.idle);
    const { scope: serverScope, client } = entry;
    entry.client = undefined;
    entry.scope = undefined;
    entry.spawning = undefined;
    if (client) entry.stderrTail = client.stderrTail;
    if (serverScope) {
      entry.state = "stopping";
      changed();
      try {
        await serverScope.dispose();
      } finally {
        if (!entry.client) {
          entry.state = state;
          entry.pid = null;
        }
        changed();
      }
    } else if (entry.state !== "failed") {
      entry.state = state;
      changed();
    }
  };

  const start = (entry: Entry): Promise<LspClient> => {
    if (entry.client && !entry.client.closed) return Promise.resolve(entry.client);
    if (entry.spawning) return entry.spawning;
    if (entry.retired) return Promise.reject(new HostError("closed:lsp", `The language server "${entry.serverId}" was stopped.`, { reason: "server_stopped" }));
    const config = entry.config;
    const serverScope = servers.child(`${config.id}#${++seq}`);
    entry.scope = serverScope;
    entry.state = "starting";
    entry.pid = null;
    changed();
    observe({ type: "spawn", serverId: entry.serverId, workspace: entry.root });
    let spawning: Promise<LspClient> | undefined = undefined;
    spawning = (async () => {
      try {
        const client = await startClient(serverScope, {
          label: `lsp:${config.id}`, command: config.command, args: config.args, root: entry.root, initializationOptions: config.initializationOptions,
        });
        if (entry.scope !== serverScope) {
          await serverScope.dispose().catch(() => {});
          throw new HostError("closed:lsp", `The language server "${entry.serverId}" was stopped while it started.`, { reason: "server_stopped" });
        }
        entry.client = client;
        entry.pid = client.pid;
        entry.state = "ready";
        entry.startedAt = new Date().toISOString();
        entry.stderrTail = client.stderrTail;
        client.onClose((error, expected) => {
          observe({ type: "exit", serverId: entry.serverId, workspace: entry.root, pid: client.pid });
          if (expected || entry.client !== client) return;
          entry.client = undefined;
          entry.state = "failed";
          entry.lastError = error.message;
          // The tree may outlive its leader; the scope's teardown kills the whole process group.
          if (entry.scope === serverScope) entry.scope = undefined;
          void serverScope.dispose().catch(() => {}).finally(changed);
          changed();
        });
        observe({ type: "ready", serverId: entry.serverId, workspace: entry.root, pid: client.pid });
        changed();
        return client;
      } catch (error) {
        if (entry.scope === serverScope) {
          entry.scope = undefined;
          entry.state = "failed";
          entry.pid = null;
          entry.lastError = messageOf(error);
        }
        await serverScope.dispose().catch(() => {});
        changed();
        throw error;
      } finally {
        if (entry.spawning === spawning) entry.spawning = undefined;
      }
    })();
    entry.spawning = spawning;
    return spawning!;
  };

  const scheduleIdle = (entry: Entry) => {
    clearTimeout(entry.idle);
    const scheduledAt = entry.lastUsedAt;
    entry.idle = setTimeout(() => {
      void serialized(entry.root, undefined, async () => {
        // A query that ran while this waited in the queue keeps the server (and scheduled its own timer).
        if (entry.client && !entry.retired && entry.lastUsedAt === scheduledAt) await stopProcess(entry, "stopped");
      }).catch(() => {});
    }, entry.config.idleTimeoutMs);
    entry.idle.unref();
  };

  /** Counts a transport failure and decides on a replacement; over budget the process is failed until restarted. */
  const recordFailure = (entry: Entry, error: unknown): RestartDecision => {
    const decision = entry.budget.failed();
    entry.lastError = messageOf(error);
    if (entry.budget.spent()) {
      entry.broken = `It failed ${entry.budget.recentFailures()} times within ${Math.round(budget.windowMs / 60_000)} min (last: ${messageOf(error)}). Restart it in Settings → Language servers.`;
      entry.state = "failed";
    }
    changed();
    return decision;
  };

  const exchange = async (entry: Entry, client: LspClient, q: Loaded, signal: AbortSignal) => {
    const { method, capability } = METHODS[q.operation];
    if (!client.capabilities[capability]) {
      throw new HostError("unavailable:lsp", `${q.operation} is not supported by this language server ("${entry.serverId}" does not offer ${method}). Use another operation, or grep/read_file.`, {
        reason: "operation_unsupported", operation: q.operation,
      });
    }
    const uri = pathToFileURL(q.file).href;
    const base = { serverId: entry.serverId, workspace: entry.root, pid: client.pid, uri };
    observe({ type: "didOpen", ...base });
    // The connection writes in order, so the request can follow didOpen without waiting for its write.
    const opened = client.notify("textDocument/didOpen", { textDocument: { uri, languageId: languageIdOf(q.file), version: ++entry.versions, text: q.source } });
    opened.catch(() => {});
    try {
      const params = { textDocument: { uri }, position: { line: q.line - 1, character: q.character - 1 }, ...(q.operation === "findReferences" ? { context: { includeDeclaration: true } } : {}) };
      observe({ type: "request", ...base, method });
      const [, result] = await Promise.all([opened, client.request<unknown>(method, params, signal)]);
      observe({ type: "response", ...base, method });
      return result;
    } finally {
      if (!client.closed) {
        observe({ type: "didClose", ...base });
        // Queued behind the request on the same writer: the next query's didOpen cannot overtake it.
        client.notify("textDocument/didClose", { textDocument: { uri } }).catch(() => {});
      }
    }
  };

  const pool: Pool = {
    async query(input) {
      const signal = input.signal ? AbortSignal.any([input.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
      const root = realOrNull(input.workspace) ?? await workspaceRoot(input.workspace);
      const file = await contained(root, input.filePath);
      const provider = opts.registry.route(file);
      if (!provider) {
        const known = opts.registry.providers().flatMap((p) => p.extensions);
        const ext = lastExtension(file);
        throw new HostError("not_found:lsp", `No language server handles ${ext ? `${ext} files` : "files without an extension"}${known.length ? ` (configured: ${known.join(" ")})` : " (none is configured)"}. Use grep or read_file instead.`, { reason: "no_server" });
      }
      return serialized(root, signal, async () => {
        const loaded: Loaded = { ...(await readSource(file, input, maxBytes)), file, operation: input.operation };
        const entry = entryFor(provider.id, root);
        entry.budget.resetAttempts(); // each query may replace its server once
        for (;;) {
          if (entry.broken) throw new HostError("unavailable:lsp", `The language server "${entry.serverId}" is failing: ${entry.broken}`, { reason: "server_failed" });
          try {
            const client = await untilAborted(start(entry), signal);
            clearTimeout(entry.idle);
            const raw = await exchange(entry, client, loaded, signal);
            entry.lastUsedAt = new Date().toISOString();
            scheduleIdle(entry);
            changed();
            return {
              operation: input.operation, serverId: entry.serverId, root, file, source: loaded.source,
              locations: input.operation === "hover" ? [] : locationsOf(raw),
              hover: input.operation === "hover" ? hoverMarkdown(raw) : null,
            };
          } catch (error) {
            if (signal.aborted || !isTransportFailure(error)) throw error;
            const decision = recordFailure(entry, error);
            if (!decision.restart && decision.reason === "exhausted") {
              throw new HostError("unavailable:lsp", `The language server "${entry.serverId}" failed twice while answering ${input.operation}: ${messageOf(error)}`, { reason: "server_failed" }, { cause: error });
            }
            // Replace it once and replay: every operation is read-only. Over budget it is stopped all the same, and the check above refuses it.
            entry.restarts++;
            observe({ type: "replace", serverId: entry.serverId, workspace: root, pid: entry.pid ?? undefined });
            await stopProcess(entry, "failed");
          }
        }
      });
    },

    processes(serverId) {
      return [...entries.values()].filter((e) => serverId === undefined || e.serverId === serverId).map((e) => ({
        serverId: e.serverId, workspace: e.root, state: e.state, pid: e.pid, restarts: e.restarts, startedAt: e.startedAt,
        lastUsedAt: e.lastUsedAt, lastError: e.broken ?? e.lastError, stderrTail: e.stderrTail(),
      })).sort((a, b) => (a.serverId + a.workspace < b.serverId + b.workspace ? -1 : 1));
    },

    async restart(serverId, workspace) {
      const roots = workspace === undefined
        ? [...entries.values()].filter((e) => e.serverId === serverId).map((e) => e.root)
        : [await workspaceRoot(workspace)];
      const results = await Promise.allSettled(roots.map((root) => serialized(root, undefined, async () => {
        const entry = entryFor(serverId, root);
        entry.config = opts.serverFor(serverId) ?? entry.config;
        entry.broken = null;
        entry.budget.reset();
        await stopProcess(entry);
        await start(entry);
      })));
      const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
      if (failures.length === 1) throw failures[0];
      if (failures.length > 1) throw new AggregateError(failures, `${failures.length} processes of "${serverId}" did not restart: ${failures.map(messageOf).join("; ")}`);
    },

    async disposeServer(serverId) {
      const doomed = [...entries.values()].filter((e) => e.serverId === serverId);
      for (const e of doomed) {
        e.retired = true;
        entries.delete(e.key);
      }
      const results = await Promise.allSettled(doomed.map((e) => stopProcess(e)));
      changed();
      const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
      if (failures.length > 0) throw new AggregateError(failures, `Stopping "${serverId}" failed: ${failures.map(messageOf).join("; ")}`);
    },
  };

  scope.add(async () => {
    const ids = [...new Set([...entries.values()].map((e) => e.serverId))];
    const results = await Promise.allSettled(ids.map((id) => pool.disposeServer(id)));
    const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
    if (failures.length > 0) throw new AggregateError(failures, `The language server pool did not stop cleanly: ${failures.map(messageOf).join("; ")}`);
  }, "lsp:pool");

  return pool;
}

interface Loaded { file: string; source: string; operation: LspOperation; line: number; character: number }

/** Files up to this size are read synchronously: cheaper than four thread-pool round trips, and short. */
const SYNC_READ_BYTES = 256 * 1024;

const tooLarge = (requested: string, maxBytes: number) =>
  new HostError("bad_input:lsp", `${requested} is larger than ${Math.round(maxBytes / 1024)} KiB; the lsp tool reads at most that much. Use grep or read_file on it instead.`, { reason: "file_too_large" });

/** The whole file as UTF-8, refused when it is over `maxBytes`. */
async function readCapped(file: string, requested: string, maxBytes: number): Promise<string> {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new HostError("bad_input:lsp", `${requested} is not a regular file.`, { reason: "not_a_file" });
    size = stat.size;
  } catch (error) {
    if (isHostError(error)) throw error;
    throw new HostError("not_found:lsp", `Cannot read ${requested}: ${messageOf(error)}`, { reason: "not_found" }, { cause: error });
  }
  if (size > maxBytes) throw tooLarge(requested, maxBytes);
  if (size <= SYNC_READ_BYTES) {
    const bytes = readFileSync(file);
    if (bytes.length > maxBytes) throw tooLarge(requested, maxBytes);
    return bytes.toString("utf8");
  }
  const handle = await open(file, "r");
  try {
    // One byte more than allowed tells a file at the limit from one that grew past it since stat.
    const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length === buffer.length) break;
    }
    if (length > maxBytes) throw tooLarge(requested, maxBytes);
    return buffer.subarray(0, length).toString("utf8");
  } finally {
    await handle.close();
  }
}

/** Reads the whole file under the byte cap and checks the position against it (LSP columns are UTF-16). */
async function readSource(file: string, input: QueryInput, maxBytes: number): Promise<{ source: string; line: number; character: number }> {
  const source = await readCapped(file, input.filePath, maxBytes);
  const lines = splitLines(source);
  if (input.line > lines.length) {
    throw new HostError("bad_input:lsp", `line ${input.line} is past the end of ${input.filePath}, which has ${lines.length} lines.`, { reason: "invalid_position" });
  }
  const text = lines[input.line - 1]!;
  if (input.character > text.length + 1) {
    throw new HostError("bad_input:lsp", `character ${input.character} is past the end of line ${input.line}, which has ${text.length} UTF-16 code units.`, { reason: "invalid_position" });
  }
  const unit = text.charCodeAt(input.character - 1);
  const before = text.charCodeAt(input.character - 2);
  if (unit >= 0xdc00 && unit <= 0xdfff && before >= 0xd800 && before <= 0xdbff) {
    throw new HostError("bad_input:lsp", `character ${input.character} on line ${input.line} is the second half of a character that takes two UTF-16 code units (such as an emoji); use ${input.character - 1}.`, { reason: "invalid_position" });
  }
  return { source, line: input.line, character: input.character };
}

/**
 * The real path of `requested` inside `root` (already real). The common case costs one synchronous
 * realpath (a single syscall, far cheaper than a thread-pool round trip); anything unusual goes
 * through resolveInside for its errors.
 */
async function contained(root: string, requested: string): Promise<string> {
  if (!requested.includes("\0")) {
    const real = realOrNull(resolve(root, requested));
    if (real !== null && isInside(root, real)) return real;
  }
  return resolveInside(root, requested);
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/** Waits for `promise`, or rejects as soon as `signal` aborts (the promise keeps running). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => { signal.removeEventListener("abort", onAbort); resolve(v); },
      (e: unknown) => { signal.removeEventListener("abort", onAbort); reject(e); },
    );
  });
}

function abortReason(signal: AbortSignal): HostError {
  const reason: unknown = signal.reason;
  if (isHostError(reason)) return reason;
  if (reason instanceof Error && reason.name === "TimeoutError") return new HostError("timeout:lsp", "The language server did not answer in time.", { reason: "timeout" });
  return new HostError("closed:lsp", "The request was cancelled.", { reason: "cancelled" });
}
