import { Worker } from "node:worker_threads";
import { HostError, messageOf } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import { halfCalls } from "./host-half-calls.js";
import { isAlive, isRunning, type HalfContext, type HalfLife } from "./host-half-context.js";
import { logBuffer } from "./host-half-log.js";
import { dispatch, type FromWorker } from "./host-half-messages.js";
import { halfOutbound } from "./host-half-outbound.js";
import { answerService } from "./host-half-services.js";
import { halfTools } from "./host-half-tools.js";

/** Plain ESM, so it loads as-is from src/ (vitest) and from dist/ (copied by scripts/copy-assets.mjs). */
const WORKER_URL = new URL("./worker.mjs", import.meta.url);

export * from "./host-half-types.js";
import type { HostHalf, HostHalfLimits, HostHalfState, StartHostHalfOptions } from "./host-half-types.js";
import { DEFAULT_LIMITS } from "./host-half-types.js";

const failed = (message: string, data: Record<string, unknown> = {}) =>
  new HostError("unavailable:extensions", message, { reason: "host_half_failed", ...data });

/**
 * Starts the host half of one extension version in a fresh worker (SPEC EXT-3). Resolves once the
 * top-level evaluation and its microtasks finished; rejects with HostError `host_half_failed`
 * (data.state says `crashed` or `limit_exceeded`) when it threw, looped or died first — with
 * everything it registered meanwhile already disposed. Tools it registers are session-owned and
 * live in a child of `scope`; disposing `scope` stops it.
 *
 * A host half is never restarted: stopping, crashing or exceeding a limit ends it for good (EXT-3),
 * and the model or the user runs it again.
 */
export function startHostHalf(scope: Scope, opts: StartHostHalfOptions): Promise<HostHalf> {
  const limits: HostHalfLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const label = `${opts.packageName}@${opts.version}`;
  const own = scope.child(`ext:${label}`);
  const life: HalfLife = { current: "starting", failure: null, lastSign: Date.now() };
  const logs = logBuffer(limits);
  let resolveExited!: (state: HostHalfState) => void;
  const exited = new Promise<HostHalfState>((resolve) => (resolveExited = resolve));

  const worker = spawnWorker(opts.code, label, limits);
  own.add(() => worker.terminate().then(() => undefined), "worker");
  own.add(() => {
    // Runs when the scope is disposed from outside (session end) as well as from finish().
    if (isAlive(life)) end("stopped", null);
  }, "state");

  const ctx: HalfContext = { label, limits, worker, own, life, log: logs.log, end };
  const start = startGate(ctx);
  const calls = halfCalls(ctx);
  const tools = halfTools(ctx, { ...opts, call: (tool, args, signal) => calls.invoke("tool", tool, args, signal) });
  const outbound = halfOutbound(ctx);
  const provided = new Map<string, string[]>();

  /** Leaves the running state once: rejects pending work, then disposes everything it registered. */
  function end(state: HostHalfState, message: string | null, error?: HostError) {
    if (!isAlive(life)) return;
    const wasStarting = life.current === "starting";
    life.current = state;
    life.failure = message ?? life.failure;
    if (message) logs.log(`[${state}] ${message}`);
    calls.rejectAll(error ?? (state === "stopped"
      ? new HostError("closed:extensions", `${label} was stopped.`, { reason: "not_running" })
      : failed(`${label} ${state === "crashed" ? "crashed" : "exceeded its limits"}: ${message}`, { state })));
    // A failed start and `exited` settle once everything it registered is gone.
    void own.dispose().catch((e: unknown) => logs.log(`[teardown] ${messageOf(e)}`)).finally(() => {
      if (wasStarting) start.settle(failed(`${label} failed to start: ${message ?? state}`, { state }));
      resolveExited(state);
    });
  }

  const half: HostHalf = {
    sessionId: opts.sessionId,
    packageName: opts.packageName,
    version: opts.version,
    state: () => (life.current === "starting" ? "running" : life.current),
    lastFailure: () => life.failure,
    logs: logs.lines,
    logCount: logs.count,
    tools: tools.names,
    services: () => [...provided].map(([name, methods]) => ({ name, methods: [...methods] })),
    callService: (service, method, args, signal) => calls.invoke("service", method, args, signal, service),
    exited,
    call: (tool, args, signal) => calls.invoke("tool", tool, args, signal),
    request: (method, params, signal) => calls.invoke("handle", method, params, signal),
    emit(name, payload) {
      if (!isRunning(life)) return;
      worker.postMessage({ t: "event", name, payload: asJson(payload, "The event payload is not JSON.") });
    },
    takeSent: outbound.takeSent,
    onOutbound: outbound.onOutbound,
    async stop() {
      end("stopped", null);
      await own.dispose().catch(() => {});
    },
  };

  worker.on("message", (m: FromWorker) => {
    life.lastSign = Date.now();
    if (!isAlive(life)) return;
    dispatch(m, {
      ctx, calls, tools, outbound, provided,
      ready: () => start.settle(),
      // The answer is dropped if the half stopped meanwhile.
      service: (req) => void answerService(req, opts.services, own.signal, (answer) => {
        if (isAlive(life)) worker.postMessage({ t: "serviceResult", id: req.id, ...answer });
      }),
    });
  });
  watchWorker(ctx);
  return start.done.then(() => half);
}

