import type { McpProbeFailure, McpProbeReason, McpProbeSeen, McpProbeStep, McpServerConfig } from "@seam/shared";
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from "@modelcontextprotocol/client";
import { HostError, isHostError, messageOf } from "../core/errors.js";
import { createLog, type Log } from "../core/log.js";
import type { Scope } from "../core/scope.js";
import { closeConnection, openConnection, untilAborted, type Connection } from "./connection.js";
import { systemClock } from "./supervisor.js";
import type { ClientSurface } from "./surface-types.js";
import { DEFAULT_LIMITS, fetchTools } from "./sync.js";
import type { TransportFactory } from "./transport.js";

/**
 * Trying a server before it is saved (MCP-10): a throwaway connection in its own scope spawns or
 * connects, initializes and lists the tools, bounded by the config's startup timeout, then closes
 * (the stdio process tree is killed and proven gone). A failure is a HostError whose message says
 * which step failed and what to do; `data.probe` carries the step, the reason and the stderr tail.
 */
export type Prober = (config: McpServerConfig, onStep?: (step: McpProbeStep) => void) => Promise<McpProbeSeen>;

export interface ProberDeps {
  makeTransport: TransportFactory;
  log?: Log;
  /** How long the closing connection has to prove its peer gone (default 10 s). */
  barrierMs?: number;
}

/** How much of a failed stdio server's stderr the error carries. */
export const PROBE_STDERR_CHARS = 4_000;

/**
 * What a tried server may ask of the client while it is tried: it is told the same capabilities as a saved server (so
 * it lists the same tools), but nobody is asked anything — requests for input are declined, no roots are shared.
 */
const TRYING: ClientSurface = {
  elicit: async () => ({ action: "decline", reason: "Seam is only trying the server before saving it." }),
  completed: () => {},
  roots: async () => [],
  watchRoots: () => () => {},
  log: () => {},
  logLevel: () => {},
  wantedLogLevel: () => "info",
  levelSetter: () => () => {},
};

const NO_EVENTS = { closed: () => {}, error: () => {}, toolsChanged: () => {} };

export function createProber(scope: Scope, deps: ProberDeps): Prober {
  const log = deps.log ?? createLog("mcp");
  let ids = 0;
  return async (config, onStep) => {
    let step: McpProbeStep = "starting";
    const at = (next: McpProbeStep) => {
      step = next;
      onStep?.(next);
    };
    at("starting");
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new HostError("timeout:mcp", "probe timed out", { reason: "timeout" })), config.startupTimeoutMs);
    let conn: Connection | undefined;
    let observed: ObservedTransport | undefined;
    let closedEarly = false;
    try {
      conn = openConnection(scope, ++ids, config, deps.makeTransport, { ...NO_EVENTS, surface: { surface: TRYING, log, name: config.name } });
      observed = new ObservedTransport(conn.handle.transport, () => at("initializing"));
      // The SDK's version probe does not watch the signal: stop waiting on abort (MCP-14).
      await untilAborted(conn.client.connect(observed, { signal: abort.signal, timeout: config.startupTimeoutMs }), abort.signal);
      at("listing_tools");
      const tools = await fetchTools(conn.client, config.name, { ...DEFAULT_LIMITS, timeoutMs: config.startupTimeoutMs, signal: abort.signal });
      const info = conn.client.getServerVersion();
      return {
        serverInfo: info ? { name: String(info.name), version: String(info.version) } : null,
        protocolVersion: conn.client.getNegotiatedProtocolVersion() ?? null,
        toolCount: tools.length,
      };
    } catch (error) {
      const reason = abort.signal.aborted ? abort.signal.reason : error;
      // The stderr and the exit are complete only once the child is gone.
      closedEarly = true;
      if (conn) await close(conn);
      const stderrTail = (conn?.handle.stderrTail() ?? "").slice(-PROBE_STDERR_CHARS);
      const failure = describeFailure(config, step, reason, { stderrTail, transportErrors: observed?.errors ?? [] });
      throw new HostError("unavailable:mcp", failure.message, { reason: failure.reason, step, probe: failure }, { cause: error });
    } finally {
      clearTimeout(timer);
      if (conn && !closedEarly) await close(conn);
    }
  };

  async function close(conn: Connection) {
    const proven = await closeConnection(conn, { name: `probe ${conn.id}`, clock: systemClock, log, barrierMs: deps.barrierMs ?? 10_000 });
    if (!proven) log.error(`mcp probe: the tried server's process could not be proven gone (pid ${conn.handle.pid() ?? "?"})`);
  }
}

/**
 * The SDK transport as the client sees it, plus what the probe needs to know: when it started (the
 * step moves on to initializing) and the errors the transport reported (a stdio child's exit code). A stdio
 * transport's `pid`/`stderr` show through, so the client still treats it as stdio when it negotiates (MCP-14).
 */
class ObservedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly errors: Error[] = [];

  constructor(private readonly inner: Transport, private readonly started: () => void) {
    if ("pid" in inner && "stderr" in inner) {
      Object.defineProperty(this, "pid", { get: () => (inner as { pid: unknown }).pid });
      Object.defineProperty(this, "stderr", { get: () => (inner as { stderr: unknown }).stderr });
    }
  }

  get sessionId() {
    return this.inner.sessionId;
  }

  async start() {
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.inner.onerror = (error) => {
      this.errors.push(error);
      this.onerror?.(error);
    };
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
    this.started();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions) {
    return this.inner.send(message, options);
  }

  close() {
    return this.inner.close();
  }

  setProtocolVersion(version: string) {
    this.inner.setProtocolVersion?.(version);
  }
}

const STEP_WORDS: Record<McpProbeStep, string> = { starting: "starting", initializing: "initializing", listing_tools: "listing its tools" };

