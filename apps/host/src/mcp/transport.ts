import type { McpServerConfig, McpValue } from "@seam/shared";
import { serializeMessage, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { HostError, messageOf } from "../core/errors.js";
import { groupAlive } from "../core/process-group.js";
import { spawnChild, type ChildHandle, type SpawnOptions } from "../core/process.js";
import type { Scope } from "../core/scope.js";
import { LineReader, type Line } from "./line-reader.js";

/** One connection's transport plus what the supervisor needs to know about the peer behind it. */
export interface TransportHandle {
  readonly kind: "stdio" | "http";
  readonly transport: Transport;
  /** The end of the stdio child's stderr ("" for HTTP or before start). */
  stderrTail(): string;
  /** The stdio child's pid once started. */
  pid(): number | undefined;
  /**
   * Closes the transport and resolves once the peer is proven gone: for stdio, the child and its whole
   * process group exited. Resolves false when that cannot be proven. Memoized.
   */
  terminate(): Promise<boolean>;
  /** Present only for HTTP with OAuth (MCP-11): a call was refused for lack of scope and a step-up sign-in is pending. */
  stepUpPending?(): boolean;
}

export type TransportFactory = (scope: Scope, config: McpServerConfig) => TransportHandle;

/** How much of a stdio server's stderr is kept (MCP-7); the view shows it. */
export const STDERR_LIMIT_BYTES = 16 * 1024;

/** Looks a secret or setting up by name: the host environment, then (in the host) the 0600 secrets file (SEC-2). */
export type ValueLookup = (name: string) => string | undefined;

const fromProcessEnv: ValueLookup = (name) => process.env[name];

/** A value from the config: inline, or read by name (env var or secrets file) at connect time. */
export function resolveValue(value: McpValue, what: string, lookup: ValueLookup = fromProcessEnv): string {
  if ("value" in value) return value.value;
  const found = lookup(value.fromEnv);
  if (found === undefined) {
    throw new HostError("bad_input:mcp", `${what} needs ${value.fromEnv}, which is neither set in the host's environment nor in $SEAM_HOME/secrets.json.`, {
      reason: "missing_env",
      variable: value.fromEnv,
    });
  }
  return found;
}

function resolveAll(values: Record<string, McpValue>, what: string, lookup: ValueLookup): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, v]) => [name, resolveValue(v, `${what} ${name}`, lookup)]));
}

/** OAuth for one http connection (MCP-11, `oauth/manager.ts`): the SDK's provider and a fetch that notices step-up challenges. */
export type OAuthParts = (config: McpServerConfig) => { authProvider: OAuthClientProvider; fetch: typeof fetch; stepUpPending(): boolean } | undefined;

/** Builds the transport for one connection attempt (MCP-1, MCP-7); references are resolved through `lookup`. */
export const transportFactory = (lookup: ValueLookup, oauth?: OAuthParts): TransportFactory => (scope, config) => {
  const t = config.transport;
  if (t.type === "http") {
    const headers = resolveAll(t.headers, `Header`, lookup);
    if (t.bearerTokenEnv) headers.Authorization = `Bearer ${resolveValue({ fromEnv: t.bearerTokenEnv }, "The bearer token", lookup)}`;
    const auth = oauth?.(config);
    const transport = new StreamableHTTPClientTransport(new URL(t.url), {
      requestInit: { headers },
      ...(auth ? { authProvider: auth.authProvider, fetch: auth.fetch } : {}),
      ...(auth && t.oauth?.allowIssuerMismatch && { skipIssuerMetadataValidation: true }),
    });
    let terminated: Promise<boolean> | undefined;
    return {
      kind: "http",
      transport,
      stderrTail: () => "",
      pid: () => undefined,
      terminate: () => (terminated ??= endSession(transport).then(() => transport.close()).then(() => true, () => true)),
      ...(auth ? { stepUpPending: () => auth.stepUpPending() } : {}),
    };
  }
  const transport = new ChildTransport(scope, {
    label: `mcp:${config.name}`,
    command: t.command,
    args: t.args,
    cwd: t.cwd,
    env: resolveAll(t.env, "Environment variable", lookup),
    stderrLimitBytes: STDERR_LIMIT_BYTES,
  });
  return { kind: "stdio", transport, stderrTail: () => transport.stderrTail(), pid: () => transport.pid, terminate: () => transport.terminate() };
};

