/* Types the pool shares with its parts (pool-process.ts, exchange.ts, replace-once.ts), apart so none of them imports pool.ts. */

/** What the pool needs to start a provider's server. */
export interface PoolServerConfig {
  id: string;
  command: string;
  args: readonly string[];
  initializationOptions?: Record<string, unknown>;
  /** Answers `workspace/configuration` (LSP-8). */
  settings?: Record<string, unknown>;
  idleTimeoutMs: number;
}

/** Observation points, for tests and diagnostics. Listener errors are ignored. */
export type PoolEvent =
  | { type: "spawn" | "ready" | "exit" | "replace"; serverId: string; workspace: string; pid?: number }
  | { type: "request" | "response" | "didChangeWatchedFiles"; serverId: string; workspace: string; pid: number; uri: string; method?: string }
  | { type: "didOpen" | "didChange"; serverId: string; workspace: string; pid: number; uri: string; version: number }
  | { type: "didClose"; serverId: string; workspace: string; pid: number; uri: string; reason: "deleted" | "evicted" | "idle" | "unreadable" }
  /** A query waits before asking (again): open work-done progress, or an empty answer from a young server (LSP-8). */
  | { type: "wait"; serverId: string; workspace: string; pid: number; uri: string; why: "progress" | "empty"; ms: number };

/** How a file changed, for `workspace/didChangeWatchedFiles` (LSP FileChangeType). */
export type FileChange = "created" | "changed" | "deleted";
