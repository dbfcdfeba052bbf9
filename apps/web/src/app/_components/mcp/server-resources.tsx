"use client";
import { expandTemplate, type McpResourceTemplateInfo, type McpServerView } from "@seam/shared";
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { PaperclipIcon } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";
import { addPendingAttachment } from "./pending-attachments";
import { ResourcePreview } from "./resource-preview";
import { SessionPicker } from "./session-picker";

/** Why a server's resources or prompts cannot be shown now, in words; null when they can. */
export function unavailableReason(server: McpServerView, what: "resources" | "prompts"): string | null {
  if (server.status.state !== "ready" || !server.features) return `The server is not ready (${server.status.state}). Its ${what} can be browsed once it is ready.`;
  if (!server.features[what]) return `This server does not offer ${what} (its capabilities at connection do not include them).`;
  return null;
}

/** Refetches a server's listings when it says they changed (resources/prompts list_changed bumps `features.revision`). */
export function useRefetchOnRevision(server: McpServerView, keys: readonly unknown[][]) {
  const queryClient = useQueryClient();
  const revision = server.features?.revision;
  // The keys are rebuilt every render; only a new revision refetches, with the keys of that render.
  const latestKeys = useRef(keys);
  useEffect(() => {
    latestKeys.current = keys;
  });
  useEffect(() => {
    if (revision === undefined || revision === 0) return;
    for (const queryKey of latestKeys.current) void queryClient.invalidateQueries({ queryKey });
  }, [revision, queryClient]);
}

/** The Resources tab (MCP-9): resources page by page, templates with their variables, a preview, "Attach to message". */
export function ServerResources({ server }: { server: McpServerView }) {
  const reason = unavailableReason(server, "resources");
  if (reason) return <p data-testid="mcp-resources-unavailable" className="text-[13px] text-muted-foreground">{reason}</p>;
  return <ResourcesBrowser server={server} />;
}

