"use client";
import type { SkillRootInfo } from "@seam/shared";
import { ShieldAlertIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { DataRow, DataTable, type Column } from "@/components/ui/data-table";
import { cn } from "@/lib/utils";
import { YesNo } from "./flags";

const KIND_LABEL: Record<SkillRootInfo["kind"], string> = {
  project: "Project",
  custom: "Custom",
  user: "User",
  bundled: "Bundled",
};

const COLUMNS: Column[] = [
  { header: "Root" },
  { header: "Kind" },
  { header: "Rank", className: "text-right" },
  { header: "Exists", className: "px-2 text-center" },
  { header: "Writable" },
  { header: "Watching" },
];

/** Every root with existence, writability and watcher state (SKL-10); writable roots are prompt authority. */
export function RootsTable({ roots, note }: { roots: SkillRootInfo[]; note: string }) {
  const writable = roots.filter((r) => r.promptAuthority).length;
  return (
    <div className="flex flex-col gap-3">
      {writable > 0 && (
        <div
          data-testid="skills-prompt-authority"
          className="flex items-start gap-2.5 rounded-lg border border-warning/30 bg-warning-soft px-3 py-2.5 text-[13px] leading-relaxed"
        >
          <ShieldAlertIcon className="mt-0.5 size-4 shrink-0 text-warning" />
          <div>
            <p className="font-medium">
              {writable} writable root{writable === 1 ? " is" : "s are"} prompt authority
            </p>
            <p className="text-foreground/80">{note}</p>
          </div>
        </div>
      )}
      <DataTable
        testId="skills-roots-table"
        columns={COLUMNS}
        rows={roots}
        rowKey={(r) => r.path}
        row={(r) => (
          <DataRow data-testid="skills-root-row" data-source={r.source} data-exists={r.exists ? "yes" : "no"} data-writable={r.writable ? "yes" : "no"}>
            <td className="max-w-96 px-3 py-2.5">
              <div className={cn("break-all font-mono text-[12px]", !r.exists && "text-muted-foreground")}>{r.path}</div>
              <div className="text-[11.5px] text-muted-foreground">
                {r.source}
                {r.layer !== "global" && ` · layer ${r.layer}`}
              </div>
            </td>
            <td className="px-3 py-2.5 text-foreground/85">{KIND_LABEL[r.kind]}</td>
            <td className="px-3 py-2.5 text-right tabular-nums">{r.rank}</td>
            <td className="px-2 py-2.5 text-center">
              <YesNo on={r.exists} label="Exists" quiet />
            </td>
            <td className="px-3 py-2.5">
              {r.writable ? (
                <div className="flex items-center gap-1.5">
                  <YesNo on label="Writable" className="bg-warning-soft text-warning" />
                  <Badge tone="warning" data-testid="skills-root-authority">
                    <ShieldAlertIcon /> prompt authority
                  </Badge>
                </div>
              ) : (
                <YesNo on={false} label="Writable" quiet />
              )}
              {r.writable && !r.exists && <div className="mt-1 text-[11.5px] text-muted-foreground">can be created</div>}
            </td>
            <td className="px-3 py-2.5">
              {r.watch === "ok" ? (
                <span className="text-[12px] text-muted-foreground">watching</span>
              ) : r.watch === "failed" ? (
                <Badge tone="danger" title="Changes on disk are not seen until the watcher restarts; the catalog may be out of date.">
                  watch failed
                </Badge>
              ) : (
                <span className="text-[12px] text-muted-foreground">—</span>
              )}
            </td>
          </DataRow>
        )}
      />
    </div>
  );
}
