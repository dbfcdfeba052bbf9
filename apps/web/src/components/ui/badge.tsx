import { cva, type VariantProps } from "class-variance-authority";
import type { LucideIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/lib/utils";

export const badgeVariants = cva(
  "inline-flex shrink-0 items-center gap-1 whitespace-nowrap rounded-md px-1.5 py-0.5 text-[11.5px] font-medium leading-none [&_svg]:size-3",
  {
    variants: {
      tone: {
        neutral: "bg-muted text-muted-foreground",
        accent: "bg-primary-soft text-primary-soft-foreground",
        success: "bg-success-soft text-success",
        warning: "bg-warning-soft text-warning",
        danger: "bg-destructive-soft text-destructive",
        outline: "border border-border text-muted-foreground",
      },
    },
    defaultVariants: { tone: "neutral" },
  },
);

export function Badge({ className, tone, ...props }: ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}

/** How a state reads as a badge: its tone, icon (spinning while busy) and words. */
export interface StateLook {
  tone: NonNullable<VariantProps<typeof badgeVariants>["tone"]>;
  icon: LucideIcon;
  spin?: boolean;
  label: ReactNode;
}

/** A badge for one state of a process, server or call. */
export function StateBadge({ look, ...props }: Omit<ComponentProps<"span">, "children"> & { look: StateLook }) {
  const Icon = look.icon;
  return (
    <Badge tone={look.tone} {...props}>
      <Icon className={look.spin ? "animate-spin" : undefined} /> {look.label}
    </Badge>
  );
}

/** Names in code type, such as tool ids, as a wrapping row of small chips. */
export function CodeChips({ names, className }: { names: readonly string[]; className?: string }) {
  return (
    <div className={cn("flex flex-wrap gap-1", className)}>
      {names.map((n) => (
        <span key={n} className="rounded-md bg-muted px-1.5 py-0.5 font-mono text-[11.5px]">
          {n}
        </span>
      ))}
    </div>
  );
}
