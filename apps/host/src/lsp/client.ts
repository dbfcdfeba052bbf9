import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import {
  CancellationTokenSource, ConnectionError, createMessageConnection, ErrorCodes, ResponseError, StreamMessageReader, StreamMessageWriter,
  type MessageConnection,
} from "vscode-jsonrpc/node";
import { HostError, isHostError, messageOf } from "../core/errors.js";
import { spawnChild, type ChildHandle } from "../core/process.js";
import type { Disposer, Scope } from "../core/scope.js";
import { answerConfiguration, type ServerSettings } from "./configuration.js";
import { trackProgress, type ProgressState } from "./progress.js";

/** What the server said it can do in its `initialize` result (the parts Seam reads). */
export type ServerCapabilities = Record<string, unknown>;

export interface ClientOptions {
  /** Names the process in listChildren and errors, e.g. `lsp:typescript`. */
  label: string;
  command: string;
  args: readonly string[];
  /** The canonical workspace: the process's cwd, `rootUri` and the single workspace folder. */
  root: string;
  initializationOptions?: Record<string, unknown>;
  /**
   * The configured `settings` (LSP-8): answers `workspace/configuration` by section, and is sent once with
   * `workspace/didChangeConfiguration` right after `initialized` when present.
   */
  settings?: ServerSettings;
  /** `initialize` must answer within this long (default 60 s). */
  startTimeoutMs?: number;
  /** How much stderr to keep for the settings page (default 16 KiB). */
  stderrLimitBytes?: number;
}

/** Why a client closed; `expected` when Seam asked for it (dispose), not when the peer died. */
export type CloseListener = (error: HostError, expected: boolean) => void;

/** One stdio language server process and its vscode-jsonrpc connection. */
export interface LspClient {
  readonly pid: number;
  readonly capabilities: ServerCapabilities;
  readonly closed: boolean;
  /** When the process was spawned (epoch ms): how long it has had to index (LSP-8). */
  readonly spawnedAt: number;
  /** Its open work-done progress (indexing, project loading), LSP-8. */
  readonly progress: ProgressState;
  /**
   * A request; `signal` aborting sends `$/cancelRequest` and rejects with the signal's HostError
   * reason (or `cancelled`). Rejects with `closed:lsp` when the connection dies first (STYLE §8 #5).
   */
  request<R>(method: string, params: unknown, signal?: AbortSignal): Promise<R>;
  notify(method: string, params: unknown): Promise<void>;
  /** Fires once when the connection or the process ends; immediately if it already has. */
  onClose(fn: CloseListener): Disposer;
  stderrTail(): string;
  /** `shutdown` → `exit` → the process tree stopped (stdin end, SIGTERM, SIGKILL). Memoized, never throws. */
  dispose(): Promise<void>;
}

const SHUTDOWN_MS = 2_000;

/** Client capabilities: navigation with links, Markdown hover, UTF-16 positions, nothing that writes. */
const CLIENT_CAPABILITIES = {
  general: { positionEncodings: ["utf-16"] },
  workspace: { workspaceFolders: true, configuration: true, applyEdit: false },
  window: { workDoneProgress: true },
  textDocument: {
    synchronization: { dynamicRegistration: false, willSave: false, willSaveWaitUntil: false, didSave: false },
    definition: { dynamicRegistration: false, linkSupport: true },
    implementation: { dynamicRegistration: false, linkSupport: true },
    references: { dynamicRegistration: false },
    hover: { dynamicRegistration: false, contentFormat: ["markdown", "plaintext"] },
  },
};

/** Transport-level vscode-jsonrpc failures: the connection, not the server's answer. */
const TRANSPORT_CODES = new Set<number>([ErrorCodes.MessageWriteError, ErrorCodes.MessageReadError, ErrorCodes.PendingResponseRejected, ErrorCodes.ConnectionInactive]);

