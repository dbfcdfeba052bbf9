import type { ShellJobsChange } from "@seam/shared";
import { createBus } from "../core/events.js";
import type { LiveSources } from "../core/live.js";
import { join } from "node:path";
import type { CapabilityRow, ShellJobOutput, ShellJobView, ShellSandboxAvailability, ShellSettings, ShellSettingsInput, ShellSettingsView } from "@seam/shared";
import { toolsOf, type ToolRegistry } from "../agent/registry.js";
import type { ToolDef } from "../agent/tool.js";
import { messageOf } from "../core/errors.js";
import { createLog, type Log } from "../core/log.js";
import type { Disposer, Scope } from "../core/scope.js";
import { bashTool } from "./bash.js";
import { shellError } from "./errors.js";
import { jobKillTool, jobOutputTool } from "./job-tools.js";
import { createJobs, viewOf } from "./jobs.js";
import { MODEL_LIMITS, OUTPUT_LIMIT_CHARS } from "./output.js";
import { startCommand } from "./run.js";
import { isExecutable } from "../core/process.js";
import { findBwrap, probeSandbox, sandboxArgs } from "./sandbox.js";
import { loadSettings, parseSettings, SETTINGS_KEY, type SettingsStore } from "./settings.js";
import { shellStatus } from "./status.js";
import type { Plan, ShellLimits } from "./tool.js";

export type { ShellLimits } from "./tool.js";
export type { BashResult, BashStarted } from "./bash.js";
export type { JobResult } from "./job-tools.js";
export { SETTINGS_KEY } from "./settings.js";

export const DEFAULT_LIMITS: ShellLimits = {
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  render: MODEL_LIMITS,
  outputLimit: OUTPUT_LIMIT_CHARS,
  maxJobs: 8,
  keepFinished: 8,
};

/** What the tRPC layer calls (`HostApi["shell"]`): Settings → Shell and the session's job chips. */
export interface Api {
  settings: {
    get(): Promise<ShellSettingsView>;
    /** Validates and stores; a sandboxed mode while bwrap cannot run is refused (`bad_input`, reason `sandbox_unavailable`). */
    set(input: ShellSettingsInput): Promise<ShellSettingsView>;
  };
  /** Runs the bwrap probe again (e.g. after installing bubblewrap). */
  probe(): Promise<ShellSandboxAvailability>;
  jobs: {
    list(sessionId: string): Promise<ShellJobView[]>;
    /** Stops the job's process group; `job_not_found` for an unknown id or another session's job. */
    kill(sessionId: string, jobId: string): Promise<ShellJobView>;
    /** The job's whole buffered output (does not move job_output's cursor). */
    output(sessionId: string, jobId: string): Promise<ShellJobOutput>;
  };
}

/** The shell capability (CODE-3, CODE-4). */
export interface Interface {
  readonly api: Api;
  readonly tools: ToolDef[];
  /** The capability overview's row. */
  status(): CapabilityRow;
  /** Stops every background job of the session; call it before the session is deleted. */
  killSessionJobs(sessionId: string): Promise<void>;
  /** Fires with the session id whenever one of its jobs starts, ends, is killed or is forgotten. */
  onChange(fn: (sessionId: string) => void): Disposer;
  /** Live topic `jobs`: a session's jobs after each change. */
  readonly live: Pick<LiveSources, "jobs">;
}

export interface Deps {
  registry: ToolRegistry;
  /** The host's Setting table. */
  settings: SettingsStore;
  /** The host's data directory (`~/.seam`, `$SEAM_HOME`): hidden from sandboxed commands. */
  home: string;
  /** Default `<home>/secrets.json`; hidden from sandboxed commands. */
  secretsFile?: string;
  /** The bwrap executable (tests point it at a missing path); default: `bwrap` on PATH. */
  bwrap?: string;
  env?: NodeJS.ProcessEnv;
  limits?: Partial<ShellLimits>;
  log?: Log;
}

