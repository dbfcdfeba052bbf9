import type { ApprovalBroker } from "../permissions/broker.js";
import type { RunDecision } from "./context.js";
import type {
  ApprovalAnswerInput, BridgeMessage, ExtensionPackageView, ExtensionRunView, ExtensionSettings, ExtensionSettingsInput,
  ExtensionsSnapshot, ExtensionVersionSource,
} from "@seam/shared";
import type { ToolRegistry } from "../agent/registry.js";
import type { Store } from "../persistence/store.js";
import type { HostHalfLimits } from "./host-half-types.js";
import type { ServiceInfo } from "./run-services.js";
import type { ExtensionStore } from "./store.js";

/* The extension service's types, apart from service.ts so its parts (page-api.ts, run-lifecycle.ts…) share them without a cycle. */

export interface DefineInput { name: string; purpose: string; host?: string; browser?: string }
export interface DefineResult { name: string; version: number; hash: string; created: boolean; halves: ("host" | "browser")[] }
export interface RunResult {
  name: string; version: number; runId: string; state: "running"; tools: string[];
  browser: "none" | "rendered" | "pending";
  approvedBy: "user" | "grant" | "setting" | "earlier";
}

export interface ExtensionsOptions {
  extStore: ExtensionStore;
  store: Pick<Store, "settings" | "sessions">;
  registry: ToolRegistry;
  limits?: Partial<HostHalfLimits>;
  /** How long `run` waits for an open page to render a browser half. Default 5 s. */
  browserWaitMs?: number;
  /** The host's one approval machinery (PERM-3); a private one when absent (tests). */
  broker?: ApprovalBroker;
  /** Writes each run decision to the permissions audit log (PERM-4). */
  audit?: (entry: RunDecision) => Promise<void>;
}


export interface Extensions {
  define(sessionId: string, input: DefineInput): Promise<DefineResult>;
  /** Asks for approval unless a grant or setting allows it, then starts the halves; refuses with the EXT-1 codes. */
  run(sessionId: string, input: { name: string; version?: number }, signal: AbortSignal): Promise<RunResult>;
  stop(sessionId: string, name: string): Promise<{ name: string; version: number; stopped: true }>;
  undefine(sessionId: string, name: string): Promise<{ name: string; versions: number; stopped: boolean }>;
  /** This session's packages with their runs (another session's packages are absent). */
  packages(sessionId: string): Promise<{ pkg: ExtensionPackageView; run: ExtensionRunView | null }[]>;
  /** What `api.services.call` can reach in this session. */
  services(sessionId: string): ServiceInfo[];
  /** Stops a deleted session's runs and withdraws its run requests. */
  forgetSession(sessionId: string): Promise<void>;
  api: Api & {
    /** The snapshot now, then after each burst of changes (live topic `extensions`). */
    events(signal: AbortSignal): AsyncIterable<ExtensionsSnapshot>;
    /**
     * What host halves `api.send` to their browser halves, live from now on: of one run (ending when it
     * ends), or of every run when `runId` is omitted (live topic `bridge`: one stream per page serves all its frames).
     */
    bridge(signal: AbortSignal, runId?: string): AsyncIterable<BridgeMessage>;
  };
}

/** What the tRPC layer calls (`HostApi["extensions"]`): packages, runs, approvals, grants and the browser half's calls (EXT-4..6). */
export interface Api {
  snapshot(): Promise<ExtensionsSnapshot>;
  /** not_found:extensions when the package or version is unknown. */
  source(input: { packageId: string; version: number }): Promise<ExtensionVersionSource>;
  /** First answer wins; a later one gets conflict:extensions (`already_answered`), an unknown id not_found:extensions. */
  answer(input: ApprovalAnswerInput): Promise<void>;
  revokeGrant(input: { packageId: string }): Promise<void>;
  stop(input: { runId: string }): Promise<void>;
  /** A browser half's call to its host half's `api.handle(method, …)`. */
  call(input: { runId: string; method: string; params: unknown }): Promise<unknown>;
  /** A page reports rendering the run's browser half (EXT-4). */
  reportBrowser(input: { runId: string; ok: boolean; message?: string }): Promise<void>;
  setSettings(input: ExtensionSettingsInput): Promise<ExtensionSettings>;
}
