"use client";
import type { LspProcessView } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { AlertTriangleIcon, CheckIcon, ChevronRightIcon, CircleStopIcon, LoaderCircleIcon, RotateCwIcon, XIcon } from "lucide-react";
import { StateBadge, type StateLook } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Tip } from "@/components/ui/tooltip";
import { relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { useTRPC } from "@/trpc/react";
import { useInvalidateLsp } from "./lsp-use";

/** One server's pooled processes, one per canonical workspace (LSP-4), live from the `lsp` topic. */
export function LspProcessList({ serverId, processes, enabled }: { serverId: string; processes: readonly LspProcessView[]; enabled: boolean }) {
  const now = useNow(15_000);
  if (processes.length === 0) {
    return (
      <p data-testid="lsp-no-process" className="text-[12px] text-muted-foreground">
        {enabled
          ? "No process running. One starts per workspace on the first lsp query for a matching file."
          : "No process: the server is off."}
      </p>
    );
  }
  return (
    <ul className="flex flex-col divide-y rounded-md border bg-background">
      {processes.map((p) => (
        <ProcessRow key={p.workspace} serverId={serverId} process={p} now={now} />
      ))}
    </ul>
  );
}

function ProcessRow({ serverId, process: p, now }: { serverId: string; process: LspProcessView; now: number }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateLsp();
  const restart = useMutation(trpc.lsp.restart.mutationOptions({ onSettled: invalidate }));
  const stderr = p.stderrTail.trimEnd();
  const stderrLines = stderr ? stderr.split("\n").length : 0;
  const folder = p.workspace.replace(/\/+$/, "").split("/").pop() || p.workspace;
  return (
    <li data-testid="lsp-process-row" data-state={p.state} data-workspace={p.workspace} data-pid={p.pid ?? ""} className="flex flex-col gap-1.5 px-3 py-2.5">
      <div className="flex items-start gap-2.5">
        <StateChip state={p.state} />
        <div className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="flex min-w-0 items-baseline gap-1.5 text-[12.5px]">
            <span className="shrink-0 font-medium">{folder}</span>
            <span data-testid="lsp-process-workspace" className="truncate font-mono text-[11.5px] text-muted-foreground" title={p.workspace}>
              {p.workspace}
            </span>
          </span>
          <span className="flex flex-wrap gap-x-3 gap-y-0.5 text-[11.5px] text-muted-foreground tabular-nums">
            <span>
              pid <span data-testid="lsp-process-pid" className="font-mono text-foreground/80">{p.pid ?? "–"}</span>
            </span>
            <span data-testid="lsp-process-restarts" className={p.restarts > 0 ? "text-warning" : undefined}>
              {p.restarts === 0 ? "no restarts" : p.restarts === 1 ? "1 restart" : `${p.restarts} restarts`}
            </span>
            {p.startedAt && <span title={new Date(p.startedAt).toLocaleString()}>started {relativeTime(p.startedAt, now)}</span>}
            <span title={p.lastUsedAt ? new Date(p.lastUsedAt).toLocaleString() : undefined}>{p.lastUsedAt ? `last used ${relativeTime(p.lastUsedAt, now)}` : "not used yet"}</span>
          </span>
        </div>
        <Tip label="Stop this workspace's server and start a fresh one">
          <Button
            variant="outline"
            size="xs"
            data-testid="lsp-restart"
            data-scope="process"
            aria-label={`Restart ${serverId} for ${p.workspace}`}
            disabled={restart.isPending}
            onClick={() => restart.mutate({ id: serverId, workspace: p.workspace })}
          >
            {restart.isPending ? <LoaderCircleIcon className="animate-spin" /> : <RotateCwIcon />} Restart
          </Button>
        </Tip>
      </div>
      {p.lastError && (
        <p data-testid="lsp-process-error" className="flex items-start gap-1.5 text-[12px] text-destructive">
          <AlertTriangleIcon className="mt-0.5 size-3 shrink-0" />
          <span className="break-words">{p.lastError}</span>
        </p>
      )}
      {restart.error && <p className="text-[12px] text-destructive">Restart failed: {restart.error.message}</p>}
      {stderr && (
        <details className="group/stderr text-[12px]">
          <summary className="flex w-fit cursor-pointer items-center gap-1 text-muted-foreground select-none hover:text-foreground">
            <ChevronRightIcon className="size-3.5 transition-transform group-open/stderr:rotate-90" />
            stderr · last {stderrLines} {stderrLines === 1 ? "line" : "lines"}
          </summary>
          <pre
            data-testid="lsp-process-stderr"
            className="scroll-thin mt-1.5 max-h-48 overflow-auto rounded-md border bg-code p-2 font-mono text-[11.5px] leading-[1.5] whitespace-pre-wrap break-words"
          >
            {stderr}
          </pre>
        </details>
      )}
    </li>
  );
}

const STATE_LOOK: Record<LspProcessView["state"], StateLook> = {
  ready: { tone: "success", icon: CheckIcon, label: "ready" },
  starting: { tone: "accent", icon: LoaderCircleIcon, spin: true, label: "starting…" },
  stopping: { tone: "neutral", icon: LoaderCircleIcon, spin: true, label: "stopping…" },
  stopped: { tone: "neutral", icon: CircleStopIcon, label: "stopped" },
  failed: { tone: "danger", icon: XIcon, label: "failed" },
};

function StateChip({ state }: { state: LspProcessView["state"] }) {
  return <StateBadge look={STATE_LOOK[state]} data-testid="lsp-process-state" className="mt-px" />;
}