/** Probes bwrap, loads (on first start: stores) the settings, registers bash, job_output and job_kill. */
export async function create(scope: Scope, deps: Deps): Promise<Interface> {
  const log = deps.log ?? createLog("shell");
  const limits: ShellLimits = { ...DEFAULT_LIMITS, ...deps.limits };
  const bwrap = deps.bwrap ?? findBwrap(deps.env);
  const secretsFile = deps.secretsFile ?? join(deps.home, "secrets.json");
  let availability = await probeSandbox(scope, bwrap);
  if (!availability.available) log.warn(`the command sandbox is unavailable: ${availability.reason}`);
  let { settings, source } = await loadSettings(deps.settings, availability, log);
  const jobs = createJobs({ maxJobs: limits.maxJobs, keepFinished: limits.keepFinished, onListenerError: (error) => log.warn("a job listener failed", { error: messageOf(error) }) });
  const jobScope = scope.child("jobs");

  const plan = (workspace: string): Plan => {
    const label = { mode: settings.sandbox, network: settings.network };
    if (settings.sandbox === "off") return { label };
    if (availability.available && !isExecutable(bwrap)) {
      availability = { ...availability, available: false, checkedAt: new Date().toISOString(), reason: `bwrap is not installed any more (nothing executable at ${bwrap}) — install the Debian package bubblewrap.` };
    }
    if (!availability.available) {
      throw shellError("unavailable", "sandbox_unavailable", `The sandbox is set to ${settings.sandbox}, but bubblewrap cannot run: ${availability.reason} Seam does not run commands unsandboxed instead; ask the user to fix bwrap or to set the sandbox to off in Settings → Shell.`);
    }
    return { label, sandbox: { bwrap, args: sandboxArgs(settings.sandbox, settings.network, { workspace, home: deps.home, secretsFile }) } };
  };

  const toolDeps = { plan, start: (spec: Parameters<typeof startCommand>[1]) => startCommand(jobScope, spec), jobs, limits };
  const tools = [bashTool(toolDeps), jobOutputTool(toolDeps), jobKillTool(toolDeps)];
  for (const tool of tools) scope.add(deps.registry.register(tool), `tool:${tool.name}`);

  const view = (): ShellSettingsView => ({ settings, source, availability });
  const probe = async () => {
    availability = await probeSandbox(scope, bwrap);
    return availability;
  };
  let saving: Promise<unknown> = Promise.resolve();
  const save = (input: ShellSettingsInput): Promise<ShellSettingsView> => {
    const run = saving.then(async () => {
      const next: ShellSettings = parseSettings(input);
      if (next.sandbox !== "off" && !(await probe()).available) {
        throw shellError("bad_input", "sandbox_unavailable", `The ${next.sandbox} sandbox cannot be chosen: ${availability.reason} Only "off" can be saved until bwrap works here.`);
      }
      await deps.settings.set(SETTINGS_KEY, next);
      settings = next;
      source = "saved";
      return view();
    });
    saving = run.catch(() => {});
    return run;
  };

  const bus = createBus<{ jobs: ShellJobsChange }>();
  scope.add(jobs.onChange((sessionId) => bus.emit("jobs", { sessionId, jobs: jobs.list(sessionId) })), "jobs:live");

  return {
    tools,
    live: { jobs: (signal) => bus.iterate("jobs", signal) },
    status: () => shellStatus(toolsOf(deps.registry, "shell"), settings, availability),
    killSessionJobs: (sessionId) => jobs.killSession(sessionId),
    onChange: (fn) => jobs.onChange(fn),
    api: {
      settings: { get: async () => view(), set: save },
      probe,
      jobs: {
        list: async (sessionId) => jobs.list(sessionId),
        kill: async (sessionId, jobId) => viewOf(await jobs.kill(sessionId, jobId)),
        async output(sessionId, jobId) {
          const job = jobs.get(sessionId, jobId);
          const out = job.run.output;
          return { job: viewOf(job), output: out.read().text, outputBytes: out.bytes, truncated: out.truncated };
        },
      },
    },
  };
}
