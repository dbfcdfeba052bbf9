import type { ProcessInfo } from "@seam/shared";
import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { isMainThread } from "node:worker_threads";
import { currentChildGroups } from "./child-groups.js";
import { HostError } from "./errors.js";
import { groupAlive, signalGroup, startTimeOf, until } from "./process-group.js";
import type { Scope } from "./scope.js";

export interface SpawnOptions {
  command: string;
  args?: string[];
  cwd?: string;
  /** Added to the sanitized parent environment; explicit values win, even credential-looking ones. */
  env?: Record<string, string>;
  /** How much of the end of stderr to keep (default 64 KiB). */
  stderrLimitBytes?: number;
  label: string;
  /**
   * Linux: the kernel SIGKILLs the child when the host dies, even by kill -9 (PR_SET_PDEATHSIG, set by
   * util-linux `setpriv --pdeathsig KILL`, which then execs the command in place). Default: on where
   * `setpriv` exists and the spawn runs on the main thread. It covers the group leader only; whatever the
   * leader started is reaped by the next host on the same data directory (`child-groups.ts`).
   */
  dieWithHost?: boolean;
}

export interface ChildExit { code: number | null; signal: string | null }

export interface ChildHandle {
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  /** Resolves when the child exited and its stderr was drained (or shortly after exit). */
  readonly exited: Promise<ChildExit>;
  stderrTail(): string;
  /** End stdin → 2 s → SIGTERM to the process group → 2 s → SIGKILL. Memoized. */
  stop(): Promise<void>;
}

export interface ChildInfo {
  label: string;
  pid: number;
  command: string;
  startedAt: Date;
  state: "running" | "exited";
  exit: ChildExit | null;
  endedAt: Date | null;
  stderrTail: string;
}

const CREDENTIAL_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;
const GRACE_MS = 2_000;
const DRAIN_MS = 200;

/** The parent environment without anything that looks like a credential (SEC-4). */
export function sanitizeEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && !CREDENTIAL_NAME.test(name)) out[name] = value;
  }
  return out;
}

type Tracked = { info: Omit<ChildInfo, "stderrTail" | "state" | "exit" | "endedAt">; tail: StderrTail; exit: ChildExit | null; endedAt: Date | null };
const live = new Map<number, Tracked>();
/** Recently exited children, newest last, so a crashed server's stderr stays readable. */
const recent: Tracked[] = [];
const RECENT_LIMIT = 20;
/** Process groups that may still have members; killed synchronously if the host exits. */
const groups = new Set<number>();
let exitHookInstalled = false;

/** Children running now, then the last few that exited, for status pages. */
export function listChildren(): ChildInfo[] {
  const view = (t: Tracked, state: ChildInfo["state"]): ChildInfo => ({ ...t.info, state, exit: t.exit, endedAt: t.endedAt, stderrTail: t.tail.text() });
  return [...[...live.values()].map((t) => view(t, "running")), ...[...recent].reverse().map((t) => view(t, "exited"))];
}

function retire(pid: number, exit: ChildExit) {
  const tracked = live.get(pid);
  if (!tracked) return;
  live.delete(pid);
  recent.push({ ...tracked, exit, endedAt: new Date() });
  if (recent.length > RECENT_LIMIT) recent.shift();
}

export const stopChild = (child: ChildHandle): Promise<void> => child.stop();

