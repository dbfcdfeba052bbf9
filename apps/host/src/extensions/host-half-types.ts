import type { Disposer } from "../core/scope.js";
import type { ToolRegistry } from "../agent/registry.js";

/** The host half's types, apart from the runner so its parts (host-half-*.ts) can share them without a cycle. */

export type HostHalfState = "running" | "stopped" | "crashed" | "limit_exceeded";

/** Limits of one host half (SPEC EXT-3). Every field has a default; see README.md. */
export interface HostHalfLimits {
  /** Old-generation heap of the worker, MB. */
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
  stackSizeMb: number;
  /** Synchronous budget of the top-level evaluation (vm `timeout`). */
  evalTimeoutMs: number;
  /** The worker must start, evaluate and drain the evaluation's microtasks within this. */
  evalBudgetMs: number;
  /** After start, a callback (timer, promise, listener, handler) that keeps the worker busy this long gets it terminated. */
  watchdogMs: number;
  heartbeatMs: number;
  /** Per-call timeout of the tools it registers and of `request`. */
  callTimeoutMs: number;
  maxTools: number;
  maxTimers: number;
  /** Timer callbacks run per second; later ones wait for the next second (deferred, reported once a second). */
  maxTimerCallbacksPerSecond: number;
  /** `send`, `events.emit` and `log` together; the excess is dropped and reported. */
  maxMessagesPerSecond: number;
  maxLogLines: number;
  maxLogLineChars: number;
  /** JSON characters of one tool or handler result; over it the call fails `result_too_large`. */
  maxResultChars: number;
  /** JSON characters of one `send`, `events.emit`, `log` (and any other API call's) payload; over it the API call throws. */
  maxPayloadChars: number;
  /**
   * Nesting of objects and arrays in anything crossing the bridge (results, `send`/`emit` payloads,
   * schemas, service arguments); deeper results fail `result_too_deep`, deeper payloads throw.
   */
  maxJsonDepth: number;
  /** Messages to the browser half kept until taken. */
  maxQueuedSends: number;
}

export const DEFAULT_LIMITS: HostHalfLimits = {
  maxOldGenerationSizeMb: 64,
  maxYoungGenerationSizeMb: 16,
  stackSizeMb: 4,
  evalTimeoutMs: 1_000,
  evalBudgetMs: 5_000,
  watchdogMs: 2_000,
  heartbeatMs: 100,
  callTimeoutMs: 10_000,
  maxTools: 50,
  maxTimers: 100,
  // 10 ms apart on average: plenty for polling and debouncing (a host half drives no rendering), and a
  // self-re-arming 0 ms chain (a busy loop in disguise, ~1,000/s under Node's 1 ms clamp) costs a tenth.
  maxTimerCallbacksPerSecond: 100,
  maxMessagesPerSecond: 200,
  maxLogLines: 200,
  maxLogLineChars: 2_000,
  maxResultChars: 256 * 1024,
  maxPayloadChars: 64 * 1024,
  // Far more than real data nests, far less than any recursive reader (structured clone, the page's JSON view) copes with.
  maxJsonDepth: 128,
  maxQueuedSends: 200,
};

/** What the extension sends out: browser-half messages (`send`) and events (`events.emit`). */
export type Outbound = { kind: "send"; message: unknown } | { kind: "emit"; name: string; payload: unknown };

export interface HostHalf {
  readonly sessionId: string;
  readonly packageName: string;
  readonly version: string;
  state(): HostHalfState;
  lastFailure(): string | null;
  /** The most recent log lines (bounded), oldest first. */
  logs(): string[];
  /** How many lines were ever logged: changes whenever `logs()` does. */
  logCount(): number;
  /** Names of the tools it currently has registered in the session. */
  tools(): string[];
  /** The services it currently provides. */
  services(): ProvidedService[];
  /** Calls a method of a service it provides; rejects like `call`. */
  callService(service: string, method: string, args: unknown, signal?: AbortSignal): Promise<unknown>;
  /** Resolves with the final state once it stops running, for whatever reason. */
  readonly exited: Promise<HostHalfState>;
  /** Calls one of its tools; rejects with HostError (`not_running`, `extension_timeout`, `extension_tool_failed`, …). */
  call(tool: string, args: unknown, signal?: AbortSignal): Promise<unknown>;
  /** A call from its browser half to `api.handle(method, fn)`. */
  request(method: string, params: unknown, signal?: AbortSignal): Promise<unknown>;
  /** Delivers a host event to its `api.events.on(name, …)` listeners. */
  emit(name: string, payload: unknown): void;
  /** Takes the queued `api.send` messages for the browser half (oldest first). */
  takeSent(): unknown[];
  onOutbound(fn: (message: Outbound) => void): Disposer;
  /** Terminates the worker and disposes everything it registered; idempotent. */
  stop(): Promise<void>;
}

/** Services a host half may call (`api.web.*`, `api.services.call`); each gets the run's abort signal. */
export interface HostHalfServices {
  web?: {
    fetch(args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
    search(args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  };
  /** Any other service name: one another extension provides (`api.services.provide`). */
  call?(service: string, method: string, args: unknown, signal: AbortSignal): Promise<unknown>;
}

/** A service this host half provides with `api.services.provide`. */
export interface ProvidedService { name: string; methods: string[] }

export interface StartHostHalfOptions {
  sessionId: string;
  packageName: string;
  version: string;
  /** The host-half source (a script, not a module). */
  code: string;
  registry: ToolRegistry;
  limits?: Partial<HostHalfLimits>;
  services?: HostHalfServices;
}
