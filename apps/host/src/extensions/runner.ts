import { Worker } from "node:worker_threads";
import { HostError, messageOf } from "../core/errors.js";
import type { Disposer, Scope } from "../core/scope.js";
import type { ToolRegistry } from "../agent/registry.js";
import type { JsonSchema, ToolDef, ToolResult } from "../agent/tool.js";

/** Plain ESM, so it loads as-is from src/ (vitest) and from dist/ (copied by scripts/copy-assets.mjs). */
const WORKER_URL = new URL("./worker.mjs", import.meta.url);

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
  /** `send`, `events.emit` and `log` together; the excess is dropped and reported. */
  maxMessagesPerSecond: number;
  maxLogLines: number;
  maxLogLineChars: number;
  /** JSON characters of one tool or handler result. */
  maxResultChars: number;
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
  maxMessagesPerSecond: 200,
  maxLogLines: 200,
  maxLogLineChars: 2_000,
  maxResultChars: 256 * 1024,
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

type FromWorker =
  | { t: "beat" | "ready" }
  | { t: "evalFailed"; limit: boolean; message: string }
  | { t: "register"; name: string; description: string; inputSchema: JsonSchema }
  | { t: "unregister"; name: string }
  | { t: "log"; line: string }
  | { t: "limit"; what: string; message: string }
  | { t: "dropped"; count: number }
  | { t: "emit"; name: string; payload: unknown }
  | { t: "send"; message: unknown }
  | { t: "result"; id: number; ok: true; value: unknown }
  | { t: "result"; id: number; ok: false; error: string; missing?: boolean }
  | { t: "failure"; where: string; message: string }
  | { t: "service"; id: number; service: string; method: string; args: unknown }
  | { t: "provide"; name: string; methods: string[] }
  | { t: "unprovide"; name: string };

interface Pending {
  resolve(value: unknown): void;
  reject(error: HostError): void;
  label: string;
}

const failed = (message: string, data: Record<string, unknown> = {}) =>
  new HostError("unavailable:extensions", message, { reason: "host_half_failed", ...data });

/**
 * Starts the host half of one extension version in a fresh worker (SPEC EXT-3). Resolves once the
 * top-level evaluation and its microtasks finished; rejects with HostError `host_half_failed`
 * (data.state says `crashed` or `limit_exceeded`) when it threw, looped or died first — with
 * everything it registered meanwhile already disposed. Tools it registers are session-owned and
 * live in a child of `scope`; disposing `scope` stops it.
 */
