"use client";
import type { McpServerConfig } from "@seam/shared";
import { DownloadIcon, PlugIcon, PlusIcon, UploadIcon } from "lucide-react";
import { useCallback, useState } from "react";
import { Button } from "@/components/ui/button";
import { ExportDialog } from "./export-dialog";
import { ImportDialog } from "./import-dialog";
import { ServerFormSheet } from "./server-form";
import { SavedNotice } from "./saved-notice";
import { ServersTable } from "./servers-table";
import { useMcpServers } from "./use-mcp";

/** The MCP page (MCP-10): live server table, add/edit sheet, import and export. */
export function McpView() {
  const servers = useMcpServers();
  const [form, setForm] = useState<{ open: boolean; editing: McpServerConfig | null }>({ open: false, editing: null });
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const dismiss = useCallback(() => setNotice(null), []);
  const list = servers.data ?? [];
  const names = list.map((s) => s.config.name);
  const ready = list.filter((s) => s.status.state === "ready").length;
  const toolCount = list.reduce((n, s) => n + (s.toolsRegistered ? s.tools.length : 0), 0);

  return (
    <>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <p className="text-[13px] text-muted-foreground" data-testid="mcp-summary">
          {servers.isPending
            ? "Loading…"
            : list.length === 0
              ? "No servers yet."
              : `${list.length} server${list.length === 1 ? "" : "s"} · ${ready} ready · ${toolCount} tool${toolCount === 1 ? "" : "s"} offered to the agent`}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="outline" size="sm" data-testid="mcp-import-button" onClick={() => setImporting(true)}>
            <UploadIcon /> Import JSON
          </Button>
          <Button variant="outline" size="sm" data-testid="mcp-export-button" disabled={list.length === 0} onClick={() => setExporting(true)}>
            <DownloadIcon /> Export JSON
          </Button>
          <Button size="sm" data-testid="mcp-add-button" onClick={() => setForm({ open: true, editing: null })}>
            <PlusIcon /> Add server
          </Button>
        </div>
      </div>

      {servers.isError && <p className="text-[13px] text-destructive">Could not load the MCP servers: {servers.error.message}</p>}
      {servers.data && list.length === 0 && (
        <div data-testid="mcp-empty" className="flex flex-col items-center gap-3 rounded-xl border border-dashed bg-card px-6 py-10 text-center">
          <span className="flex size-10 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
            <PlugIcon className="size-5" />
          </span>
          <div>
            <p className="font-medium">Connect an MCP server</p>
            <p className="mx-auto mt-1 max-w-md text-[13px] leading-relaxed text-muted-foreground">
              Its tools become available to the agent in every session, under names like{" "}
              <code className="font-mono text-[12px]">mcp__github__create_issue</code>. Seam restarts servers that crash and shows what they print.
            </p>
          </div>
          <div className="flex gap-2">
            <Button size="sm" onClick={() => setForm({ open: true, editing: null })}>
              <PlusIcon /> Add server
            </Button>
            <Button size="sm" variant="outline" onClick={() => setImporting(true)}>
              <UploadIcon /> Import from Claude Desktop / Cursor
            </Button>
          </div>
        </div>
      )}
      {list.length > 0 && <ServersTable servers={list} onEdit={(config) => setForm({ open: true, editing: config })} />}

      <ServerFormSheet open={form.open} onOpenChange={(open) => setForm((f) => ({ ...f, open }))} editing={form.editing} taken={names} onSaved={setNotice} />
      <SavedNotice message={notice} onDismiss={dismiss} />
      <ImportDialog open={importing} onOpenChange={setImporting} />
      <ExportDialog open={exporting} onOpenChange={setExporting} />
    </>
  );
}
