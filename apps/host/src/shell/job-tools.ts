import type { ShellJobView } from "@seam/shared";
import { z } from "zod";
import type { ToolDef } from "../agent/tool.js";
import { viewOf } from "./jobs.js";
import { renderJobKill, renderJobOutput } from "./render.js";
import { shellTool, type ToolDeps } from "./tool.js";

const Input = z.object({ job_id: z.string().min(1).max(100).describe('The id bash returned for the background job, e.g. "job_3"') });

/** What job_output and job_kill return to programs and the UI. */
export interface JobResult {
  job: ShellJobView;
  /** Output since the previous job_output / job_kill (bounded; a dropped middle is marked). */
  output: string;
  /** Characters of it the job's buffer no longer held. */
  dropped: number;
}

export function jobOutputTool(deps: Pick<ToolDeps, "jobs" | "limits">): ToolDef {
  return shellTool({
    name: "job_output",
    input: Input,
    effect: "read",
    async run(args, ctx) {
      const job = deps.jobs.get(ctx.sessionId, args.job_id);
      const fresh = deps.jobs.unread(job);
      const canonical: JobResult = { job: viewOf(job), output: fresh.text, dropped: fresh.dropped };
      return { canonical, rendered: renderJobOutput(job, fresh.text, deps.limits.render) };
    },
  });
}

export function jobKillTool(deps: Pick<ToolDeps, "jobs" | "limits">): ToolDef {
  return shellTool({
    name: "job_kill",
    input: Input,
    // It only stops a job this session started itself.
    effect: "read",
    async run(args, ctx) {
      const job = deps.jobs.get(ctx.sessionId, args.job_id);
      const wasRunning = job.run.exit() === null;
      await deps.jobs.kill(ctx.sessionId, job.id);
      const fresh = deps.jobs.unread(job);
      const canonical: JobResult = { job: viewOf(job), output: fresh.text, dropped: fresh.dropped };
      return { canonical, rendered: renderJobKill(job, wasRunning, fresh.text, deps.limits.render) };
    },
  });
}