/** Every error along the `cause` chain (bounded). */
function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = error, n = 0; e !== undefined && e !== null && n < 6; e = (e as { cause?: unknown }).cause, n++) out.push(e);
  return out;
}
/** The system error code along the chain (ECONNREFUSED, ENOTFOUND, EPIPE…); the SDK's own codes wrap it. */
const codeOf = (error: unknown): string | undefined => {
  for (const e of chain(error)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
};
/** The HTTP status of a refused Streamable HTTP request (the SDK's StreamableHTTPError carries it as `code`). */
const httpStatusOf = (error: unknown): number | undefined => {
  for (const e of chain(error)) {
    // The v2 SDK's SdkHttpError carries it as `status`; older errors as a numeric `code`.
    const status = (e as { status?: unknown }).status;
    if (typeof status === "number" && status >= 300 && status < 600) return status;
    const code = (e as { code?: unknown }).code;
    if (typeof code === "number" && code >= 300 && code < 600) return code;
    if ((e as { name?: unknown }).name === "UnauthorizedError") return 401;
  }
  return undefined;
};

/** The failure in words: what failed, at which step, and what to do about it. */
export function describeFailure(
  config: McpServerConfig,
  step: McpProbeStep,
  error: unknown,
  seen: { stderrTail: string; transportErrors: readonly Error[] },
): McpProbeFailure {
  const t = config.transport;
  const fail = (reason: McpProbeReason, message: string): McpProbeFailure => ({ step, reason, message, stderrTail: seen.stderrTail });
  const detail = messageOf(error);
  const hostReason = isHostError(error) ? error.data?.reason : undefined;

  if (hostReason === "missing_env") return fail("missing_env", `${detail} Set it, then try again.`);
  if (hostReason === "timeout" || (isHostError(error) && error.kind === "timeout") || /timed out/i.test(detail)) {
    const seconds = Math.round(config.startupTimeoutMs / 1000);
    const hint = t.type === "stdio"
      ? "Check that the command starts an MCP server speaking stdio (see its stderr below), or raise the startup timeout under Advanced."
      : "Check that the URL is the server's Streamable HTTP endpoint, or raise the startup timeout under Advanced.";
    return fail("timeout", `The server did not finish ${STEP_WORDS[step]} within ${seconds} s. ${hint}`);
  }

  if (t.type === "stdio") {
    if (hostReason === "spawn_failed") {
      if (t.cwd !== undefined && /working directory/.test(detail)) {
        return fail("bad_cwd", `The working directory '${t.cwd}' does not exist or is not a directory. Fix the working directory under the command.`);
      }
      return fail("command_not_found", `The command '${t.command}' was not found (ENOENT). Check the path, or install it.`);
    }
    const exit = seen.transportErrors.map((e) => (isHostError(e) ? e.data : undefined)).find((d) => d && ("code" in d || "signal" in d));
    if (exit) {
      const how = exit.signal ? `was killed by ${String(exit.signal)}` : `exited with code ${String(exit.code)}`;
      const where = seen.stderrTail.trim() ? " Its stderr is below." : " It wrote nothing to stderr.";
      return fail("exited", `The server ${how} while ${STEP_WORDS[step]}.${where} Check the command and its arguments.`);
    }
    // The child went away before its exit was seen (a write into its closed input, the connection closed).
    if (codeOf(error) === "EPIPE" || /is not running|closed its input|Connection closed/i.test(detail)) {
      const where = seen.stderrTail.trim() ? " Its stderr is below." : "";
      return fail("exited", `The server stopped while ${STEP_WORDS[step]} (its connection closed).${where} Check the command and its arguments.`);
    }
  } else {
    const url = t.url;
    const status = httpStatusOf(error);
    if (status === 401) {
      return fail("unauthorized", `The server at ${url} needs authorization (HTTP 401). Set a bearer token environment variable or an Authorization header for it, then try again.`);
    }
    if (status === 403) return fail("forbidden", `The server at ${url} refused access (HTTP 403). Check the credentials it is given.`);
    if (status === 404 || status === 405) {
      return fail("http_error", `The server answered HTTP ${status} at ${url}: no MCP endpoint there. Check the URL (Streamable HTTP endpoints often end in /mcp).`);
    }
    if (status !== undefined) return fail("http_error", `The server at ${url} answered HTTP ${status} while ${STEP_WORDS[step]}: ${detail}`);
    const code = codeOf(error);
    if (code === "ECONNREFUSED") {
      return fail("connection_refused", `Nothing is listening at ${url} (connection refused). Start the server, or check the host and port.`);
    }
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
      return fail("host_not_found", `The host name '${new URL(url).hostname}' could not be resolved (${code}). Check the URL.`);
    }
    const root = messageOf(chain(error).at(-1));
    if (root === "bad port") {
      return fail("failed", `Seam cannot connect to port ${new URL(url).port} of ${new URL(url).hostname}: fetch refuses that port as unsafe ("bad port"). Run the server on another port.`);
    }
    if (code && /^E[A-Z_]+$/.test(code)) return fail("failed", `Could not connect to ${url} (${code}): ${root}. Check the URL and that the server is running.`);
    if (/Unexpected content type|fetch failed/i.test(detail)) {
      return fail("failed", `Could not talk to ${url} while ${STEP_WORDS[step]}: ${root === detail ? detail : `${detail} (${root})`}. Check the URL.`);
    }
  }

  if (step === "listing_tools") return fail("tools_list_failed", `The server started, but listing its tools failed: ${detail}`);
  if (step === "initializing") return fail("initialize_failed", `The server did not complete the MCP initialize handshake: ${detail}`);
  return fail("failed", `The server could not be started: ${detail}`);
}
