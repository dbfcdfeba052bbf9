import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { HostError } from "../core/errors.js";
import { sanitizeEnv } from "../core/process.js";

/** How a git process is started: which binary, and the environment every call shares. */
export interface GitRunner {
  /** The git binary (a command on PATH or a path). */
  readonly git: string;
  readonly env: Record<string, string>;
  /** Aborts every running call (the capability's scope is disposing). */
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
}

export interface GitCall {
  args: string[];
  /** Working folder (the workspace, so paths on stdin are relative to its root). */
  cwd?: string;
  /** Extra variables for this call (e.g. a temporary GIT_INDEX_FILE). */
  env?: Record<string, string>;
  stdin?: Buffer | string;
  /** Receives stdout as it arrives instead of collecting it; return false to stop the process early. */
  onStdout?: (chunk: Buffer) => boolean;
  /** Exit codes that are not failures (default only 0). */
  okCodes?: number[];
}

export interface GitResult { code: number; stdout: Buffer; stderr: string }

const STDERR_KEEP = 16 * 1024;

/**
 * The environment git runs with: the host's, without credentials, without any GIT_* variable that could
 * point it elsewhere, without the user's system/global config, hooks or pager (CODE-5).
 */
export function gitEnv(parent: NodeJS.ProcessEnv, home: string): Record<string, string> {
  const env = sanitizeEnv(parent);
  for (const name of Object.keys(env)) {
    if (name.startsWith("GIT_") || name === "XDG_CONFIG_HOME" || name === "EMAIL") delete env[name];
  }
  return {
    ...env,
    HOME: home,
    LC_ALL: "C",
    LANG: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_LITERAL_PATHSPECS: "1",
    GIT_PAGER: "cat",
    GIT_OPTIONAL_LOCKS: "0",
  };
}

/** Runs one git command (no shell), collecting stdout unless streamed; rejects with a HostError on failure. */
export function runGit(runner: GitRunner, call: GitCall): Promise<GitResult> {
  if (runner.signal.aborted) return Promise.reject(new HostError("closed:checkpoints", "Checkpoints are shut down (the host is stopping).", { reason: "closed" }));
  return new Promise((resolve, reject) => {
    const child = spawn(runner.git, call.args, { cwd: call.cwd, env: { ...runner.env, ...call.env }, stdio: ["pipe", "pipe", "pipe"], detached: true });
    const out: Buffer[] = [];
    let err = "";
    let stopped = false;
    let failure: HostError | undefined;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => {
      failure = new HostError("timeout:checkpoints", `git ${call.args[0] ?? ""} took longer than ${Math.round(runner.timeoutMs / 1000)} s and was stopped.`, { reason: "git_timeout" });
      kill();
    }, runner.timeoutMs);
    timer.unref();
    const onAbort = () => {
      failure = new HostError("closed:checkpoints", "Checkpoints are shut down (the host is stopping).", { reason: "closed" });
      kill();
    };
    runner.signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      if (stopped) return;
      if (!call.onStdout) return void out.push(chunk);
      if (call.onStdout(chunk) === false) {
        stopped = true;
        kill();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err = (err + chunk.toString("utf8")).slice(-STDERR_KEEP);
    });
    child.stdin.on("error", () => {});
    child.on("error", (error: NodeJS.ErrnoException) => {
      // Node reports a missing working folder as a missing command; tell them apart.
      const cwdGone = call.cwd !== undefined && !existsSync(call.cwd);
      failure ??= cwdGone
        ? new HostError("not_found:checkpoints", `The workspace ${call.cwd} no longer exists.`, { reason: "workspace_not_found" }, { cause: error })
        : error.code === "ENOENT"
        ? new HostError("unavailable:checkpoints", `git was not found ("${runner.git}"). ${INSTALL_HINT}`, { reason: "git_unavailable" }, { cause: error })
        : new HostError("internal:checkpoints", `git could not be started: ${error.message}`, { reason: "git_failed" }, { cause: error });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      runner.signal.removeEventListener("abort", onAbort);
      if (failure) return reject(failure);
      const result = { code: code ?? -1, stdout: Buffer.concat(out), stderr: err };
      if (stopped || (code !== null && (call.okCodes ?? [0]).includes(code))) return resolve(result);
      const what = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      reject(new HostError("internal:checkpoints", `git ${call.args.find((a) => !a.startsWith("-")) ?? ""} ${what}: ${err.trim().split("\n").slice(-3).join(" ") || "(no message)"}`, { reason: "git_failed" }));
    });
    child.stdin.end(call.stdin ?? "");
  });
}

export const INSTALL_HINT = "Install the Debian package git; file tools keep working without checkpoints.";

/** Splits NUL-terminated git output into its fields (the trailing empty one dropped). */
export function nulFields(buffer: Buffer): string[] {
  const text = buffer.toString("utf8");
  const fields = text.split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}