export function startHostHalf(scope: Scope, opts: StartHostHalfOptions): Promise<HostHalf> {
  const limits: HostHalfLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const label = `${opts.packageName}@${opts.version}`;
  const own = scope.child(`ext:${label}`);

  let current: HostHalfState | "starting" = "starting";
  let failure: string | null = null;
  const logLines: string[] = [];
  const sent: unknown[] = [];
  const toolDisposers = new Map<string, Disposer>();
  const provided = new Map<string, string[]>();
  const pending = new Map<number, Pending>();
  const outboundListeners = new Set<{ fn: (m: Outbound) => void }>();
  let nextCallId = 1;
  let lastSign = Date.now();
  let resolveExited!: (state: HostHalfState) => void;
  const exited = new Promise<HostHalfState>((resolve) => (resolveExited = resolve));
  let settleStart: ((error?: HostError) => void) | undefined;

  let logCount = 0;
  const log = (line: string) => {
    logCount++;
    logLines.push(line.length > limits.maxLogLineChars ? `${line.slice(0, limits.maxLogLineChars)}…` : line);
    if (logLines.length > limits.maxLogLines) logLines.splice(0, logLines.length - limits.maxLogLines);
  };

  const worker = new Worker(WORKER_URL, {
    workerData: { code: opts.code, filename: `extension:${label}/host.js`, limits },
    resourceLimits: {
      maxOldGenerationSizeMb: limits.maxOldGenerationSizeMb,
      maxYoungGenerationSizeMb: limits.maxYoungGenerationSizeMb,
      stackSizeMb: limits.stackSizeMb,
    },
    env: {},
    stdout: true,
    stderr: true,
  });
  // Nothing in the worker prints, but an unread pipe must never hold anything up.
  worker.stdout.resume();
  worker.stderr.resume();
  own.add(() => worker.terminate().then(() => undefined), "worker");
  own.add(() => {
    // Runs when the scope is disposed from outside (session end) as well as from finish().
    if (current === "running" || current === "starting") end("stopped", null);
  }, "state");

  /** Leaves the running state once: rejects pending work, then disposes everything it registered. */
  function end(state: HostHalfState, message: string | null, error?: HostError) {
    if (current !== "running" && current !== "starting") return;
    const wasStarting = current === "starting";
    current = state;
    failure = message ?? failure;
    if (message) log(`[${state}] ${message}`);
    const reason = error ?? (state === "stopped"
      ? new HostError("closed:extensions", `${label} was stopped.`, { reason: "not_running" })
      : failed(`${label} ${state === "crashed" ? "crashed" : "exceeded its limits"}: ${message}`, { state }));
    for (const p of pending.values()) p.reject(reason);
    pending.clear();
    // A failed start and `exited` settle once everything it registered is gone.
    void own.dispose().catch((e: unknown) => log(`[teardown] ${messageOf(e)}`)).finally(() => {
      if (wasStarting) settleStart?.(failed(`${label} failed to start: ${message ?? state}`, { state }));
      resolveExited(state);
    });
  }

  const registerTool = (name: string, description: string, inputSchema: JsonSchema) => {
    const tool: ToolDef = {
      name,
      description: description || `Tool of extension ${opts.packageName}.`,
      capability: "extensions",
      inputSchema,
      // The runner's own per-call timeout decides; the runtime's is a backstop.
      timeoutMs: limits.callTimeoutMs + 5_000,
      readOnly: false,
      approval: "auto",
      parse: (args) => ({ ok: true, value: args ?? {} }),
      run: async (args, ctx): Promise<ToolResult> => {
        const value = await half.call(name, args, ctx.signal);
        return { canonical: value ?? null, rendered: typeof value === "string" ? value : JSON.stringify(value ?? null) };
      },
    };
    try {
      const dispose = opts.registry.register(tool, { sessionId: opts.sessionId });
      const early = own.add(dispose, `tool:${name}`);
      toolDisposers.set(name, early);
    } catch (error) {
      const conflict = error instanceof HostError && error.kind === "conflict";
      const refusal = conflict
        ? new HostError("conflict:extensions", `Tool "${name}" is already registered in this session; pick another name.`, { reason: "duplicate_tool", name })
        : new HostError("bad_input:extensions", `Tool "${name}" was refused: ${messageOf(error)}`, { reason: "invalid_tool_name", name });
      log(`refused tool ${name}: [${refusal.publicCode}] ${refusal.message}`);
      failure = refusal.message;
    }
  };

  const invoke = (target: "tool" | "handle" | "service", name: string, args: unknown, signal?: AbortSignal, service?: string): Promise<unknown> => {
    if (current !== "running") {
      return Promise.reject(new HostError("closed:extensions", `${label} is not running (${current}).`, { reason: "not_running" }));
    }
    if (signal?.aborted) return Promise.reject(new HostError("closed:extensions", "The call was cancelled.", { reason: "cancelled" }));
    let json: unknown;
    try {
      json = JSON.parse(JSON.stringify(args ?? null));
    } catch (error) {
      return Promise.reject(new HostError("bad_input:extensions", `The arguments are not JSON: ${messageOf(error)}`));
    }
    const id = nextCallId++;
    const what = target === "tool" ? `tool ${name}` : target === "service" ? `service ${service}.${name}` : `handler ${name}`;
    return new Promise<unknown>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        pending.delete(id);
      };
      const onAbort = () => {
        cleanup();
        reject(new HostError("closed:extensions", `The call to ${what} was cancelled.`, { reason: "cancelled" }));
      };
      const timer = setTimeout(() => {
        cleanup();
        const message = `${what} did not answer within ${limits.callTimeoutMs} ms; the host half was terminated`;
        const error = new HostError("timeout:extensions", `${label}: ${message}.`, { reason: "extension_timeout" });
        reject(error);
        end("limit_exceeded", message);
      }, limits.callTimeoutMs);
      timer.unref?.();
      signal?.addEventListener("abort", onAbort, { once: true });
      pending.set(id, {
        label: what,
        resolve: (v) => { cleanup(); resolve(v); },
        reject: (e) => { cleanup(); reject(e); },
      });
      worker.postMessage({ t: "invoke", id, target, name, service, args: json });
    });
  };

  const half: HostHalf = {
    sessionId: opts.sessionId,
    packageName: opts.packageName,
    version: opts.version,
    state: () => (current === "starting" ? "running" : current),
    lastFailure: () => failure,
    logs: () => [...logLines],
    logCount: () => logCount,
    tools: () => [...toolDisposers.keys()].sort(),
    services: () => [...provided].map(([name, methods]) => ({ name, methods: [...methods] })),
    callService: (service, method, args, signal) => invoke("service", method, args, signal, service),
    exited,
    call: (tool, args, signal) => invoke("tool", tool, args, signal),
    request: (method, params, signal) => invoke("handle", method, params, signal),
    emit(name, payload) {
      if (current !== "running") return;
      let json: unknown;
      try {
        json = JSON.parse(JSON.stringify(payload ?? null));
      } catch {
        throw new HostError("bad_input:extensions", "The event payload is not JSON.");
      }
      worker.postMessage({ t: "event", name, payload: json });
    },
    takeSent: () => sent.splice(0),
    onOutbound(fn) {
      const entry = { fn };
      outboundListeners.add(entry);
      return () => void outboundListeners.delete(entry);
    },
    async stop() {
      end("stopped", null);
      await own.dispose().catch(() => {});
    },
  };

  const outbound = (m: Outbound) => {
    for (const { fn } of [...outboundListeners]) {
      try {
        fn(m);
      } catch (error) {
        log(`[host] an outbound listener failed: ${messageOf(error)}`);
      }
    }
  };

  worker.on("message", (m: FromWorker) => {
    lastSign = Date.now();
    if (current !== "running" && current !== "starting") return;
    switch (m.t) {
      case "beat":
        return;
      case "ready":
        if (current === "starting") settleStart?.();
        return;
      case "evalFailed":
        end(m.limit ? "limit_exceeded" : "crashed", m.message);
        return;
      case "register":
        registerTool(m.name, m.description, m.inputSchema);
        return;
      case "unregister": {
        const dispose = toolDisposers.get(m.name);
        toolDisposers.delete(m.name);
        void dispose?.();
        return;
      }
      case "log":
        log(m.line);
        return;
      case "limit":
        log(`[limit] ${m.message}`);
        failure = m.message;
        return;
      case "dropped":
        log(`[limit] dropped ${m.count} message(s): more than ${limits.maxMessagesPerSecond} send/emit/log per second`);
        failure = `message flood: dropped ${m.count} message(s) over ${limits.maxMessagesPerSecond}/s`;
        return;
      case "emit":
        outbound({ kind: "emit", name: m.name, payload: m.payload });
        return;
      case "send":
        sent.push(m.message);
        if (sent.length > limits.maxQueuedSends) sent.splice(0, sent.length - limits.maxQueuedSends);
        outbound({ kind: "send", message: m.message });
        return;
      case "service":
        void callService(m);
        return;
      case "provide":
        provided.set(m.name, m.methods);
        return;
      case "unprovide":
        provided.delete(m.name);
        return;
      case "failure":
        failure = `${m.where}: ${m.message}`;
        log(`[error] ${failure}`);
        return;
      case "result": {
        const p = pending.get(m.id);
        if (!p) return;
        if (m.ok) p.resolve(m.value);
        else if (m.missing) p.reject(new HostError("not_found:extensions", `${label}: ${m.error}.`, { reason: "not_found" }));
        else p.reject(new HostError("unavailable:extensions", `${p.label} failed: ${m.error}`, { reason: "extension_tool_failed" }));
        return;
      }
    }
  });
  /** Answers one `api.web.*` call; the answer is dropped if the half stopped meanwhile. */
  async function callService(m: { id: number; service: string; method: string; args: unknown }) {
    const reply = (answer: { ok: true; value: unknown } | { ok: false; error: string }) => {
      if (current === "running" || current === "starting") worker.postMessage({ t: "serviceResult", id: m.id, ...answer });
    };
    const services = opts.services;
    const web = m.service === "web" ? services?.web : undefined;
    const asObject = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
    const fn: ((signal: AbortSignal) => Promise<unknown>) | undefined = web
      ? (m.method === "fetch" || m.method === "search" ? (signal) => web[m.method as "fetch" | "search"](asObject(m.args), signal) : undefined)
      : services?.call && ((signal) => services.call!(m.service, m.method, m.args, signal));
    if (!fn) return reply({ ok: false, error: web ? `the web service has no method ${m.method}` : `the ${m.service} service is not available to extensions here` });
    try {
      const value = await fn(own.signal);
      reply({ ok: true, value: JSON.parse(JSON.stringify(value ?? null)) });
    } catch (error) {
      const code = error instanceof HostError ? `[${error.publicCode}] ` : "";
      reply({ ok: false, error: `${m.service}.${m.method} failed: ${code}${messageOf(error)}` });
    }
  }

  worker.on("error", (error: Error & { code?: string }) => {
    if (error.code === "ERR_WORKER_OUT_OF_MEMORY") end("limit_exceeded", `ran out of memory (heap limit ${limits.maxOldGenerationSizeMb} MB)`);
    else end("crashed", `the worker failed: ${messageOf(error)}`);
  });
  worker.on("exit", (code) => end("crashed", `the worker exited (code ${code})`));

  // Watchdog: any message (heartbeats included) proves the worker's event loop turns.
  const watchdog = setInterval(() => {
    if (current !== "running") return;
    const silent = Date.now() - lastSign;
    if (silent > limits.watchdogMs) end("limit_exceeded", `unresponsive for over ${limits.watchdogMs} ms (a callback kept the worker busy; infinite loop?)`);
  }, Math.max(10, Math.min(limits.heartbeatMs, limits.watchdogMs / 4)));
  watchdog.unref?.();
  own.add(() => clearInterval(watchdog), "watchdog");

  return new Promise<HostHalf>((resolve, reject) => {
    let budget: NodeJS.Timeout | undefined;
    settleStart = (error) => {
      settleStart = undefined;
      clearTimeout(budget);
      if (error) return reject(error);
      current = "running";
      lastSign = Date.now();
      resolve(half);
    };
    // The budget starts when the worker is up, so a slow thread start does not count against the code.
    worker.once("online", () => {
      if (!settleStart) return;
      budget = setTimeout(() => end("limit_exceeded", `evaluation (including its promise callbacks) did not settle within ${limits.evalBudgetMs} ms`), limits.evalBudgetMs);
      budget.unref?.();
    });
  });
}
