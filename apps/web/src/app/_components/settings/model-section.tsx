"use client";
import type { ModelStatus } from "@seam/shared";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { ModelForm } from "./model-form";

export function ModelSection() {
  const trpc = useTRPC();
  const model = useQuery(trpc.settings.model.queryOptions());
  return (
    <section aria-labelledby="model-heading" className="rounded-xl border bg-card">
      <div className="flex items-start justify-between gap-4 border-b px-5 py-4">
        <div>
          <h2 id="model-heading" className="text-[15px] font-semibold">
            Model
          </h2>
          <p className="mt-0.5 text-[13px] text-muted-foreground">The language model the agent uses in every session.</p>
        </div>
        {model.data && <ModeBadge status={model.data} />}
      </div>
      <div className="px-5 py-5">
        {model.isPending && <p className="text-[13px] text-muted-foreground">Loading…</p>}
        {model.isError && <p className="text-[13px] text-destructive">Could not load the model settings: {model.error.message}</p>}
        {model.data && <ModelForm status={model.data} />}
      </div>
    </section>
  );
}

function ModeBadge({ status }: { status: ModelStatus }) {
  return status.mode === "model" ? (
    <span className="rounded-full bg-success-soft px-2.5 py-1 text-xs font-medium text-success">Model mode</span>
  ) : (
    <span className="rounded-full bg-muted px-2.5 py-1 text-xs font-medium text-muted-foreground">Direct mode</span>
  );
}
