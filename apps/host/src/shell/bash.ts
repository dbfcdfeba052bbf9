import { z } from "zod";
import type { ToolDef } from "../agent/tool.js";
import { renderBash, renderStarted, type SandboxLabel } from "./render.js";
import type { CommandExit } from "./run.js";
import { shellTool, type ShellLimits, type ToolDeps } from "./tool.js";

/** Stays below any timeout the model may ask for, so the tool's own timeout (which keeps the output) wins. */
const BACKSTOP_MS = 30_000;

export interface BashResult {
  command: string;
  cwd: string;
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  timedOut: boolean;
  /** The whole output, stdout and stderr interleaved (bounded: an elided middle is marked). */
  output: string;
  outputBytes: number;
  truncated: boolean;
  sandbox: SandboxLabel;
}

export interface BashStarted {
  jobId: string;
  pid: number;
  command: string;
  cwd: string;
  background: true;
  sandbox: SandboxLabel;
}

export function bashTool(deps: ToolDeps): ToolDef {
  const { limits } = deps;
  const input = z.object({
    command: z.string().max(100_000).refine((s) => s.trim().length > 0, "The command is empty").describe("The command, run with bash -c in the session's workspace"),
    timeout_ms: z.number().int().min(1).max(limits.maxTimeoutMs).optional()
      .describe(`Milliseconds before the command is killed (default ${limits.defaultTimeoutMs}, at most ${limits.maxTimeoutMs}); not for background jobs`),
    description: z.string().max(500).optional().describe("What the command does, in a few words (shown to the user)"),
    background: z.boolean().optional().describe("Start it as a background job and return its job id at once"),
  });
  return shellTool({
    name: "bash",
    input,
    effect: "execute",
    timeoutMs: limits.maxTimeoutMs + BACKSTOP_MS,
    // The approval card shows the exact command and its folder (PERM-3); a sandbox that cannot run fails here, unasked.
    async preview(args, ctx) {
      const plan = deps.plan(ctx.workspace);
      const oneLine = args.command.length > 80 || args.command.includes("\n") ? `${args.command.split("\n")[0]!.slice(0, 80)}…` : args.command;
      const how = args.background ? "Start in the background" : "Run";
      return { summary: `${how} \`${oneLine}\` in ${ctx.workspace}${plan.label.mode === "off" ? "" : ` (sandbox: ${plan.label.mode})`}`, command: { text: args.command, cwd: ctx.workspace } };
    },
    async run(args, ctx) {
      const plan = deps.plan(ctx.workspace);
      const spec = { command: args.command, cwd: ctx.workspace, sandbox: plan.sandbox, outputLimit: limits.outputLimit };
      if (args.background) {
        const job = deps.jobs.start(ctx.sessionId, args.command, () => deps.start({ ...spec, label: `bash:job:${ctx.sessionId}` }));
        const canonical: BashStarted = { jobId: job.id, pid: job.run.pid, command: args.command, cwd: ctx.workspace, background: true, sandbox: plan.label };
        return { canonical, rendered: renderStarted(job, ctx.workspace, plan.label) };
      }
      const timeoutMs = args.timeout_ms ?? limits.defaultTimeoutMs;
      const run = deps.start({ ...spec, label: `bash:${ctx.callId}`, onOutput: ctx.output });
      const timer = setTimeout(() => void run.stop("timeout"), timeoutMs);
      const onAbort = () => void run.stop("cancelled");
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      if (ctx.signal.aborted) onAbort();
      let exit: CommandExit;
      try {
        exit = await run.done;
      } finally {
        clearTimeout(timer);
        ctx.signal.removeEventListener("abort", onAbort);
      }
      return result(args.command, ctx.workspace, exit, run.output, plan.label, limits, timeoutMs);
    },
  });
}

function result(
  command: string, cwd: string, exit: CommandExit, buffer: { read(): { text: string }; bytes: number; truncated: boolean },
  sandbox: SandboxLabel, limits: ShellLimits, timeoutMs: number,
) {
  const output = buffer.read().text;
  const timedOut = exit.stoppedBy === "timeout";
  const canonical: BashResult = {
    command, cwd, exitCode: exit.exitCode, signal: exit.signal, durationMs: exit.durationMs, timedOut, output,
    outputBytes: buffer.bytes, truncated: buffer.truncated, sandbox,
  };
  const rendered = renderBash(exit, output, sandbox, limits.render, timeoutMs);
  if (!timedOut) return { canonical, rendered };
  const message = `The command did not finish within ${timeoutMs} ms and was killed with everything it started. Pass a larger timeout_ms (at most ${limits.maxTimeoutMs}), or run it with background: true and poll job_output.`;
  return { canonical, rendered: `Error [timeout]: ${message}\n${rendered}`, error: { code: "timeout", message } };
}
