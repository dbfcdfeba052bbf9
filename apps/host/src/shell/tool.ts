import { readFileSync } from "node:fs";
import type { ToolEffect } from "@seam/shared";
import type { z } from "zod";
import { defineTool, type CallPreview, type ToolContext, type ToolDef, type ToolResult } from "../agent/tool.js";
import type { Jobs } from "./jobs.js";
import type { ElideLimits } from "./output.js";
import type { SandboxLabel } from "./render.js";
import type { CommandSpec, RunningCommand } from "./run.js";

/** How a command runs in a workspace under the current settings. */
export interface Plan {
  sandbox?: CommandSpec["sandbox"];
  label: SandboxLabel;
}

/** What the shell tools need from the capability. */
export interface ToolDeps {
  /** Throws `sandbox_unavailable` / `workspace_is_data_dir` when the settings ask for a sandbox that cannot run. */
  plan(workspace: string): Plan;
  start(spec: CommandSpec): RunningCommand;
  jobs: Jobs;
  limits: ShellLimits;
}

export interface ShellLimits {
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  /** What the model is shown of an output (the middle is elided). */
  render: ElideLimits;
  /** Characters kept per command (head and tail halves). */
  outputLimit: number;
  maxJobs: number;
  keepFinished: number;
}

/** A shell tool whose model-facing description is `<name in kebab-case>.md` beside this file. */
export function shellTool<S extends z.ZodType>(def: {
  name: string;
  input: S;
  effect: ToolEffect;
  timeoutMs?: number;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
  preview?(args: z.output<S>, ctx: ToolContext): Promise<CallPreview>;
}): ToolDef {
  const description = readFileSync(new URL(`./${def.name.replaceAll("_", "-")}.md`, import.meta.url), "utf8").trim();
  return defineTool({ ...def, description, capability: "shell" });
}