/** The factory for programs without a secrets file (the CLI): references come from the environment. */
export const createTransport: TransportFactory = transportFactory(fromProcessEnv);

/** Asks the server to drop the session (DELETE), at most SESSION_END_MS; an unreachable server is fine. */
async function endSession(transport: StreamableHTTPClientTransport): Promise<void> {
  if (!transport.sessionId) return;
  let timer: NodeJS.Timeout | undefined;
  const bounded = new Promise<void>((resolve) => (timer = setTimeout(resolve, SESSION_END_MS)));
  await Promise.race([transport.terminateSession().catch(() => undefined), bounded]);
  clearTimeout(timer);
}
const SESSION_END_MS = 1_000;

/**
 * Newline-delimited JSON-RPC over a child started through the host's subprocess seam (MCP-7), so the
 * server gets the sanitized environment, its own process group and a bounded stderr log. The child's exit
 * is the transport's close; close() stops the whole process group.
 */
export class ChildTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildHandle | undefined;
  private readonly lines = new LineReader();
  private closeReported = false;
  private terminated: Promise<boolean> | undefined;

  constructor(private readonly scope: Scope, private readonly options: SpawnOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Present (with `pid`) so the MCP client recognizes a stdio-shaped transport: a server that stays silent on the
   * version probe is then a 2025 server rather than an outage (MCP-14). The stream itself is ours (stderrTail).
   */
  get stderr(): null {
    return null;
  }

  stderrTail(): string {
    return this.child?.stderrTail() ?? "";
  }

  async start(): Promise<void> {
    if (this.child) throw new Error(`${this.options.label} was already started`);
    if (this.terminated) throw new HostError("closed:mcp", `${this.options.label} was closed before it started.`);
    const child = spawnChild(this.scope, this.options);
    this.child = child;
    child.stdout.on("data", (chunk: Buffer) => this.receive(chunk));
    child.stdout.on("error", (error) => this.onerror?.(error));
    child.stdin.on("error", (error) => this.onerror?.(error));
    void child.exited.then((exit) => {
      if (!this.terminated) {
        this.onerror?.(new HostError("closed:mcp", `${this.options.label} exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`}).`, { ...exit }));
      }
      this.reportClose();
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable) {
      return Promise.reject(new HostError("closed:mcp", `${this.options.label} is not running.`));
    }
    return new Promise((resolve, reject) => {
      const ok = stdin.write(serializeMessage(message), (error) => (error ? reject(error) : undefined));
      if (ok) return resolve();
      const onDrain = () => {
        stdin.off("close", onClose);
        resolve();
      };
      const onClose = () => {
        stdin.off("drain", onDrain);
        reject(new HostError("closed:mcp", `${this.options.label} closed its input.`));
      };
      stdin.once("drain", onDrain);
      stdin.once("close", onClose);
    });
  }

  async close(): Promise<void> {
    await this.terminate();
  }

  /** Stops the child (end stdin → SIGTERM → SIGKILL to the group) and proves the group is gone. */
  terminate(): Promise<boolean> {
    return (this.terminated ??= (async () => {
      const child = this.child;
      if (!child) {
        this.reportClose();
        return true;
      }
      // stop() keeps the event loop alive until the tree is gone (core/process.ts).
      await child.stop();
      await child.exited;
      this.reportClose();
      return !groupAlive(child.pid);
    })());
  }

  private receive(chunk: Buffer) {
    let lines: Line[];
    try {
      lines = this.lines.push(chunk);
    } catch (error) {
      // A line longer than the limit: the stream cannot be resynchronized, so the connection ends.
      this.onerror?.(new HostError("unavailable:mcp", `${this.options.label}: ${messageOf(error)}`));
      void this.terminate();
      return;
    }
    for (const line of lines) {
      if ("message" in line) this.onmessage?.(line.message);
      else this.onerror?.(new HostError("unavailable:mcp", `${this.options.label} wrote a line that is not JSON-RPC: ${line.error}`));
    }
  }

  private reportClose() {
    if (this.closeReported) return;
    this.closeReported = true;
    this.onclose?.();
  }
}
