"use client";
import { useQuery } from "@tanstack/react-query";
import { DownloadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { useTRPC } from "@/trpc/react";

/** The saved configs as `{"mcpServers": …}`: copy or download. Secrets appear only as `${NAME}` placeholders. */
export function ExportDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC();
  const exported = useQuery({ ...trpc.mcp.export.queryOptions(), enabled: open, staleTime: 0 });
  const download = () => {
    if (!exported.data) return;
    const url = URL.createObjectURL(new Blob([exported.data.json], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "mcp-servers.json";
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl" aria-describedby="mcp-export-desc">
        <DialogHeader>
          <DialogTitle>Export MCP servers</DialogTitle>
          <DialogDescription id="mcp-export-desc">
            The common <code className="font-mono">{'{"mcpServers": …}'}</code> shape. Environment references are written as{" "}
            <code className="font-mono">{"${NAME}"}</code>; Seam-only settings sit under <code className="font-mono">seam</code>.
          </DialogDescription>
        </DialogHeader>
        {exported.isPending && <p className="text-[13px] text-muted-foreground">Loading…</p>}
        {exported.isError && <p className="text-[13px] text-destructive">Could not export: {exported.error.message}</p>}
        {exported.data && (
          <div className="flex min-h-0 flex-col gap-2">
            <pre data-testid="mcp-export-json" className="scroll-thin max-h-[45vh] overflow-auto rounded-md border bg-code p-3 font-mono text-[12px] leading-[1.55]">
              {exported.data.json}
            </pre>
            {exported.data.notes.map((n) => (
              <p key={n} className="text-[12px] leading-relaxed text-muted-foreground">{n}</p>
            ))}
          </div>
        )}
        <DialogFooter>
          {exported.data && <CopyButton text={exported.data.json} label="Copy" className="h-9 px-3 text-[13px]" />}
          <Button data-testid="mcp-export-download" disabled={!exported.data} onClick={download}>
            <DownloadIcon /> Download
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
