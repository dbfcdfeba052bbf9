/**
 * One `bash -c` command through the host's subprocess seam: its own process group, sanitized env, stdin
 * closed at once, stdout and stderr on one pipe in arrival order, decoded as it arrives into a bounded
 * buffer. The run ends when bash has exited; whatever it left running in its group is stopped then.
 */
import { StringDecoder } from "node:string_decoder";
import { spawnChild } from "../core/process.js";
import { signalGroup } from "../core/process-group.js";
import type { Scope } from "../core/scope.js";
import { OutputBuffer } from "./output.js";

export interface CommandSpec {
  command: string;
  cwd: string;
  /** bwrap and its arguments up to `--`; absent: no sandbox. */
  sandbox?: { bwrap: string; args: string[] };
  label: string;
  outputLimit?: number;
  /** Live output, as decoded text, in arrival order. */
  onOutput?(chunk: string): void;
}

/** Why Seam stopped a command: its deadline, the call was cancelled, job_kill / the UI / session deletion, host shutdown. */
export type StopCause = "timeout" | "cancelled" | "killed" | "shutdown";

export interface CommandExit {
  exitCode: number | null;
  signal: string | null;
  startedAt: Date;
  endedAt: Date;
  durationMs: number;
  stoppedBy: StopCause | null;
}

export interface RunningCommand {
  readonly pid: number;
  readonly output: OutputBuffer;
  readonly startedAt: Date;
  /** Resolves once bash exited, its group is gone and the output is drained. Never rejects. */
  readonly done: Promise<CommandExit>;
  /** Set when `done` resolved. */
  exit(): CommandExit | null;
  /** SIGTERM to the group now, SIGKILL after the seam's grace; resolves with the exit. */
  stop(cause: StopCause): Promise<CommandExit>;
}

/**
 * bash's stderr becomes its stdout, so both arrive interleaved on one pipe; `exec` keeps bash the group leader.
 * stdin is /dev/null, not the seam's pipe: Node's pipes are socketpairs, and a non-interactive bash whose stdin
 * is a socket takes itself for an ssh session and sources ~/.bashrc (the user's prompt setup, pyenv, …).
 */
const MERGE_STDERR = 'exec "$@" 2>&1 </dev/null';
/** How long output may keep coming after bash exited, from what it left running, before that is stopped. */
const LINGER_MS = 100;
const DRAIN_MS = 500;

export function startCommand(parent: Scope, spec: CommandSpec): RunningCommand {
  const scope = parent.child(`bash:${spec.label}`);
  const inner = ["bash", "-c", spec.command];
  const args = ["-c", MERGE_STDERR, "sh", ...(spec.sandbox ? [spec.sandbox.bwrap, ...spec.sandbox.args] : []), ...inner];
  let child: ReturnType<typeof spawnChild>;
  try {
    child = spawnChild(scope, { label: spec.label, command: "sh", args, cwd: spec.cwd });
  } catch (error) {
    void scope.dispose().catch(() => {});
    throw error;
  }
  const startedAt = new Date();
  const pid = child.pid;
  let leaderExited = false;
  let finished: CommandExit | null = null;
  let stoppedBy: StopCause | null = null;
  // Runs before the seam's own stop (LIFO): on host shutdown the group gets SIGTERM at once, not after stdin's grace.
  scope.add(() => {
    stoppedBy ??= "shutdown";
    if (!leaderExited) signalGroup(pid, "SIGTERM");
  }, "sigterm");
  child.stdin.end();

  const output = new OutputBuffer(spec.outputLimit);
  const decoder = new StringDecoder("utf8");
  const push = (text: string) => {
    if (!text) return;
    output.push(text);
    try {
      spec.onOutput?.(text);
    } catch {
      // A failing live view must not stop the command or lose its output.
    }
  };
  child.stdout.on("data", (chunk: Buffer) => {
    output.bytes += chunk.length;
    push(decoder.write(chunk));
  });
  const stdoutClosed = new Promise<void>((resolve) => child.stdout.once("close", () => resolve()));

  const done = (async (): Promise<CommandExit> => {
    const leader = await child.exited;
    leaderExited = true;
    await settleWithin(stdoutClosed, LINGER_MS);
    await child.stop();
    await settleWithin(stdoutClosed, DRAIN_MS);
    push(decoder.end());
    // Only the wrapper (sh, setpriv) can write here, and only when it failed before bash started.
    push(child.stderrTail());
    const endedAt = new Date();
    finished = { exitCode: leader.code, signal: leader.signal, startedAt, endedAt, durationMs: endedAt.getTime() - startedAt.getTime(), stoppedBy };
    await scope.dispose().catch(() => {});
    return finished;
  })();

  return {
    pid,
    output,
    startedAt,
    done,
    exit: () => finished,
    async stop(cause) {
      if (finished) return finished;
      stoppedBy ??= cause;
      if (!leaderExited) signalGroup(pid, "SIGTERM");
      await child.stop();
      return done;
    },
  };
}

function settleWithin(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
