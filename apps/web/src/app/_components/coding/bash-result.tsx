"use client";
import type { ToolCallItem } from "@seam/shared";
import { FolderIcon } from "lucide-react";
import type { ReactNode } from "react";
import { z } from "zod";
import { Badge } from "@/components/ui/badge";
import { formatBytes } from "@/lib/format";
import { formatDuration } from "@/lib/time";
import { ModelTextDetails } from "../chat/model-text-details";
import { TerminalBlock } from "../terminal/terminal-block";

/** bash's arguments (CODE-3). */
const BashArgs = z.object({ command: z.string(), description: z.string().nullish(), background: z.boolean().nullish(), timeout_ms: z.number().nullish() });

/** bash's canonical result; every field but the command may be missing on an unexpected shape. */
const BashResult = z.object({
  command: z.string().nullish(),
  cwd: z.string().nullish(),
  exitCode: z.number().nullish(),
  signal: z.string().nullish(),
  durationMs: z.number().nullish(),
  timedOut: z.boolean().nullish(),
  output: z.string().nullish(),
  outputBytes: z.number().nullish(),
  truncated: z.boolean().nullish(),
  sandbox: z.unknown().optional(),
  /** A background command's job. */
  jobId: z.string().nullish(),
  job_id: z.string().nullish(),
});

export interface BashView {
  command: string;
  description: string | null;
  background: boolean;
  cwd: string | null;
  result: z.infer<typeof BashResult> | null;
}

const isShell = (name: string) => name === "bash";

/** What a bash card shows, or null for other tools (and for arguments that are not a command). */
export function bashViewOf(call: Pick<ToolCallItem, "name" | "args" | "canonical">): BashView | null {
  if (!isShell(call.name)) return null;
  const args = BashArgs.safeParse(call.args);
  const result = BashResult.safeParse(call.canonical);
  const r = result.success ? result.data : null;
  const command = r?.command ?? (args.success ? args.data.command : null);
  if (command === null || command === undefined) return null;
  return {
    command,
    description: args.success ? (args.data.description ?? null) : null,
    background: args.success ? Boolean(args.data.background) : false,
    cwd: r?.cwd ?? null,
    result: r,
  };
}

/** How a finished command ended, in a few words: "exit 0", "exit 2", "killed by SIGTERM", "timed out". */
export function exitLabel(r: NonNullable<BashView["result"]>): { label: string; ok: boolean } {
  if (r.timedOut) return { label: "timed out", ok: false };
  if (r.signal) return { label: `killed by ${r.signal}`, ok: false };
  if (typeof r.exitCode === "number") return { label: `exit ${r.exitCode}`, ok: r.exitCode === 0 };
  return { label: "finished", ok: true };
}

/** The command line and its folder, as a prompt. */
export function CommandLine({ command, cwd }: { command: string; cwd: string | null }) {
  return (
    <span className="flex min-w-0 flex-col gap-0.5">
      {cwd && (
        <span data-testid="bash-cwd" className="flex items-center gap-1 truncate text-zinc-400" title={cwd}>
          <FolderIcon className="size-3 shrink-0" /> {cwd}
        </span>
      )}
      <span data-testid="bash-command" className="whitespace-pre-wrap break-all text-zinc-100">
        <span className="select-none text-emerald-400">$ </span>
        {command}
      </span>
    </span>
  );
}

/** The live tail of a running command, under its card's header. */
export function BashLive({ view, output }: { view: BashView; output: string }) {
  return (
    <div data-testid="bash-live" className="border-t bg-card px-2.5 py-2">
      <TerminalBlock live text={output} header={<CommandLine command={view.command} cwd={view.cwd} />} testId="bash-output" />
    </div>
  );
}

/** The Result tab of a bash card: the command and its folder, the full output, and how it ended. */
export function BashResultView({ view, modelText }: { view: BashView; modelText: ReactNode }) {
  const r = view.result;
  const jobId = r?.jobId ?? r?.job_id ?? null;
  const exit = r ? exitLabel(r) : null;
  return (
    <div data-testid="bash-result" className="flex flex-col gap-2">
      <TerminalBlock text={r?.output ?? ""} header={<CommandLine command={view.command} cwd={view.cwd} />} testId="bash-output" empty={jobId ? "Runs in the background." : "(no output)"} />
      <div className="flex flex-wrap items-center gap-2 text-[12px] text-muted-foreground">
        {exit && !jobId && (
          <Badge data-testid="bash-exit" tone={exit.ok ? "success" : "danger"} className="font-mono">
            {exit.label}
          </Badge>
        )}
        {jobId && (
          <Badge data-testid="bash-job" tone="accent" className="font-mono">
            background job {jobId}
          </Badge>
        )}
        {typeof r?.durationMs === "number" && <span data-testid="bash-duration">{formatDuration(r.durationMs)}</span>}
        {typeof r?.outputBytes === "number" && <span>{formatBytes(r.outputBytes)} of output</span>}
        {r?.truncated && <span>output shortened for the model</span>}
      </div>
      {modelText && <ModelTextDetails>{modelText}</ModelTextDetails>}
    </div>
  );
}
