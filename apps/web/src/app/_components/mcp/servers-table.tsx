"use client";
import type { McpServerConfig, McpServerView } from "@seam/shared";
import { useMutation } from "@tanstack/react-query";
import { GlobeIcon, PencilIcon, RotateCwIcon, TerminalIcon } from "lucide-react";
import { Switch } from "radix-ui";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { DataRow, DataTable, type Column } from "@/components/ui/data-table";
import { ExpandButton } from "@/components/ui/expand-button";
import { RemoveButton } from "@/components/ui/remove-button";
import { Tip } from "@/components/ui/tooltip";
import { useTRPC } from "@/trpc/react";
import { ServerDetail } from "./server-detail";
import { McpStatusChip } from "./status-chip";
import { useInvalidateMcp } from "./use-mcp";

const COLUMNS: Column[] = [
  { header: "Server" },
  { header: "Transport" },
  { header: "Status" },
  { header: "Tools", className: "text-right" },
  { header: "Gen.", className: "text-right" },
  { header: <span className="sr-only">Actions</span>, className: "text-right" },
];

export function ServersTable({ servers, onEdit }: { servers: McpServerView[]; onEdit: (config: McpServerConfig) => void }) {
  const [open, setOpen] = useState<Set<string>>(() => new Set());
  const toggle = (name: string) =>
    setOpen((s) => {
      const next = new Set(s);
      if (!next.delete(name)) next.add(name);
      return next;
    });
  return (
    <DataTable
      testId="mcp-servers-table"
      columns={COLUMNS}
      rows={servers}
      rowKey={(s) => s.config.name}
      row={(s) => <ServerRow server={s} expanded={open.has(s.config.name)} onToggle={() => toggle(s.config.name)} onEdit={() => onEdit(s.config)} />}
      detail={(s) => open.has(s.config.name) && <ServerDetail server={s} />}
    />
  );
}

function ServerRow({ server, expanded, onToggle, onEdit }: { server: McpServerView; expanded: boolean; onToggle: () => void; onEdit: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateMcp();
  const { config, status } = server;
  const name = config.name;
  const restart = useMutation(trpc.mcp.restart.mutationOptions({ onSettled: invalidate }));
  const setEnabled = useMutation(trpc.mcp.setEnabled.mutationOptions({ onSettled: invalidate }));
  const remove = useMutation(trpc.mcp.remove.mutationOptions({ onSettled: invalidate }));
  const error = restart.error ?? setEnabled.error ?? remove.error;
  const busy = restart.isPending || setEnabled.isPending || remove.isPending;
  const t = config.transport;

  return (
    <DataRow data-testid="mcp-server-row" data-server={name} data-state={status.state} open={expanded}>
      <td className="py-2.5 pr-3 pl-2">
        <ExpandButton data-testid="mcp-server-expand" open={expanded} onClick={onToggle}>
          <span className="font-mono font-medium">{name}</span>
        </ExpandButton>
        {server.serverInfo && (
          <div className="pl-6 text-[11.5px] text-muted-foreground">
            {server.serverInfo.name} {server.serverInfo.version}
          </div>
        )}
      </td>
      <td className="max-w-72 px-3 py-2.5">
        <div className="flex items-center gap-1.5 text-[12px] text-muted-foreground">
          {t.type === "stdio" ? <TerminalIcon className="size-3.5 shrink-0" /> : <GlobeIcon className="size-3.5 shrink-0" />}
          {t.type === "stdio" ? "stdio" : "HTTP"}
        </div>
        <div className="truncate font-mono text-[11.5px] text-foreground/80" title={t.type === "stdio" ? [t.command, ...t.args].join(" ") : t.url}>
          {t.type === "stdio" ? [basename(t.command), ...t.args.map(basename)].join(" ") : t.url}
        </div>
      </td>
      <td className="px-3 py-2.5">
        <McpStatusChip status={status} />
        {error && (
          <p data-testid="mcp-row-error" role="alert" className="mt-1 max-w-72 text-[12px] text-destructive">
            {error.message}
          </p>
        )}
      </td>
      <td className="px-3 py-2.5 text-right tabular-nums" data-testid="mcp-tool-count">
        {server.tools.length}
      </td>
      <td className="px-3 py-2.5 text-right tabular-nums text-muted-foreground" data-testid="mcp-generation">
        {server.generation}
      </td>
      <td className="px-2 py-2">
        <div className="flex items-center justify-end gap-0.5">
          <Tip label={config.enabled ? "Disable" : "Enable"}>
            <Switch.Root
              data-testid="mcp-toggle"
              aria-label={config.enabled ? `Disable ${name}` : `Enable ${name}`}
              checked={config.enabled}
              disabled={busy}
              onCheckedChange={(enabled) => setEnabled.mutate({ name, enabled })}
              className="relative mr-1.5 inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full bg-input transition-colors disabled:cursor-default disabled:opacity-50 aria-checked:bg-primary"
            >
              <Switch.Thumb className="block size-4 translate-x-0.5 rounded-full bg-background shadow-sm transition-transform data-[state=checked]:translate-x-[18px]" />
            </Switch.Root>
          </Tip>
          <Tip label="Restart">
            <Button variant="subtle" size="icon-sm" data-testid="mcp-restart" aria-label={`Restart ${name}`} disabled={busy || !config.enabled} onClick={() => restart.mutate({ name })}>
              <RotateCwIcon className={restart.isPending ? "animate-spin" : undefined} />
            </Button>
          </Tip>
          <Tip label="Edit">
            <Button variant="subtle" size="icon-sm" data-testid="mcp-edit" aria-label={`Edit ${name}`} disabled={busy} onClick={onEdit}>
              <PencilIcon />
            </Button>
          </Tip>
          <RemoveButton
            name={name}
            title={name}
            description="The server is stopped, its tools disappear from every session, and its settings are deleted. Export the config first if you may want it back."
            testId="mcp-remove"
            disabled={busy}
            onRemove={() => remove.mutate({ name })}
          />
        </div>
      </td>
    </DataRow>
  );
}

/** The last path segment of absolute paths, so long node_modules paths stay readable. */
function basename(arg: string): string {
  return arg.startsWith("/") && arg.length > 24 ? `…/${arg.split("/").slice(-2).join("/")}` : arg;
}
