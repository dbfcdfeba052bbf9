import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/lib/utils";

/** A section's title and the sentence under it. */
export function SectionHeading({ id, title, children }: { id: string; title: ReactNode; children?: ReactNode }) {
  return (
    <div>
      <h2 id={id} className="text-[15px] font-semibold">
        {title}
      </h2>
      {children && <p className="mt-0.5 text-[13px] text-muted-foreground">{children}</p>}
    </div>
  );
}

/** A settings-style card: heading, description and an optional status on a bar, then the body. */
export function SectionCard({
  headingId,
  title,
  description,
  status,
  className,
  children,
  ...props
}: Omit<ComponentProps<"section">, "title"> & { headingId: string; title: ReactNode; description: ReactNode; status?: ReactNode }) {
  return (
    <section aria-labelledby={headingId} className={cn("rounded-xl border bg-card", className)} {...props}>
      <div className="flex items-start justify-between gap-4 border-b px-5 py-4">
        <SectionHeading id={headingId} title={title}>
          {description}
        </SectionHeading>
        {status}
      </div>
      {children}
    </section>
  );
}

const PILL_TONE = {
  success: "bg-success-soft text-success",
  warning: "bg-warning-soft text-warning",
  muted: "bg-muted text-muted-foreground",
};

/** A section's overall state, at the right of its heading. */
export function StatusPill({ tone, children }: { tone: keyof typeof PILL_TONE; children: ReactNode }) {
  return <span className={cn("shrink-0 rounded-full px-2.5 py-1 text-xs font-medium", PILL_TONE[tone])}>{children}</span>;
}

/** "Loading…" while a query is pending, and why it failed if it did. */
export function QueryNotice({ query, what }: { query: { isPending: boolean; error: { message: string } | null }; what: string }) {
  if (query.isPending) return <p className="text-[13px] text-muted-foreground">Loading…</p>;
  if (query.error) return <p className="text-[13px] text-destructive">Could not load {what}: {query.error.message}</p>;
  return null;
}
