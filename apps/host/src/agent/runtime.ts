import type { ErrorInfo } from "@seam/shared";
import { isHostError, messageOf } from "../core/errors.js";
import type { ToolRegistry } from "./registry.js";
import type { Disposer } from "../core/scope.js";
import type { ToolContext, ToolDef, ToolResult } from "./tool.js";

export type ToolStatus = "ok" | "error" | "cancelled";

/** The result of one tool call as recorded and shown to the model (CORE-12). */
export interface ToolOutcome {
  status: ToolStatus;
  canonical: unknown;
  /** What the model sees; errors read `Error [code]: message`. */
  rendered: string;
  error: ErrorInfo | null;
  startedAt: Date;
  endedAt: Date;
  durationMs: number;
}

export interface ToolRequest {
  sessionId: string;
  workspace: string;
  callId: string;
  name: string;
  args: unknown;
  signal: AbortSignal;
  /** The turn the call belongs to (absent outside turns: tests, benches). */
  turnId?: string;
  /** Receives the tool's live output (ToolContext.output). */
  output?(chunk: string): void;
  /** Receives the tool's progress reports (ToolContext.progress). */
  progress?(update: { progress: number; total: number | null; message: string | null }): void;
}

interface CallInfo { sessionId: string; callId: string; name: string; args: unknown }
export type ToolCallEvent =
  | (CallInfo & { phase: "start"; startedAt: Date })
  | (CallInfo & { phase: "end"; outcome: ToolOutcome });

/** Decides whether a validated call may run (PERM-1..3); may wait for a person. Not counted against the tool's timeout. */
export type Authorize = (call: { tool: ToolDef; args: unknown; req: ToolRequest }) => Promise<{ ok: true } | { ok: false; code: string; message: string; status?: ToolStatus }>;

export interface ToolRuntimeOptions {
  registry: ToolRegistry;
  /** Runs after the arguments are valid and before the tool; absent = everything runs (tests, benches). */
  authorize?: Authorize;
  /** Called at the start and end of every call; failures are reported to onRecordError and ignored. */
  record?: (event: ToolCallEvent) => void | Promise<void>;
  onRecordError?: (error: unknown, event: ToolCallEvent) => void;
  defaults?: { timeoutMs?: number; maxRenderedChars?: number };
}

/** Runs after a call is authorized and before the tool (e.g. the turn's first checkpoint, CODE-5); a throw fails the call. */
export type BeforeRun = (call: { tool: ToolDef; args: unknown; req: ToolRequest }) => Promise<void>;

export interface ToolRuntime {
  invoke(req: ToolRequest): Promise<ToolOutcome>;
  /** Adds a hook that runs before every authorized call, in registration order. */
  beforeRun(fn: BeforeRun): Disposer;
}

type Settled = { status: ToolStatus; canonical: unknown; rendered: string; error: ErrorInfo | null };

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RENDERED_CHARS = 100_000;

export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  const timeoutDefault = options.defaults?.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxChars = options.defaults?.maxRenderedChars ?? DEFAULT_MAX_RENDERED_CHARS;
  const beforeRunHooks = new Set<{ fn: BeforeRun }>();

  const record = async (event: ToolCallEvent) => {
    if (!options.record) return;
    try {
      await options.record?.(event);
    } catch (error) {
      options.onRecordError?.(error, event);
    }
  };

  const settle = async (req: ToolRequest): Promise<Settled & { tool?: ToolDef }> => {
    if (req.signal.aborted) return failure("cancelled", "The call was cancelled before it started.", "cancelled");
    const tool = options.registry.get(req.name, req.sessionId);
    if (!tool) {
      return failure("unknown_tool", `There is no tool named "${req.name}" in this session. Call only the tools listed in your tool definitions.`);
    }
    const parsed = parseArgs(tool, req.args);
    if (!parsed.ok) return { ...failure("invalid_arguments", parsed.message, "error", `Fix the arguments and call ${tool.name} again.`), tool };
    if (options.authorize) {
      const allowed = await authorizeCall(options.authorize, tool, parsed.value, req);
      if (allowed) return { ...allowed, tool };
    }
    for (const { fn } of [...beforeRunHooks]) {
      try {
        await fn({ tool, args: parsed.value, req });
      } catch (error) {
        return { ...fromThrown(error), tool };
      }
    }
    return { ...(await runWithDeadline(tool, parsed.value, req, positive(tool.timeoutMs) ?? timeoutDefault)), tool };
  };

  return {
    async invoke(req) {
      const startedAt = new Date();
      const info: CallInfo = { sessionId: req.sessionId, callId: req.callId, name: req.name, args: req.args };
      if (options.record) await record({ ...info, phase: "start", startedAt });
      const { tool, ...settled } = await settle(req);
      const endedAt = new Date();
      const cap = positive(tool?.maxRenderedChars) ?? maxChars;
      const outcome: ToolOutcome = {
        ...settled,
        rendered: capRendered(settled.rendered, cap),
        startedAt,
        endedAt,
        durationMs: endedAt.getTime() - startedAt.getTime(),
      };
      if (options.record) await record({ ...info, phase: "end", outcome });
      return outcome;
    },
    beforeRun(fn) {
      const entry = { fn };
      beforeRunHooks.add(entry);
      return () => void beforeRunHooks.delete(entry);
    },
  };
}

