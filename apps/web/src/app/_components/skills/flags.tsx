import type { SkillCandidateInfo, SkillShadow } from "@seam/shared";
import { CheckIcon, XIcon } from "lucide-react";
import { cn } from "@/lib/utils";

/** A round ✓ / ✗ chip; `quiet` greys a "no" that is not a problem (a root that simply does not exist yet). */
export function YesNo({ on, label, quiet, className }: { on: boolean; label: string; quiet?: boolean; className?: string }) {
  return (
    <span
      aria-label={`${label}: ${on ? "yes" : "no"}`}
      title={`${label}: ${on ? "yes" : "no"}`}
      data-flag={on ? "yes" : "no"}
      className={cn(
        "inline-flex size-5 items-center justify-center rounded-full",
        on ? "bg-success-soft text-success" : quiet ? "bg-muted text-muted-foreground" : "bg-destructive-soft text-destructive",
        className,
      )}
    >
      {on ? <CheckIcon className="size-3.5" /> : <XIcon className="size-3.5" />}
    </span>
  );
}

/** Who may invoke a skill: the model (by itself) and the user (as `/name`). */
export function InvocationPills({ model, user }: { model: boolean; user: boolean }) {
  return (
    <div className="flex gap-1">
      <InvocationPill on={model} testId="skill-flag-model">
        model
      </InvocationPill>
      <InvocationPill on={user} testId="skill-flag-user">
        user
      </InvocationPill>
    </div>
  );
}

/** An invocation flag as a small pill: filled when allowed, struck through when not. */
export function InvocationPill({ on, children, testId }: { on: boolean; children: string; testId: string }) {
  return (
    <span
      data-testid={testId}
      data-on={on ? "yes" : "no"}
      title={on ? `${children}: yes` : `${children}: no`}
      className={cn(
        "inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-[11.5px] font-medium leading-none",
        on ? "bg-primary-soft text-primary-soft-foreground" : "border border-dashed text-muted-foreground/80 line-through",
      )}
    >
      {children}
    </span>
  );
}

/** Who wins over a shadowed candidate, in a few words. */
export function shadowLabel(s: SkillShadow, own: Pick<SkillCandidateInfo, "layer">): string {
  return s.layer !== own.layer ? `${s.source} in layer ${s.layer}` : `${s.source} · rank ${s.rank}`;
}
