import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { LspOperation, LspProcessView } from "@seam/shared";
import { HostError, isHostError, messageOf } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import { isInside, realpathOfExistingPrefix, workspaceRoot } from "../workspace/contain.js";
import { MAX_OPEN_DOCUMENTS } from "./documents.js";
import type { ExchangeOptions, Loaded } from "./exchange.js";
import { poolProcesses, type Entry } from "./pool-process.js";
import { DEFAULT_READINESS, type ReadinessOptions } from "./readiness.js";
import { askReplacingOnce } from "./replace-once.js";
import { lastExtension, type ProviderRegistry } from "./registry.js";
import { hoverMarkdown, locationsOf, type RawLocation } from "./results.js";
import { contained, readCapped, readSource, realOrNull } from "./source.js";
import type { FileChange, PoolEvent, PoolServerConfig } from "./pool-types.js";
import { deadline, workspaceQueues } from "./workspace-queue.js";

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
  /** Documents kept open per server process; the least recently used beyond it are closed (default 200). */
  maxOpenDocuments?: number;
  /** How long a query waits for a server that may still be indexing (LSP-8). */
  readiness?: Partial<ReadinessOptions>;
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
  /** findReferences: list the declaration itself too (default false, LSP-8). Ignored by other operations. */
  includeDeclaration?: boolean;
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
  /** The server may still have been indexing: work-done progress outlasted the wait, or it answered nothing while young (LSP-8). */
  mayBeIncomplete: boolean;
}

export interface Pool {
  /**
   * On the workspace's queue: read the file, bring the server's open document up to date (didOpen, didChange or
   * nothing), ask once the server is ready (LSP-8); one replacement on transport failure (LSP-4).
   */
  query(input: QueryInput): Promise<QueryResult>;
  processes(serverId?: string): LspProcessView[];
  /** Restarts a server's processes (one workspace's, or all); a workspace without one gets it started. */
  restart(serverId: string, workspace?: string): Promise<void>;
  /** Stops and forgets every process of a server; rejects with the aggregated failures after all settled. */
  disposeServer(serverId: string): Promise<void>;
  /**
   * Tells every running server of the file's workspace that Seam changed it (CODE-6, LSP-4), in order with
   * the workspace's queries: an open document gets the new text (didChange) or is closed (deleted), then
   * `workspace/didChangeWatchedFiles`. Servers that are not running learn it from disk when they start.
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
  const maxOpenDocuments = opts.maxOpenDocuments ?? MAX_OPEN_DOCUMENTS;
  if (!Number.isInteger(maxOpenDocuments) || maxOpenDocuments < 1) throw new HostError("bad_input:lsp", `maxOpenDocuments must be a positive integer, not ${maxOpenDocuments}.`, { reason: "invalid_config" });
  const timeoutMs = opts.requestTimeoutMs ?? 60_000;
  const budget = opts.restartBudget ?? DEFAULT_BUDGET;
  const changed = quietly(() => opts.onChange?.());
  const observe = quietly((event: PoolEvent) => opts.observe?.(event));
  const serialized = workspaceQueues();
  // The servers' scope is created now, so that process teardown stays ordered after whatever the owner adds later (routes).
  const { entries, entryFor, start, stopProcess, scheduleIdle } = poolProcesses({
    servers: scope.child("servers"), serverFor: (id) => opts.serverFor(id), restartBudget: budget, serialized, changed, observe,
  });

  const exchangeOptions: ExchangeOptions = { maxOpenDocuments, maxSourceBytes: maxBytes, readiness: { ...DEFAULT_READINESS, ...opts.readiness }, observe };
  const ask = askReplacingOnce({ start, stopProcess, scheduleIdle, changed, observe, budgetWindowMs: budget.windowMs, exchange: exchangeOptions });

  /** The workspace's entries with a live process. */
  const live = (root: string) => [...entries.values()].filter((e) => e.root === root && e.client && !e.client.closed);
  const openOn = (e: Entry, file: string) => (e.documents && e.documents.client === e.client && e.documents.isOpen(file) ? e.documents : undefined);

  /** Brings the open documents of `file` up to date with the disk, on every live server of `root` (run it on the queue). */
  const resync = async (root: string, file: string, deleted: boolean) => {
    for (const e of live(root)) {
      const docs = openOn(e, file);
      if (!docs) continue;
      if (deleted) {
        docs.close(file, "deleted");
        continue;
      }
      try {
        const { text, stamp } = await readCapped(file, file, maxBytes);
        docs.sync(file, text, stamp);
      } catch (error) {
        docs.close(file, isHostError(error) && error.data?.reason === "not_found" ? "deleted" : "unreadable");
      }
    }
  };

  /** A query found its file gone or unreadable: servers holding it open close it. */
  const forget = async (root: string, requested: string, error: unknown) => {
    if (!isHostError(error) || !["not_found", "file_too_large", "not_a_file"].includes(String(error.data?.reason))) return;
    const file = realOrNull(resolve(root, requested)) ?? await realpathOfExistingPrefix(resolve(root, requested));
    if (!isInside(root, file) || !live(root).some((e) => openOn(e, file))) return;
    await serialized(root, undefined, () => resync(root, file, error.data?.reason === "not_found"));
  };

  const queryWithin = async (input: QueryInput, signal: AbortSignal): Promise<QueryResult> => {
    const root = realOrNull(input.workspace) ?? await workspaceRoot(input.workspace);
    let file: string;
    try {
      file = await contained(root, input.filePath);
    } catch (error) {
      await forget(root, input.filePath, error);
      throw error;
    }
    const provider = opts.registry.route(file);
    if (!provider) {
      const known = opts.registry.providers().flatMap((p) => p.extensions);
      const ext = lastExtension(file);
      throw new HostError("not_found:lsp", `No language server handles ${ext ? `${ext} files` : "files without an extension"}${known.length ? ` (configured: ${known.join(" ")})` : " (none is configured)"}. Use grep or read_file instead.`, { reason: "no_server" });
    }
    return serialized(root, signal, async () => {
      let source: Awaited<ReturnType<typeof readSource>>;
      try {
        source = await readSource(file, input, maxBytes);
      } catch (error) {
        if (isHostError(error) && error.data?.reason !== "invalid_position") await resync(root, file, error.data?.reason === "not_found");
        throw error;
      }
      const loaded: Loaded = { ...source, file, operation: input.operation, includeDeclaration: input.includeDeclaration ?? false };
      const entry = entryFor(provider.id, root);
      const { raw, mayBeIncomplete } = await ask(entry, loaded, signal);
      return {
        operation: input.operation, serverId: entry.serverId, root, file, source: loaded.source,
        locations: input.operation === "hover" ? [] : locationsOf(raw),
        hover: input.operation === "hover" ? hoverMarkdown(raw) : null,
        mayBeIncomplete,
      };
    });
  };

  const pool: Pool = {
    async query(input) {
      const { signal, done } = deadline(timeoutMs, input.signal);
      try {
        return await queryWithin(input, signal);
      } finally {
        done();
      }
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
      if (!root || live(root).length === 0) return;
      const real = realOrNull(file) ?? await realpathOfExistingPrefix(file);
      const uri = pathToFileURL(real).href;
      await serialized(root, undefined, async () => {
        await resync(root, real, change === "deleted");
        for (const e of live(root)) {
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
