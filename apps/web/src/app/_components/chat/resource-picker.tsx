"use client";
import type { McpResourceAttachment, McpServerView } from "@seam/shared";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { useTRPC } from "@/trpc/react";

/** The composer's "Attach" picker (MCP-9): ready servers' resources, page by page, or a URI typed by hand. */
export function ResourcePicker({ open, onOpenChange, onPick }: { open: boolean; onOpenChange: (open: boolean) => void; onPick: (a: McpResourceAttachment) => void }) {
  const trpc = useTRPC();
  const servers = useQuery({ ...trpc.mcp.list.queryOptions(), enabled: open });
  const offering = (servers.data ?? []).filter((s) => s.status.state === "ready" && s.features?.resources);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="mcp-resource-picker" className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Attach an MCP resource</DialogTitle>
          <DialogDescription>The model gets the resource’s contents with your next message.</DialogDescription>
        </DialogHeader>
        {servers.isPending && <p className="text-[13px] text-muted-foreground">Loading servers…</p>}
        {servers.error && <p role="alert" className="text-[13px] text-destructive">Could not load the MCP servers: {servers.error.message}</p>}
        {servers.data && offering.length === 0 && <p className="text-[13px] text-muted-foreground">No connected MCP server offers resources. Add or start one on the MCP page.</p>}
        <div className="scroll-thin flex max-h-[60vh] flex-col gap-3 overflow-y-auto">
          {offering.map((s) => <ServerResourceList key={s.config.name} server={s} onPick={onPick} />)}
        </div>
      </DialogContent>
    </Dialog>
  );
}

function ServerResourceList({ server, onPick }: { server: McpServerView; onPick: (a: McpResourceAttachment) => void }) {
  const trpc = useTRPC();
  const name = server.config.name;
  const [uri, setUri] = useState("");
  const pages = useInfiniteQuery(trpc.mcp.resources.infiniteQueryOptions({ name }, { getNextPageParam: (last) => last.nextCursor ?? undefined }));
  const resources = pages.data?.pages.flatMap((p) => p.resources) ?? [];
  return (
    <section data-testid="mcp-picker-server" data-server={name}>
      <h3 className="mb-1 text-[13px] font-semibold">{name}</h3>
      {pages.isPending && <p className="text-[12.5px] text-muted-foreground">Loading resources…</p>}
      {pages.error && <p role="alert" className="text-[12.5px] text-destructive">Could not list its resources: {pages.error.message}</p>}
      <ul className="flex flex-col gap-0.5">
        {resources.map((r) => (
          <li key={r.uri}>
            <button type="button" data-testid="mcp-picker-resource" data-uri={r.uri} className="flex w-full min-w-0 flex-col rounded-md px-2 py-1 text-left hover:bg-muted" onClick={() => onPick({ server: name, uri: r.uri })}>
              <span className="truncate text-[13px]">{r.title ?? r.name}</span>
              <span className="truncate font-mono text-[11.5px] text-muted-foreground">{r.uri}</span>
            </button>
          </li>
        ))}
      </ul>
      {pages.hasNextPage && (
        <Button variant="outline" size="xs" className="mt-1" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          {pages.isFetchingNextPage ? "Loading…" : "Load more"}
        </Button>
      )}
      <form className="mt-1.5 flex gap-1.5" onSubmit={(e) => { e.preventDefault(); if (uri.trim()) onPick({ server: name, uri: uri.trim() }); }}>
        <Input aria-label={`A URI of ${name}`} placeholder="or type a URI (e.g. from a template)" className="h-8 font-mono text-[12px]" value={uri} onChange={(e) => setUri(e.target.value)} />
        <Button type="submit" size="sm" variant="secondary" disabled={!uri.trim()}>Attach</Button>
      </form>
    </section>
  );
}
