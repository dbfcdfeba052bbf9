"use client";
import type { AuditEntry, AuditQuery } from "@seam/shared";
import { useInfiniteQuery } from "@tanstack/react-query";
import { LoaderCircleIcon, RefreshCwIcon } from "lucide-react";
import Link from "next/link";
import { useId, useMemo, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataRow, DataTable, type Column } from "@/components/ui/data-table";
import { Input, Label, NativeSelect } from "@/components/ui/input";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import { useSessions } from "../sessions/use-sessions";
import { SectionCard } from "../shell/section-card";
import { useDebounced } from "./use-pattern-check";

const PAGE = 50;

type Filters = { sessionId: string; tool: string; decision: "" | NonNullable<AuditQuery["decision"]>; by: "" | NonNullable<AuditQuery["by"]> };
const NO_FILTERS: Filters = { sessionId: "", tool: "", decision: "", by: "" };

/** The query input of the filters: empty ones left out. */
export function auditInput(f: Filters): AuditQuery {
  return {
    limit: PAGE,
    ...(f.sessionId ? { sessionId: f.sessionId } : {}),
    ...(f.tool.trim() ? { tool: f.tool.trim() } : {}),
    ...(f.decision ? { decision: f.decision } : {}),
    ...(f.by ? { by: f.by } : {}),
  };
}

/** Who decided, in words: "you (always)", "rule bash(npm test) · workspace", "mode ask". */
export function decidedBy(e: AuditEntry): string {
  switch (e.by) {
    case "user":
      return e.answerScope ? `you (${e.answerScope === "once" ? "once" : e.answerScope === "session" ? "for the session" : "always"})` : "you";
    case "rule":
      return e.rulePattern ? `rule ${e.rulePattern}${e.ruleScope ? ` · ${e.ruleScope}` : ""}` : "a rule";
    case "mode":
      return `mode ${e.mode}`;
    case "grant":
      return "an extension grant";
    case "setting":
      return "a setting";
    case "earlier":
      return "an earlier answer";
    case "turn_ended":
      return "the turn ended";
  }
}

const DECISION_TONE = { allow: "success", deny: "danger", withdrawn: "neutral" } as const;

const COLUMNS: Column[] = [
  { header: "Time", className: "w-32" },
  { header: "Session" },
  { header: "Tool" },
  { header: "Subject" },
  { header: "Decision", className: "w-24" },
  { header: "By" },
];