/** null when the call may run; otherwise its refusal as the model sees it. */
async function authorizeCall(authorize: Authorize, tool: ToolDef, args: unknown, req: ToolRequest): Promise<Settled | null> {
  let decision: Awaited<ReturnType<Authorize>>;
  try {
    decision = await authorize({ tool, args, req });
  } catch (error) {
    if (req.signal.aborted) return failure("cancelled", `The call to ${tool.name} was cancelled while it waited for approval.`, "cancelled");
    return failure(isHostError(error) ? error.publicCode : "permission_check_failed", messageOf(error));
  }
  if (decision.ok) return null;
  return failure(decision.code, decision.message, decision.status ?? "error");
}

function parseArgs(tool: ToolDef, args: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return tool.parse(args);
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

/** Runs the tool until it settles, the deadline passes or the caller cancels — whichever comes first. */
async function runWithDeadline(tool: ToolDef, args: unknown, req: ToolRequest, timeoutMs: number): Promise<Settled> {
  const controller = new AbortController();
  let stop!: (settled: Settled) => void;
  const stopped = new Promise<Settled>((resolve) => (stop = resolve));

  // Settle first, then abort: whatever the tool does on abort must not win the race.
  const onCancel = () => {
    stop(failure("cancelled", `The call to ${tool.name} was cancelled.`, "cancelled"));
    controller.abort(req.signal.reason);
  };
  req.signal.addEventListener("abort", onCancel, { once: true });
  const deadline = createDeadline(timeoutMs, positive(tool.maxTimeoutMs), () => {
    const message = `${tool.name} did not finish within ${formatMs(timeoutMs)} and was stopped. Try a smaller request.`;
    stop(failure("timeout", message));
    controller.abort(new Error(message));
  });

  const ctx: ToolContext = {
    signal: controller.signal, sessionId: req.sessionId, workspace: req.workspace, callId: req.callId, output: req.output,
    progress: (update) => {
      if (controller.signal.aborted) return;
      deadline.progressed();
      req.progress?.(update);
    },
    pauseDeadline: () => deadline.pause(),
  };
  const running = Promise.resolve()
    .then(() => tool.run(args, ctx))
    .then(fromResult, fromThrown);
  try {
    // A tool that ignores its signal keeps running in the background; its late result is dropped.
    return await Promise.race([running, stopped]);
  } finally {
    deadline.clear();
    req.signal.removeEventListener("abort", onCancel);
  }
}

/**
 * A call's deadline: `timeoutMs` from the start; with `maxMs`, each progress report restarts it, but never past
 * `maxMs` of run time. Paused (a person is being asked) it does not run, and paused time does not count.
 */
function createDeadline(timeoutMs: number, maxMs: number | undefined, expire: () => void) {
  let ran = 0;
  let since = Date.now();
  let pauses = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(expire, Math.max(0, ms));
    timer.unref?.();
  };
  const runTime = () => ran + (pauses > 0 ? 0 : Date.now() - since);
  const remaining = () => (maxMs === undefined ? timeoutMs : Math.min(timeoutMs, maxMs - runTime()));
  arm(timeoutMs);
  return {
    progressed() {
      if (maxMs === undefined || pauses > 0) return;
      arm(remaining());
    },
    pause() {
      if (pauses++ === 0) {
        ran += Date.now() - since;
        clearTimeout(timer);
      }
      let resumed = false;
      return () => {
        if (resumed) return;
        resumed = true;
        if (--pauses === 0) {
          since = Date.now();
          arm(remaining());
        }
      };
    },
    clear: () => clearTimeout(timer),
  };
}

function fromResult(result: ToolResult): Settled {
  if (typeof result !== "object" || result === null) return failure("tool_failed", "The tool returned no result.");
  const rendered = typeof result.rendered === "string" ? result.rendered : JSON.stringify(result.canonical ?? null);
  if (!result.error) return { status: "ok", canonical: result.canonical, rendered, error: null };
  const error = { code: String(result.error.code), message: String(result.error.message) };
  return { status: "error", canonical: result.canonical, rendered: rendered || renderError(error), error };
}

function fromThrown(error: unknown): Settled {
  if (isHostError(error)) return failure(error.publicCode, error.message);
  return failure("tool_failed", messageOf(error) || "The tool failed without a message.");
}

function failure(code: string, message: string, status: ToolStatus = "error", hint?: string): Settled {
  const error = { code, message };
  return { status, canonical: null, rendered: hint ? `${renderError(error)}\n${hint}` : renderError(error), error };
}

const renderError = (error: ErrorInfo) => `Error [${error.code}]: ${error.message}`;

/** Keeps the first `max` characters (never splitting a surrogate pair) and says how much was cut. */
export function capRendered(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  const cut = text.length - end;
  return `${text.slice(0, end)}\n\n[output truncated: ${cut} of ${text.length} characters were cut. Ask for a smaller part (a narrower range, path or pattern) to see the rest.]`;
}

const positive = (n: number | undefined) => (n !== undefined && Number.isFinite(n) && n > 0 ? n : undefined);

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
