"use client";
import type { SkillDiagnostic } from "@seam/shared";
import { CircleAlertIcon, TriangleAlertIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";

/** Malformed or suspicious skill files with the reason (SKL-2): errors were skipped, warnings loaded anyway. */
export function DiagnosticsList({ diagnostics }: { diagnostics: SkillDiagnostic[] }) {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  return (
    <div data-testid="skills-diagnostics" className="overflow-hidden rounded-xl border border-destructive/25 bg-card">
      <div className="flex items-center gap-2 border-b border-destructive/15 bg-destructive-soft/60 px-3 py-2 text-[13px]">
        <CircleAlertIcon className="size-4 shrink-0 text-destructive" />
        <span className="font-medium">
          {diagnostics.length} problem{diagnostics.length === 1 ? "" : "s"}
        </span>
        <span className="text-muted-foreground">
          {errors > 0 ? `${errors} file${errors === 1 ? " was" : "s were"} skipped; fix the file and it loads on the next look.` : "These skills loaded, but check them."}
        </span>
      </div>
      <ul className="divide-y">
        {diagnostics.map((d, i) => (
          <li
            key={`${d.path}:${i}`}
            data-testid="skills-diagnostic"
            data-severity={d.severity}
            data-name={d.name ?? undefined}
            className="flex items-start gap-2.5 px-3 py-2"
          >
            {d.severity === "error" ? (
              <CircleAlertIcon className="mt-0.5 size-3.5 shrink-0 text-destructive" />
            ) : (
              <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0 text-warning" />
            )}
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
                {d.name && <span className="font-mono text-[12.5px] font-medium">{d.name}</span>}
                <Badge tone={d.severity === "error" ? "danger" : "warning"}>{d.severity === "error" ? "skipped" : "warning"}</Badge>
                <span className="min-w-0 break-all font-mono text-[11.5px] text-muted-foreground">{d.path}</span>
              </div>
              <p data-testid="skills-diagnostic-reason" className={cn("mt-0.5 text-[12.5px] leading-relaxed", d.severity === "error" ? "text-destructive" : "text-foreground/85")}>
                {d.reason}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
