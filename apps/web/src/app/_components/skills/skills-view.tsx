"use client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { LoaderCircleIcon, RefreshCwIcon, TriangleAlertIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/react";
import { useSessions } from "../sessions/use-sessions";
import { SectionHeading } from "../shell/section-card";
import { CustomRootsForm } from "./custom-roots-form";
import { DiagnosticsList } from "./diagnostics-list";
import { RootsTable } from "./roots-table";
import { SkillsTable } from "./skills-table";
import { WorkspacePicker, type SkillsWhere } from "./workspace-picker";

/** The skills page (SKL-10): roots, every candidate with its precedence, diagnostics, previews, custom roots. */
export function SkillsView() {
  const trpc = useTRPC();
  const sessions = useSessions();
  const [chosen, setChosen] = useState<SkillsWhere | null>(null);

  const sorted = useMemo(() => [...(sessions.data ?? [])].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt)), [sessions.data]);
  // Until the user picks, look at the most recently used session.
  const latest = sorted[0];
  const where: SkillsWhere | null = chosen ?? (latest ? { sessionId: latest.id } : null);

  // No push event for skill changes reaches the browser; a short poll (paused in background tabs) and focus refetch keep it current.
  const inspection = useQuery({
    ...trpc.skills.inspect.queryOptions(where ?? skipToken),
    refetchInterval: 5_000,
    refetchOnWindowFocus: true,
    placeholderData: keepPreviousData,
  });
  const data = inspection.data;
  const winners = data?.candidates.filter((c) => c.winner).length ?? 0;
  const shadowed = (data?.candidates.length ?? 0) - winners;
  const problems = data?.diagnostics.length ?? 0;

  return (
    <div className="flex flex-col gap-8">
      <section aria-label="Workspace" className="flex flex-col gap-3">
        {sessions.isPending ? (
          <p className="text-[13px] text-muted-foreground">Loading sessions…</p>
        ) : (
          <WorkspacePicker sessions={sorted} where={where} onChange={setChosen} />
        )}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p data-testid="skills-summary" className="min-w-0 text-[13px] text-muted-foreground">
            {!where ? (
              "Choose a session or a folder to see the skills its agent would get."
            ) : !data ? (
              inspection.isError ? null : "Loading skills…"
            ) : (
              <>
                {winners} skill{winners === 1 ? "" : "s"}
                {shadowed > 0 && ` · ${shadowed} shadowed`}
                {problems > 0 && ` · ${problems} problem${problems === 1 ? "" : "s"}`} · project root{" "}
                <span className="font-mono text-[12px] text-foreground/80" data-testid="skills-project-root">
                  {data.projectRoot}
                </span>
              </>
            )}
          </p>
          {where && (
            <Button
              variant="outline"
              size="sm"
              data-testid="skills-refresh"
              disabled={inspection.isFetching}
              onClick={() => void inspection.refetch()}
            >
              {inspection.isFetching ? <LoaderCircleIcon className="animate-spin" /> : <RefreshCwIcon />} Refresh
            </Button>
          )}
        </div>
        {inspection.isError && (
          <p data-testid="skills-error" role="alert" className="text-[13px] text-destructive">
            Could not inspect the skills of this workspace: {inspection.error.message}
          </p>
        )}
        {data && !data.complete && (
          <p
            data-testid="skills-incomplete"
            className="flex items-start gap-2 rounded-lg border border-warning/30 bg-warning-soft px-3 py-2 text-[13px] leading-relaxed text-foreground"
          >
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0 text-warning" />
            Some skills may be missing: a provider failed or a file watcher is down. Sessions keep the last complete catalog
            until the next complete look succeeds.
          </p>
        )}
      </section>

      {data && (
        <>
          <section aria-labelledby="roots-heading" className="flex flex-col gap-3">
            <SectionHeading id="roots-heading" title="Roots">
              Folders searched for <code className="font-mono text-[12px]">&lt;name&gt;/SKILL.md</code> and{" "}
              <code className="font-mono text-[12px]">&lt;name&gt;.md</code>, best rank first.
            </SectionHeading>
            <RootsTable roots={data.roots} note={data.promptAuthorityNote} />
          </section>

          <section aria-labelledby="skills-heading" className="flex flex-col gap-3">
            <SectionHeading id="skills-heading" title="Skills">
              Every candidate in precedence order. Within a layer the lower rank wins; the others are shadowed. Select a skill to preview it.
            </SectionHeading>
            {problems > 0 && <DiagnosticsList diagnostics={data.diagnostics} />}
            <SkillsTable candidates={data.candidates} diagnostics={data.diagnostics} />
          </section>
        </>
      )}

      <CustomRootsForm />
    </div>
  );
}