function ResourcesBrowser({ server }: { server: McpServerView }) {
  const trpc = useTRPC();
  const router = useRouter();
  const name = server.config.name;
  const [selected, setSelected] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);
  const pages = useInfiniteQuery(trpc.mcp.resources.infiniteQueryOptions({ name }, { getNextPageParam: (last) => last.nextCursor ?? undefined }));
  const templates = useQuery(trpc.mcp.resourceTemplates.queryOptions({ name }));
  const read = useQuery({ ...trpc.mcp.readResource.queryOptions({ name, uri: selected ?? "" }), enabled: selected !== null });
  useRefetchOnRevision(server, [trpc.mcp.resources.pathKey(), trpc.mcp.resourceTemplates.pathKey(), trpc.mcp.readResource.pathKey()]);

  const resources = pages.data?.pages.flatMap((p) => p.resources) ?? [];
  return (
    <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <div className="flex min-w-0 flex-col gap-3">
        <section>
          <h3 className="mb-1.5 text-[13px] font-semibold">Resources{pages.data ? ` (${resources.length}${pages.hasNextPage ? "+" : ""})` : ""}</h3>
          {pages.isPending && <p className="text-[13px] text-muted-foreground">Loading resources…</p>}
          {pages.error && <p role="alert" className="text-[13px] text-destructive">Could not list the resources: {pages.error.message}</p>}
          {pages.data && resources.length === 0 && <p className="text-[13px] text-muted-foreground">The server lists no resources.</p>}
          <ul data-testid="mcp-resource-list" className="scroll-thin flex max-h-80 flex-col gap-0.5 overflow-y-auto">
            {resources.map((r) => (
              <li key={r.uri}>
                <button
                  type="button"
                  data-testid="mcp-resource"
                  data-uri={r.uri}
                  onClick={() => setSelected(r.uri)}
                  className={cn("flex w-full min-w-0 flex-col rounded-md px-2 py-1 text-left hover:bg-muted", selected === r.uri && "bg-muted")}
                >
                  <span className="truncate text-[13px]">{r.title ?? r.name}</span>
                  <span className="truncate font-mono text-[11.5px] text-muted-foreground">{r.uri}</span>
                </button>
              </li>
            ))}
          </ul>
          {pages.hasNextPage && (
            <Button variant="outline" size="sm" className="mt-2" data-testid="mcp-resources-more" disabled={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
              {pages.isFetchingNextPage ? "Loading…" : "Load more"}
            </Button>
          )}
        </section>
        <section>
          <h3 className="mb-1.5 text-[13px] font-semibold">Templates</h3>
          {templates.isPending && <p className="text-[13px] text-muted-foreground">Loading templates…</p>}
          {templates.error && <p role="alert" className="text-[13px] text-destructive">Could not list the templates: {templates.error.message}</p>}
          {templates.data?.length === 0 && <p className="text-[13px] text-muted-foreground">No resource templates.</p>}
          <div className="flex flex-col gap-2">
            {templates.data?.map((t) => <TemplateForm key={t.uriTemplate} template={t} onRead={setSelected} />)}
          </div>
        </section>
      </div>
      <section className="min-w-0">
        <div className="mb-1.5 flex items-center justify-between gap-2">
          <h3 className="truncate text-[13px] font-semibold">{selected ? <span className="font-mono text-[12px]">{selected}</span> : "Preview"}</h3>
          {selected && read.data && (
            <Button variant="outline" size="sm" data-testid="mcp-attach" onClick={() => setPicking(true)}>
              <PaperclipIcon /> Attach to message
            </Button>
          )}
        </div>
        {!selected && <p className="text-[13px] text-muted-foreground">Choose a resource, or fill in a template, to see its contents.</p>}
        {selected && read.isPending && <p className="text-[13px] text-muted-foreground">Reading…</p>}
        {selected && read.error && <p role="alert" data-testid="mcp-read-error" className="text-[13px] text-destructive">Could not read it: {read.error.message}</p>}
        {read.data && <ResourcePreview result={read.data} />}
      </section>
      <SessionPicker
        open={picking}
        onOpenChange={setPicking}
        title="Attach to a message"
        description="The resource is attached to the next message you send in the session you choose; the model gets its contents with that message."
        onPick={(sessionId) => {
          if (selected) addPendingAttachment(sessionId, { server: server.config.name, uri: selected });
          setPicking(false);
          router.push(`/s/${sessionId}`);
        }}
      />
    </div>
  );
}

/** A template's variables as inputs; "Read" expands it and previews the resulting URI. */
function TemplateForm({ template, onRead }: { template: McpResourceTemplateInfo; onRead: (uri: string) => void }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      data-testid="mcp-template"
      data-template={template.uriTemplate}
      className="flex flex-col gap-1.5 rounded-md border bg-background p-2"
      onSubmit={(e) => {
        e.preventDefault();
        const missing = template.variables.filter((v) => !(values[v] ?? "").trim());
        if (missing.length > 0) return setError(`Fill in ${missing.join(", ")}`);
        setError(null);
        onRead(expandTemplate(template.uriTemplate, values));
      }}
    >
      <span className="text-[13px]">{template.title ?? template.name}</span>
      <span className="font-mono text-[11.5px] text-muted-foreground">{template.uriTemplate}</span>
      {template.description && <span className="text-[12px] text-muted-foreground">{template.description}</span>}
      <div className="flex flex-wrap items-end gap-2">
        {template.variables.map((v) => (
          <div key={v} className="flex flex-col gap-1">
            <Label htmlFor={`${template.uriTemplate}-${v}`}>{v}</Label>
            <Input id={`${template.uriTemplate}-${v}`} data-testid="mcp-template-var" data-var={v} className="h-8 w-36" value={values[v] ?? ""} onChange={(e) => setValues((o) => ({ ...o, [v]: e.target.value }))} />
          </div>
        ))}
        <Button type="submit" size="sm" variant="secondary" data-testid="mcp-template-read">Read</Button>
      </div>
      {error && <p role="alert" className="text-[12px] text-destructive">{error}</p>}
    </form>
  );
}
