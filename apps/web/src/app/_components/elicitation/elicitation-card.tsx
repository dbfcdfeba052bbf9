"use client";
import type { McpElicitationView } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { hostCodeOf } from "@/lib/host-error";
import { useTRPC } from "@/trpc/react";
import { goneMessage } from "../approvals/tool-approval-card";
import { ElicitationPrompt } from "./elicitation-prompt";

/** A pending request for input wired to the host (`mcp.answerElicitation`); an answer that lost the race says so. */
export function ElicitationCard({ view }: { view: McpElicitationView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [gone, setGone] = useState<string | null>(null);
  const answer = useMutation(
    trpc.mcp.answerElicitation.mutationOptions({
      onSuccess: () => {
        const key = trpc.mcp.elicitations.queryKey();
        queryClient.setQueryData<McpElicitationView[]>(key, (list) => list?.filter((v) => v.id !== view.id));
      },
      onError: (error) => setGone(goneMessage(hostCodeOf(error))),
    }),
  );
  if (gone) {
    return <p data-testid="elicitation-gone" role="status" className="rounded-xl border border-dashed px-3.5 py-2.5 text-[13px] text-muted-foreground">{gone}</p>;
  }
  const error = answer.isError ? answer.error.message : null;
  return (
    <ElicitationPrompt
      view={view}
      sending={answer.isPending && answer.variables ? answer.variables.action : null}
      error={error}
      onAnswer={(a) => answer.mutate(a)}
    />
  );
}