/** Starts a child in its own process group, owned by `scope`: disposing the scope stops the whole tree. */
export function spawnChild(scope: Scope, opts: SpawnOptions): ChildHandle {
  if (scope.disposed) throw new HostError("closed:host", `Cannot start ${opts.label}: scope "${scope.label}" is already disposed.`);
  if (opts.cwd !== undefined && !isDirectory(opts.cwd)) {
    throw new HostError("bad_input:host", `Cannot start ${opts.label}: working directory ${opts.cwd} does not exist or is not a directory.`, { reason: "spawn_failed" });
  }
  const env = { ...sanitizeEnv(process.env), ...opts.env };
  const wrapper = (opts.dieWithHost ?? true) ? deathSignalWrapper() : undefined;
  // Behind the wrapper a missing command would be setpriv's exit 127; look it up first to fail the same way.
  if (wrapper && !findExecutable(opts.command, env.PATH, opts.cwd)) throw notFound(opts);
  const [command, args] = wrapper ? [wrapper, ["--pdeathsig", "KILL", "--", opts.command, ...(opts.args ?? [])]] : [opts.command, opts.args ?? []];
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env,
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  // Without a listener a spawn or kill error would crash the host; failures surface through pid/exit instead.
  child.on("error", () => {});
  child.stdin.on("error", () => {});
  const pid = child.pid;
  if (pid === undefined) throw notFound(opts);
  // Recorded in the data directory so the next host can reap the group if this one dies without stopping it.
  const records = currentChildGroups();
  const startTime = records ? startTimeOf(pid) : undefined;
  if (records && startTime) records.add({ pgid: pid, pid, startTime, label: opts.label, command: opts.command });

  const tail = new StderrTail(opts.stderrLimitBytes ?? 64 * 1024);
  child.stderr.on("data", (chunk: Buffer) => tail.push(chunk));
  live.set(pid, { info: { label: opts.label, pid, command: opts.command, startedAt: new Date() }, tail, exit: null, endedAt: null });
  groups.add(pid);
  installExitHook();

  let leaderExit: ChildExit | undefined;
  let groupGone = false;
  const quiet = () => {
    if (!leaderExit) return false;
    if (!groupGone && !groupAlive(pid)) {
      groupGone = true;
      groups.delete(pid);
      if (startTime) records?.remove(pid);
    }
    return groupGone;
  };
  const kill = (signal: NodeJS.Signals) => {
    if (!groupGone) signalGroup(pid, signal);
  };

  const exited = new Promise<ChildExit>((resolve) => {
    child.once("exit", (code, signal) => {
      leaderExit = { code, signal };
      retire(pid, leaderExit);
      // A tree that is entirely gone needs no teardown; forgetting it keeps long-lived scopes from growing.
      if (quiet()) void forget();
      if (child.stderr.readableEnded || child.stderr.destroyed) return resolve(leaderExit);
      const timer = setTimeout(() => resolve({ code, signal }), DRAIN_MS);
      timer.unref();
      child.stderr.once("close", () => {
        clearTimeout(timer);
        resolve({ code, signal });
      });
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= (async () => {
    // The escalation timers are unref'd; this ref'd handle keeps a short-lived process (CLI, bench) alive
    // until the teardown finished, so the tree is never left behind by an early exit.
    const keepAlive = setInterval(() => {}, 60_000);
    try {
      child.stdin.end();
      if (!(await until(() => leaderExit !== undefined, GRACE_MS)) || !quiet()) {
        kill("SIGTERM");
        if (!(await until(quiet, GRACE_MS))) {
          kill("SIGKILL");
          await until(quiet, GRACE_MS);
        }
      }
      if (leaderExit) retire(pid, leaderExit);
    } finally {
      clearInterval(keepAlive);
    }
  })());

  const forget = scope.add(stop, `process:${opts.label}`);
  return { pid, stdin: child.stdin, stdout: child.stdout, exited, stderrTail: () => tail.text(), stop };
}

/** Keeps the last `limit` bytes written to stderr. */
class StderrTail {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}

  push(chunk: Buffer) {
    const kept = chunk.length > this.limit ? chunk.subarray(chunk.length - this.limit) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
    while (this.chunks.length > 0 && this.size - this.chunks[0]!.length >= this.limit) this.size -= this.chunks.shift()!.length;
  }

  text(): string {
    const all = Buffer.concat(this.chunks);
    let bytes = all.subarray(Math.max(0, all.length - this.limit));
    // Don't start in the middle of a UTF-8 sequence.
    let skip = 0;
    while (skip < 3 && skip < bytes.length && (bytes[skip]! & 0xc0) === 0x80) skip++;
    bytes = bytes.subarray(skip);
    return bytes.toString("utf8");
  }
}


function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Children run in their own process groups, so they would outlive a host that exits without disposing.
  process.once("exit", () => {
    for (const pgid of groups) signalGroup(pgid, "SIGKILL");
  });
}

function notFound(opts: SpawnOptions): HostError {
  return new HostError("unavailable:host", `Cannot start ${opts.label}: "${opts.command}" was not found or is not executable. Check the command and PATH.`, { reason: "spawn_failed" });
}

let setpriv: string | null | undefined;
/**
 * util-linux `setpriv` (essential on Debian), or undefined. PR_SET_PDEATHSIG fires when the *thread* that
 * forked the child exits, not the process: a spawn from a worker thread would kill the child when that worker
 * ends, so only the main thread (libuv forks on the thread that calls spawn) uses it.
 */
export function deathSignalWrapper(): string | undefined {
  if (process.platform !== "linux" || !isMainThread) return undefined;
  setpriv ??= ["/usr/bin/setpriv", "/bin/setpriv"].find((path) => isExecutable(path)) ?? null;
  return setpriv ?? undefined;
}

/** Whether execvp would find `command` (as the child would: its PATH, relative to its cwd). */
function findExecutable(command: string, path: string | undefined, cwd: string | undefined): boolean {
  const base = cwd ?? process.cwd();
  if (command.includes("/")) return isExecutable(resolve(base, command));
  return (path ?? "/usr/bin:/bin").split(delimiter).some((dir) => isExecutable(resolve(base, dir, command)));
}

/** An executable regular file (X_OK for this process). */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** What the tRPC layer calls (`HostApi["processes"]`): the Processes view of the capability overview. */
export interface ProcessesApi { list(): Promise<ProcessInfo[]> }

export const processesApi: ProcessesApi = {
  list: async () => listChildren().map((c) => ({
    label: c.label, pid: c.pid, command: c.command, state: c.state,
    exitCode: c.exit?.code ?? null, exitSignal: c.exit?.signal ?? null,
    startedAt: c.startedAt.toISOString(), endedAt: c.endedAt?.toISOString() ?? null, stderrTail: c.stderrTail,
  })),
};