/** Spawns the server through the subprocess seam (LSP-6) in `scope` and runs `initialize`/`initialized`. */
export async function startClient(scope: Scope, opts: ClientOptions): Promise<LspClient> {
  const spawnedAt = Date.now();
  const child: ChildHandle = spawnChild(scope, {
    command: opts.command, args: [...opts.args], cwd: opts.root, label: opts.label, stderrLimitBytes: opts.stderrLimitBytes ?? 16 * 1024,
  });
  const connection: MessageConnection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin), quietLogger);
  const pending = new Set<(error: HostError) => void>();
  const listeners = new Set<{ fn: CloseListener }>();
  let closedWith: { error: HostError; expected: boolean } | undefined;
  let disposing = false;
  /** A getter, so that narrowing of `closedWith` in one callback does not leak into another. */
  const closedError = (): HostError | undefined => closedWith?.error;

  const close = (why: string) => {
    if (closedWith) return;
    const expected = disposing;
    // "server_stopped" when Seam stopped it (dispose): not a crash, so nothing replays a query on it.
    const error = new HostError("closed:lsp", `${opts.label} ${why}.${expected ? "" : tail(child.stderrTail())}`, { reason: expected ? "server_stopped" : "server_exited", pid: child.pid });
    closedWith = { error, expected };
    for (const reject of [...pending]) reject(error);
    pending.clear();
    for (const { fn } of [...listeners]) {
      try {
        fn(error, expected);
      } catch {
        // A listener's failure must not keep the others from hearing about the close.
      }
    }
    listeners.clear();
    connection.dispose();
  };

  const exitWords = (exit: { code: number | null; signal: string | null }) => (exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`);
  // A stream that ends or breaks (EPIPE) usually does so because the process died: wait a moment for the
  // exit, to say how it ended; otherwise say what happened to the stream.
  const streamEnded = (why: string) => {
    const timer = setTimeout(() => close(why), 250);
    timer.unref();
    void child.exited.then((exit) => {
      clearTimeout(timer);
      close(exitWords(exit));
    });
  };
  connection.onClose(() => streamEnded("closed its connection"));
  connection.onError(([error]) => streamEnded(`failed on its stdio stream (${messageOf(error)})`));
  void child.exited.then((exit) => close(exitWords(exit)));

  const folder = { uri: pathToFileURL(opts.root).href, name: basename(opts.root) || opts.root };
  connection.onRequest("workspace/configuration", (params: unknown) => answerConfiguration(opts.settings, params));
  connection.onRequest("workspace/workspaceFolders", () => [folder]);
  connection.onRequest("client/registerCapability", () => null);
  connection.onRequest("client/unregisterCapability", () => null);
  connection.onRequest("window/showMessageRequest", () => null);
  connection.onRequest("workspace/applyEdit", () => ({ applied: false, failureReason: "Seam's language-server client is read-only." }));
  connection.onRequest("window/showDocument", () => ({ success: false }));
  const progress = trackProgress(connection);
  connection.listen();

  const request = <R>(method: string, params: unknown, signal?: AbortSignal): Promise<R> => {
    if (closedWith) return Promise.reject(closedWith.error);
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<R>((resolve, reject) => {
      const source = new CancellationTokenSource();
      let done = false;
      const finish = () => {
        done = true;
        pending.delete(onClosed);
        signal?.removeEventListener("abort", onAbort);
        source.dispose();
      };
      const onClosed = (error: HostError) => {
        if (done) return;
        finish();
        reject(error);
      };
      // vscode-jsonrpc sends $/cancelRequest on cancel but keeps waiting for the server; we stop waiting.
      const onAbort = () => {
        if (done) return;
        source.cancel();
        finish();
        reject(abortError(signal!));
      };
      pending.add(onClosed);
      signal?.addEventListener("abort", onAbort, { once: true });
      connection.sendRequest<R>(method, params, source.token).then(
        (value) => {
          if (done) return;
          finish();
          resolve(value);
        },
        (error: unknown) => {
          if (done) return;
          finish();
          reject(wrap(error, opts.label, method, closedError()));
        },
      );
    });
  };

  const notify = async (method: string, params: unknown) => {
    if (closedWith) throw closedWith.error;
    try {
      await connection.sendNotification(method, params);
    } catch (error) {
      throw wrap(error, opts.label, method, closedError());
    }
  };

  let disposed: Promise<void> | undefined;
  const dispose = () => (disposed ??= (async () => {
    disposing = true;
    if (!closedWith) {
      try {
        await request("shutdown", null, AbortSignal.timeout(SHUTDOWN_MS));
        await notify("exit", null);
      } catch {
        // A server that cannot shut down politely is stopped below anyway.
      }
    }
    close("was stopped");
    await child.stop();
  })());
  scope.add(dispose, `lsp-client:${opts.label}`);

  let capabilities: ServerCapabilities = {};
  try {
    const init = AbortSignal.timeout(opts.startTimeoutMs ?? 60_000);
    const result = await request<{ capabilities?: ServerCapabilities }>("initialize", {
      processId: process.pid,
      clientInfo: { name: "seam" },
      rootUri: folder.uri,
      rootPath: opts.root,
      workspaceFolders: [folder],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: opts.initializationOptions ?? null,
    }, init);
    capabilities = result?.capabilities ?? {};
    const encoding = capabilities.positionEncoding;
    if (encoding !== undefined && encoding !== "utf-16") {
      throw new HostError("unavailable:lsp", `${opts.label} chose the position encoding "${String(encoding)}"; Seam speaks UTF-16 only.`, { reason: "server_failed" });
    }
    await notify("initialized", {});
    // Many servers read their settings only from this push (or re-ask workspace/configuration on it).
    if (opts.settings !== undefined) await notify("workspace/didChangeConfiguration", { settings: opts.settings });
  } catch (error) {
    await dispose();
    throw isHostError(error) && error.kind !== "timeout" ? error : new HostError("unavailable:lsp", `${opts.label} did not start: ${messageOf(error)}${tail(child.stderrTail())}`, { reason: "server_failed" }, { cause: error });
  }

  return {
    pid: child.pid,
    capabilities,
    get closed() { return closedWith !== undefined; },
    spawnedAt,
    progress,
    request,
    notify,
    onClose(fn) {
      if (closedWith) {
        fn(closedWith.error, closedWith.expected);
        return () => {};
      }
      const listener = { fn };
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    stderrTail: () => child.stderrTail(),
    dispose,
  };
}

const quietLogger = { error: () => {}, warn: () => {}, info: () => {}, log: () => {} };

function abortError(signal: AbortSignal): HostError {
  const reason: unknown = signal.reason;
  if (isHostError(reason)) return reason;
  if (reason instanceof Error && reason.name === "TimeoutError") return new HostError("timeout:lsp", "The language server did not answer in time.", { reason: "timeout" });
  return new HostError("closed:lsp", "The request was cancelled.", { reason: "cancelled" });
}

/** Foreign errors → HostError (STYLE §4): transport failures are `closed:lsp`, refusals name the operation. */
function wrap(error: unknown, label: string, method: string, closedError?: HostError): HostError {
  if (isHostError(error)) return error;
  if (closedError) return closedError;
  if (error instanceof ConnectionError || (error instanceof ResponseError && TRANSPORT_CODES.has(error.code))) {
    return new HostError("closed:lsp", `${label}: the connection failed during ${method} (${error.message}).`, { reason: "server_exited" }, { cause: error });
  }
  if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) {
    return new HostError("unavailable:lsp", `${method} is not supported by this language server (${label}).`, { reason: "operation_unsupported", method }, { cause: error });
  }
  const code = error instanceof ResponseError ? ` [${error.code}]` : "";
  return new HostError("unavailable:lsp", `${label} failed ${method}${code}: ${messageOf(error)}`, { reason: "server_error", method }, { cause: error });
}

function tail(stderr: string): string {
  const last = stderr.trim().split("\n").slice(-3).join(" | ").slice(-400);
  return last ? ` Last stderr: ${last}` : "";
}
