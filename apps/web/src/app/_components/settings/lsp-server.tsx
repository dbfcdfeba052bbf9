"use client";
import type { LspServerView } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { AlertTriangleIcon, CheckIcon, ChevronRightIcon, CircleOffIcon, LoaderCircleIcon, PencilIcon, RotateCwIcon } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { RemoveButton } from "@/components/ui/remove-button";
import { Tip } from "@/components/ui/tooltip";
import { formatDuration } from "@/lib/time";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";
import { DEFAULT_IDLE_MS, draftFrom } from "./lsp-draft";
import { LspForm } from "./lsp-form";
import { LspProcessList } from "./lsp-processes";
import { useInvalidateLsp } from "./lsp-use";
import { ToolSwitch } from "./web-fields";

/** One configured server: what runs, for which files, whether it is active, and its processes (LSP-7). */
export function LspServerCard({
  server,
  servers,
  saved,
  onSaved,
  onEditing,
}: {
  server: LspServerView;
  servers: readonly LspServerView[];
  saved: boolean;
  onSaved: (id: string) => void;
  onEditing: () => void;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateLsp();
  const [editing, setEditing] = useState(false);
  const { config } = server;
  const toggle = useMutation(trpc.lsp.update.mutationOptions({ onSuccess: invalidate }));
  const restart = useMutation(trpc.lsp.restart.mutationOptions({ onSettled: invalidate }));
  const remove = useMutation(trpc.lsp.remove.mutationOptions({ onSuccess: invalidate }));
  const running = server.processes.filter((p) => p.state !== "stopped").length;
  const initKeys = Object.keys(config.initializationOptions ?? {});
  const failure = toggle.error ?? restart.error ?? remove.error;

  return (
    <div
      data-testid="lsp-server-row"
      data-id={config.id}
      data-active={server.active}
      data-enabled={config.enabled}
      className={cn("flex flex-col rounded-lg border", !config.enabled && "bg-muted/20")}
    >
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 px-4 pt-3.5 pb-3">
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="text-[14px] font-semibold">{config.label || config.id}</span>
            {config.label && <span className="font-mono text-[11.5px] text-muted-foreground">{config.id}</span>}
            <ActiveChip server={server} />
            {saved && (
              <span data-testid="lsp-saved" role="status" className="inline-flex items-center gap-1 text-[12.5px] text-success">
                <CheckIcon className="size-3.5" /> Saved
              </span>
            )}
          </div>
          {server.problem && (
            <p data-testid="lsp-server-problem" className="flex items-start gap-1.5 text-[12.5px] text-warning">
              <AlertTriangleIcon className="mt-0.5 size-3.5 shrink-0" />
              <span className="break-words">{server.problem}</span>
            </p>
          )}
        </div>
        <div className="flex shrink-0 items-center gap-1.5">
          <ToolSwitch
            testId="lsp-enabled"
            tool={config.id}
            checked={toggle.isPending ? (toggle.variables?.config.enabled ?? config.enabled) : config.enabled}
            onChange={(enabled) => toggle.mutate({ id: config.id, config: { ...config, enabled } })}
          />
          <span className="mx-1 h-5 w-px bg-border" aria-hidden />
          <Tip label={running > 0 ? `Restart all ${running} workspace process${running === 1 ? "" : "es"}` : "Re-resolve the command and re-register its extensions"}>
            <Button
              variant="subtle"
              size="icon-sm"
              data-testid="lsp-restart"
              data-scope="server"
              aria-label={`Restart ${config.id}`}
              disabled={restart.isPending || !config.enabled}
              onClick={() => restart.mutate({ id: config.id })}
            >
              {restart.isPending ? <LoaderCircleIcon className="animate-spin" /> : <RotateCwIcon />}
            </Button>
          </Tip>
          <Tip label="Edit">
            <Button
              variant="subtle"
              size="icon-sm"
              data-testid="lsp-edit"
              aria-label={`Edit ${config.id}`}
              aria-pressed={editing}
              onClick={() => {
                onEditing();
                setEditing((e) => !e);
              }}
            >
              <PencilIcon />
            </Button>
          </Tip>
          <RemoveButton
            name={config.id}
            title={config.label || config.id}
            description={
              <>
                {running > 0 ? `Its ${running} running process${running === 1 ? "" : "es"} stop and ` : ""}
                {config.extensions.join(", ")} files are no longer answered by <span className="font-mono">lsp</span>. You can add it again later.
              </>
            }
            testId="lsp-remove"
            dialogTestId="lsp-remove-dialog"
            disabled={remove.isPending}
            onRemove={() => remove.mutate({ id: config.id })}
          />
        </div>
      </div>

      {failure && (
        <p data-testid="lsp-server-error" role="alert" className="mx-4 mb-3 rounded-md bg-destructive-soft px-2.5 py-1.5 text-[12.5px] text-destructive">
          {toggle.error ? "Not changed — " : restart.error ? "Restart failed — " : "Not removed — "}
          {failure.message}
        </p>
      )}

      {editing ? (
        <div className="px-4 pb-4">
          <LspForm
            mode="edit"
            initial={draftFrom(config)}
            servers={servers}
            onSaved={(view) => {
              setEditing(false);
              onSaved(view.config.id);
            }}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : (
        <div className="flex flex-col gap-2.5 px-4 pb-3.5">
          <code data-testid="lsp-server-command" className="block truncate rounded-md bg-muted/60 px-2 py-1 font-mono text-[12px]" title={[config.command, ...config.args].join(" ")}>
            <span className="text-muted-foreground select-none">$ </span>
            {config.command}
            {config.args.length > 0 && <span className="text-muted-foreground"> {config.args.map(quoteArg).join(" ")}</span>}
          </code>
          <div className="flex flex-wrap items-center gap-1">
            {config.extensions.map((e) => (
              <Badge key={e} tone="outline" data-testid="lsp-server-extension" className="font-mono font-normal">
                {e}
              </Badge>
            ))}
            <span className="ml-1 text-[11.5px] text-muted-foreground">
              · stops after {formatDuration(config.idleTimeoutMs)} idle{config.idleTimeoutMs === DEFAULT_IDLE_MS ? " (default)" : ""}
            </span>
          </div>
          {initKeys.length > 0 && (
            <details className="group/init text-[12px]">
              <summary className="flex w-fit cursor-pointer items-center gap-1 text-muted-foreground select-none hover:text-foreground">
                <ChevronRightIcon className="size-3.5 transition-transform group-open/init:rotate-90" />
                Initialization options <span className="font-mono text-[11px]">{`{${initKeys.join(", ")}}`}</span>
              </summary>
              <pre
                data-testid="lsp-server-init-options"
                className="scroll-thin mt-1.5 max-h-56 overflow-auto rounded-md border bg-code p-2 font-mono text-[11.5px] leading-[1.5] whitespace-pre-wrap break-words"
              >
                {JSON.stringify(config.initializationOptions, null, 2)}
              </pre>
            </details>
          )}
          <div className="flex flex-col gap-1.5 pt-0.5">
            <span className="text-[12px] font-medium text-muted-foreground">Workspace processes</span>
            <LspProcessList serverId={config.id} processes={server.processes} enabled={config.enabled} />
          </div>
        </div>
      )}
    </div>
  );
}

function ActiveChip({ server }: { server: LspServerView }) {
  if (!server.config.enabled) {
    return (
      <Badge tone="neutral" data-testid="lsp-server-status">
        <CircleOffIcon /> off
      </Badge>
    );
  }
  return server.active ? (
    <Badge tone="success" data-testid="lsp-server-status">
      <CheckIcon /> active
    </Badge>
  ) : (
    <Badge tone="warning" data-testid="lsp-server-status">
      <AlertTriangleIcon /> not active
    </Badge>
  );
}

/** Shows an argument the way a shell user would read it; the host passes it unquoted. */
const quoteArg = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);