function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** The audit log (PERM-4): every decision on a call that is not a plain read, newest first, filterable, paged by time. */
export function AuditSection() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const sessions = useSessions();
  const ids = { session: useId(), tool: useId(), decision: useId(), by: useId() };
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const tool = useDebounced(filters.tool);
  const input = useMemo(() => auditInput({ ...filters, tool }), [filters, tool]);
  const audit = useInfiniteQuery({
    // Under the procedure's key, so invalidating `permissions.audit` refreshes it.
    queryKey: [...trpc.permissions.audit.queryKey(input), "pages"],
    queryFn: ({ pageParam }) => client.permissions.audit.query({ ...input, ...(pageParam ? { before: pageParam } : {}) }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.length < PAGE ? null : (last[last.length - 1]?.decidedAt ?? null)),
  });
  const entries = useMemo(() => audit.data?.pages.flat() ?? [], [audit.data]);
  const filtered = Object.values(filters).some(Boolean);
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));

  return (
    <SectionCard
      headingId="audit-heading"
      title="Audit log"
      description="Every decision on an edit, a command, an MCP tool or an extension run: what, where, the answer, and whether a rule, the mode or a person decided."
      data-testid="audit-section"
      status={
        <Button variant="outline" size="sm" data-testid="audit-refresh" disabled={audit.isFetching} onClick={() => void audit.refetch()}>
          {audit.isFetching ? <LoaderCircleIcon className="animate-spin" /> : <RefreshCwIcon />} Refresh
        </Button>
      }
    >
      <div className="flex flex-col gap-4 px-5 py-5">
        <div className="grid gap-3 sm:grid-cols-4" role="group" aria-label="Filters">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.session}>Session</Label>
            <NativeSelect id={ids.session} data-testid="audit-filter-session" value={filters.sessionId} onChange={(e) => set({ sessionId: e.target.value })} className="h-8 text-[13px]">
              <option value="">All sessions</option>
              {(sessions.data ?? []).map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.tool}>Tool</Label>
            <Input id={ids.tool} data-testid="audit-filter-tool" value={filters.tool} placeholder="bash" spellCheck={false} autoComplete="off" onChange={(e) => set({ tool: e.target.value })} className="h-8 font-mono text-[13px]" />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.decision}>Decision</Label>
            <NativeSelect id={ids.decision} data-testid="audit-filter-decision" value={filters.decision} onChange={(e) => set({ decision: e.target.value as Filters["decision"] })} className="h-8 text-[13px]">
              <option value="">Any</option>
              <option value="allow">Allowed</option>
              <option value="deny">Denied</option>
              <option value="withdrawn">Withdrawn</option>
            </NativeSelect>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={ids.by}>Decided by</Label>
            <NativeSelect id={ids.by} data-testid="audit-filter-by" value={filters.by} onChange={(e) => set({ by: e.target.value as Filters["by"] })} className="h-8 text-[13px]">
              <option value="">Anyone</option>
              <option value="person">A person</option>
              <option value="rule">A rule</option>
              <option value="mode">The mode</option>
              <option value="automatic">Automatic (rule, mode, grant)</option>
            </NativeSelect>
          </div>
        </div>
        {audit.isError && (
          <p role="alert" className="text-[13px] text-destructive">
            Could not load the audit log: {audit.error.message}
          </p>
        )}
        <DataTable
          compact
          testId="audit-table"
          columns={COLUMNS}
          rows={entries}
          rowKey={(e) => e.id}
          empty={
            audit.isPending ? (
              "Loading…"
            ) : filtered ? (
              <span data-testid="audit-empty">No decisions match these filters.</span>
            ) : (
              <span data-testid="audit-empty">No decisions yet. When a session edits a file, runs a command or calls an MCP tool, what was decided and by whom is logged here.</span>
            )
          }
          row={(e) => <AuditRow entry={e} />}
        />
        {audit.hasNextPage && (
          <Button variant="outline" size="sm" className="w-fit self-center" data-testid="audit-load-more" disabled={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
            {audit.isFetchingNextPage ? <LoaderCircleIcon className="animate-spin" /> : null} Load older entries
          </Button>
        )}
      </div>
    </SectionCard>
  );
}

function AuditRow({ entry: e }: { entry: AuditEntry }) {
  return (
    <DataRow data-testid="audit-row" data-tool={e.tool} data-decision={e.decision} data-by={e.by}>
      <td className="px-3 py-2 whitespace-nowrap text-muted-foreground tabular-nums" title={e.decidedAt}>
        {formatTime(e.decidedAt)}
      </td>
      <td className="max-w-40 px-3 py-2">
        {e.sessionId ? (
          <Link href={`/s/${e.sessionId}`} className="block truncate hover:underline" title={e.workspace}>
            {e.sessionTitle}
          </Link>
        ) : (
          <span className="text-muted-foreground">{e.sessionTitle || "—"}</span>
        )}
      </td>
      <td className="px-3 py-2 font-mono">{e.tool}</td>
      <td className="max-w-64 px-3 py-2">
        <span className="block truncate font-mono text-muted-foreground" title={e.subject}>
          {e.subject}
        </span>
      </td>
      <td className="px-3 py-2">
        <Badge tone={DECISION_TONE[e.decision]} data-testid="audit-decision">
          {e.decision}
        </Badge>
      </td>
      <td className="px-3 py-2">
        <span data-testid="audit-by">{decidedBy(e)}</span>
        {e.message && (
          <p data-testid="audit-message" className="mt-0.5 text-[12px] text-muted-foreground">
            “{e.message}”
          </p>
        )}
      </td>
    </DataRow>
  );
}
