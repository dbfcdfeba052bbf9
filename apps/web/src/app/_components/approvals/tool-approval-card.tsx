"use client";
import type { ToolApprovalAnswer, ToolApprovalView } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CheckIcon } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { hostCodeOf } from "@/lib/host-error";
import { cn } from "@/lib/utils";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import { ToolApprovalPrompt, type AnswerKind } from "./tool-approval-prompt";
import { dropApproval } from "./use-approvals";

/** What a late answer's refusal means, calmly. */
export function goneMessage(code: string | null): string | null {
  if (code === "already_answered") return "Answered in another tab.";
  if (code === "withdrawn" || code === "cancelled") return "Withdrawn: the turn ended before anyone answered.";
  if (code === "not_found") return "No longer pending: the turn ended or it was answered elsewhere.";
  return null;
}

const kindOf = (a: ToolApprovalAnswer): AnswerKind => (a.decision === "deny" ? "deny" : a.scope);

/**
 * A pending tool call's approval card wired to the host: answers, pattern checks, and "answered elsewhere".
 * `stale`: the request already left the pending list; the card shows only what this tab still has to say.
 */
export function ToolApprovalCard({ request, stale = false, showSession, className }: { request: ToolApprovalView; stale?: boolean; showSession?: boolean; className?: string }) {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const [gone, setGone] = useState<string | null>(null);
  const drop = useCallback(() => dropApproval(queryClient, trpc.permissions.pending.queryKey(), request.id), [queryClient, trpc, request.id]);
  const answer = useMutation(
    trpc.permissions.answer.mutationOptions({
      // The host confirmed: this page may drop the card before the next snapshot says so.
      onSuccess: drop,
      onError: (error) => setGone(goneMessage(hostCodeOf(error))),
    }),
  );
  useEffect(() => {
    if (!gone) return;
    const t = setTimeout(drop, 3_000);
    return () => clearTimeout(t);
  }, [gone, drop]);
  const checkPattern = useCallback((pattern: string) => client.permissions.checkPattern.query({ pattern }), [client]);

  if (gone) {
    return (
      <div
        data-testid="tool-approval-gone"
        data-request-id={request.id}
        role="status"
        className={cn("flex items-center gap-2 rounded-xl border border-dashed bg-card px-3.5 py-2.5 text-[13px] text-muted-foreground", className)}
      >
        <CheckIcon className="size-4 shrink-0" />
        <span className="min-w-0 truncate">
          <span className="font-mono text-foreground">{request.tool}</span> — {gone}
        </span>
      </div>
    );
  }

  if (stale && !answer.isPending) return null;

  const failed = answer.isError ? `Could not send your answer: ${answer.error.message}. Check that Seam is still running and try again.` : null;
  return (
    <ToolApprovalPrompt
      request={request}
      showSession={showSession}
      className={className}
      sending={answer.isPending && answer.variables ? kindOf(answer.variables) : null}
      error={failed}
      checkPattern={checkPattern}
      onAnswer={(a) => answer.mutate(a)}
    />
  );
}
