"use client";
import type { SkillCandidateInfo, SkillDiagnostic } from "@seam/shared";
import { TriangleAlertIcon } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { DataRow, DataTable, type Column } from "@/components/ui/data-table";
import { ExpandButton } from "@/components/ui/expand-button";
import { cn } from "@/lib/utils";
import { InvocationPills, shadowLabel } from "./flags";
import { SkillPreview } from "./skill-preview";

const COLUMNS: Column[] = [
  { header: "Skill" },
  { header: "Layer · rank", className: "whitespace-nowrap" },
  { header: "Source" },
  { header: "Invocation" },
  { header: "Status" },
];

export const candidateKey = (c: SkillCandidateInfo, i: number) => `${c.name}|${c.layer}|${c.source}|${c.path ?? `#${i}`}`;

/** `…/.agents/skills/pdf-tools/SKILL.md` for long paths; the full path goes in the title. */
function shortPath(path: string): string {
  const parts = path.split("/");
  return parts.length > 5 ? `…/${parts.slice(-4).join("/")}` : path;
}

/** Every candidate with layer, rank, source, invocation flags and winner / shadowed-by (SKL-10); a row expands to its preview. */
export function SkillsTable({ candidates, diagnostics }: { candidates: SkillCandidateInfo[]; diagnostics: SkillDiagnostic[] }) {
  const [selected, setSelected] = useState<string | null>(null);
  const warningsFor = (c: SkillCandidateInfo) => diagnostics.filter((d) => d.severity === "warning" && (d.path === c.path || (d.name === c.name && !d.path)));

  if (candidates.length === 0) {
    return (
      <div data-testid="skills-empty" className="rounded-xl border border-dashed bg-card px-6 py-8 text-center text-[13px] leading-relaxed text-muted-foreground">
        No skills in this workspace yet. Add a folder such as{" "}
        <code className="font-mono text-[12px] text-foreground/85">.agents/skills/my-skill/SKILL.md</code> with a{" "}
        <code className="font-mono text-[12px] text-foreground/85">description</code> in its frontmatter.
      </div>
    );
  }

  return (
    <DataTable
      testId="skills-table"
      columns={COLUMNS}
      rows={candidates}
      rowKey={candidateKey}
      row={(c, i) => {
        const key = candidateKey(c, i);
        const open = selected === key;
        return <SkillRow candidate={c} warnings={warningsFor(c)} open={open} onToggle={() => setSelected(open ? null : key)} />;
      }}
      detail={(c, i) => selected === candidateKey(c, i) && <SkillPreview candidate={c} />}
      detailRowClassName="bg-muted/40"
      detailCellClassName="px-3 pt-0 pb-3"
    />
  );
}

function SkillRow({ candidate: c, warnings, open, onToggle }: { candidate: SkillCandidateInfo; warnings: SkillDiagnostic[]; open: boolean; onToggle: () => void }) {
  return (
    <DataRow
      data-testid="skill-row"
      data-name={c.name}
      data-source={c.source}
      data-winner={c.winner ? "yes" : "no"}
      data-model={c.modelInvocable ? "yes" : "no"}
      data-user={c.userInvocable ? "yes" : "no"}
      aria-selected={open}
      onClick={onToggle}
      open={open}
      className={cn("cursor-pointer transition-colors hover:bg-muted/40", open && "bg-muted/40", !c.winner && "text-muted-foreground")}
    >
      <td className="max-w-80 py-2.5 pr-3 pl-2">
        <ExpandButton
          data-testid="skill-row-toggle"
          open={open}
          onClick={(e) => {
            e.stopPropagation();
            onToggle();
          }}
        >
          <span className={cn("font-mono font-medium", c.winner && "text-foreground")}>{c.name}</span>
          {warnings.length > 0 && <TriangleAlertIcon className="size-3.5 shrink-0 text-warning" aria-label="has warnings" />}
        </ExpandButton>
        <p data-testid="skill-description" className="line-clamp-2 pl-6 text-[12px] leading-snug text-muted-foreground">
          {c.description}
        </p>
        {warnings.map((w, j) => (
          <p key={j} className="pl-6 text-[12px] leading-snug text-warning">
            {w.reason}
          </p>
        ))}
      </td>
      <td className="px-3 py-2.5 whitespace-nowrap">
        <span data-testid="skill-layer">{c.layer}</span>
        <span className="text-muted-foreground"> · </span>
        <span data-testid="skill-rank" className="tabular-nums">
          {c.rank}
        </span>
      </td>
      <td className="max-w-64 px-3 py-2.5">
        <div data-testid="skill-source" className="text-[12px]">
          {c.source}
        </div>
        {c.path && (
          <div className="truncate font-mono text-[11.5px] text-muted-foreground" title={c.path}>
            {shortPath(c.path)}
          </div>
        )}
      </td>
      <td className="px-3 py-2.5">
        <InvocationPills model={c.modelInvocable} user={c.userInvocable} />
      </td>
      <td className="px-3 py-2.5" data-testid="skill-status">
        {c.winner ? (
          <Badge tone="success">winner</Badge>
        ) : c.shadowedBy ? (
          <div className="max-w-48 text-[12px] leading-snug" title={c.shadowedBy.path ?? undefined}>
            shadowed by <span className="text-foreground/85">{shadowLabel(c.shadowedBy, c)}</span>
          </div>
        ) : (
          <span className="text-[12px]">shadowed</span>
        )}
      </td>
    </DataRow>
  );
}
