import { pathToFileURL } from "node:url";
import type { LspOperation, LspProcessView } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import { workspaceRoot } from "../workspace/contain.js";
import type { Loaded } from "./exchange.js";
import { poolProcesses } from "./pool-process.js";
import { askReplacingOnce } from "./replace-once.js";
import { lastExtension, type ProviderRegistry } from "./registry.js";
import { hoverMarkdown, locationsOf, type RawLocation } from "./results.js";
import { contained, readSource, realOrNull } from "./source.js";
import type { FileChange, PoolEvent, PoolServerConfig } from "./pool-types.js";
import { workspaceQueues } from "./workspace-queue.js";

export type { FileChange, PoolEvent, PoolServerConfig } from "./pool-types.js";

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
  /**
   * Tells every running server of the file's workspace that Seam changed it (CODE-6, LSP-4), in order with
   * the workspace's queries. Servers that are not running learn it from disk when they start.
   */
  fileChanged(workspace: string, file: string, change: FileChange): Promise<void>;
}

const CHANGE_TYPE: Record<FileChange, number> = { created: 1, changed: 2, deleted: 3 };

export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;
const DEFAULT_BUDGET = { max: 4, windowMs: 180_000 };

/** Listeners watch, they do not steer: their errors are ignored (views are best-effort; the pool's state is already updated). */
const quietly = <A extends unknown[]>(fn: (...args: A) => void) => (...args: A) => {
  try {
    fn(...args);
  } catch {
    // Ignored on purpose (see above).
  }
};

/** Rejections of every settled promise that failed. */
const rejections = (results: PromiseSettledResult<unknown>[]) => results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));

export function createPool(scope: Scope, opts: PoolOptions): Pool {
  const maxBytes = opts.maxSourceBytes ?? MAX_SOURCE_BYTES;
  const timeoutMs = opts.requestTimeoutMs ?? 60_000;
  const budget = opts.restartBudget ?? DEFAULT_BUDGET;
  const changed = quietly(() => opts.onChange?.());
  const observe = quietly((event: PoolEvent) => opts.observe?.(event));
  const serialized = workspaceQueues();
  // The servers' scope is created now, so that process teardown stays ordered after whatever the owner adds later (routes).
  const { entries, entryFor, start, stopProcess, scheduleIdle } = poolProcesses({
    servers: scope.child("servers"), serverFor: (id) => opts.serverFor(id), restartBudget: budget, serialized, changed, observe,
  });

  const ask = askReplacingOnce({ start, stopProcess, scheduleIdle, changed, observe, budgetWindowMs: budget.windowMs });

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
        const raw = await ask(entry, loaded, signal);
        return {
          operation: input.operation, serverId: entry.serverId, root, file, source: loaded.source,
          locations: input.operation === "hover" ? [] : locationsOf(raw),
          hover: input.operation === "hover" ? hoverMarkdown(raw) : null,
        };
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
      const failures = rejections(await Promise.allSettled(roots.map((root) => serialized(root, undefined, async () => {
        const entry = entryFor(serverId, root);
        entry.config = opts.serverFor(serverId) ?? entry.config;
        entry.broken = null;
        entry.budget.reset();
        await stopProcess(entry);
        await start(entry);
      }))));
      if (failures.length === 1) throw failures[0];
      if (failures.length > 1) throw new AggregateError(failures, `${failures.length} processes of "${serverId}" did not restart: ${failures.map(messageOf).join("; ")}`);
    },

    async disposeServer(serverId) {
      const doomed = [...entries.values()].filter((e) => e.serverId === serverId);
      for (const e of doomed) {
        e.retired = true;
        entries.delete(e.key);
      }
      const failures = rejections(await Promise.allSettled(doomed.map((e) => stopProcess(e))));
      changed();
      if (failures.length > 0) throw new AggregateError(failures, `Stopping "${serverId}" failed: ${failures.map(messageOf).join("; ")}`);
    },

    async fileChanged(workspace, file, change) {
      const root = realOrNull(workspace);
      if (!root) return;
      const live = [...entries.values()].filter((e) => e.root === root && e.client && !e.client.closed);
      if (live.length === 0) return;
      const uri = pathToFileURL(file).href;
      await serialized(root, undefined, async () => {
        for (const e of live) {
          if (!e.client || e.client.closed || e.pid === null) continue;
          observe({ type: "didChangeWatchedFiles", serverId: e.serverId, workspace: root, pid: e.pid, uri });
          await e.client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri, type: CHANGE_TYPE[change] }] }).catch(() => {});
        }
      });
    },
  };


  scope.add(async () => {
    const ids = [...new Set([...entries.values()].map((e) => e.serverId))];
    const failures = rejections(await Promise.allSettled(ids.map((id) => pool.disposeServer(id))));
    if (failures.length > 0) throw new AggregateError(failures, `The language server pool did not stop cleanly: ${failures.map(messageOf).join("; ")}`);
  }, "lsp:pool");

  return pool;
}
