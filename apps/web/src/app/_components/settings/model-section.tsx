"use client";
import type { ModelStatus } from "@seam/shared";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/react";
import { QueryNotice, SectionCard, StatusPill } from "../shell/section-card";
import { ModelForm } from "./model-form";

export function ModelSection() {
  const trpc = useTRPC();
  const model = useQuery(trpc.settings.model.queryOptions());
  return (
    <SectionCard
      headingId="model-heading"
      title="Model"
      description="The language model the agent uses in every session."
      status={model.data && <ModeBadge status={model.data} />}
    >
      <div className="px-5 py-5">
        <QueryNotice query={model} what="the model settings" />
        {model.data && <ModelForm status={model.data} />}
      </div>
    </SectionCard>
  );
}

function ModeBadge({ status }: { status: ModelStatus }) {
  return status.mode === "model" ? <StatusPill tone="success">Model mode</StatusPill> : <StatusPill tone="muted">Direct mode</StatusPill>;
}