/**
 * The start's outcome: settled once — by `ready`, by the end of a half that was still starting, or by
 * the evaluation budget, which starts when the worker is up so a slow thread start does not count against the code.
 */
function startGate({ worker, limits, life, end }: HalfContext) {
  let settle: ((error?: HostError) => void) | undefined;
  let budget: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve, reject) => {
    settle = (error) => {
      settle = undefined;
      clearTimeout(budget);
      if (error) return reject(error);
      life.current = "running";
      life.lastSign = Date.now();
      resolve();
    };
  });
  worker.once("online", () => {
    if (!settle) return;
    budget = setTimeout(() => end("limit_exceeded", `evaluation (including its promise callbacks) did not settle within ${limits.evalBudgetMs} ms`), limits.evalBudgetMs);
    budget.unref?.();
  });
  return { done, settle: (error?: HostError) => settle?.(error) };
}

/** A copy of `value` as plain JSON, or a bad_input refusal. */
function asJson(value: unknown, refusal: string): unknown {
  try {
    return JSON.parse(JSON.stringify(value ?? null));
  } catch {
    throw new HostError("bad_input:extensions", refusal);
  }
}

/** The worker thread with its resource limits (EXT-3): no env, and pipes that are drained but never read. */
function spawnWorker(code: string, label: string, limits: HostHalfLimits): Worker {
  const worker = new Worker(WORKER_URL, {
    workerData: { code, filename: `extension:${label}/host.js`, limits },
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
  return worker;
}

/** Ends the half when its worker fails, exits, runs out of memory or stops answering (the watchdog). */
function watchWorker({ worker, limits, life, own, end }: HalfContext) {
  worker.on("error", (error: Error & { code?: string }) => {
    if (error.code === "ERR_WORKER_OUT_OF_MEMORY") end("limit_exceeded", `ran out of memory (heap limit ${limits.maxOldGenerationSizeMb} MB)`);
    else end("crashed", `the worker failed: ${messageOf(error)}`);
  });
  worker.on("exit", (code) => end("crashed", `the worker exited (code ${code})`));

  // Watchdog: any message (heartbeats included) proves the worker's event loop turns.
  const watchdog = setInterval(() => {
    if (!isRunning(life)) return;
    const silent = Date.now() - life.lastSign;
    if (silent > limits.watchdogMs) end("limit_exceeded", `unresponsive for over ${limits.watchdogMs} ms (a callback kept the worker busy; infinite loop?)`);
  }, Math.max(10, Math.min(limits.heartbeatMs, limits.watchdogMs / 4)));
  watchdog.unref?.();
  own.add(() => clearInterval(watchdog), "watchdog");
}
