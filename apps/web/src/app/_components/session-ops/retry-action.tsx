"use client";
import { useMutation } from "@tanstack/react-query";
import { LoaderCircleIcon, RotateCcwIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { useTRPC } from "@/trpc/react";
import type { TimelineRow } from "../chat/timeline-state";

/** "Retry" applies when no turn runs and the session has a user message to send again (CTX-5). */
export function canRetry(rows: readonly TimelineRow[], running: boolean): boolean {
  return !running && rows.some((r) => r.kind === "item" && r.item.kind === "message" && r.item.role === "user");
}

export function RetryActionView({ pending, error, onRetry }: { pending: boolean; error: string | null; onRetry: () => void }) {
  return (
    <div className="flex items-center gap-2">
      <Button variant="subtle" size="xs" data-testid="turn-retry" disabled={pending} onClick={onRetry} title="Send your last message again as a new turn">
        {pending ? <LoaderCircleIcon className="animate-spin" /> : <RotateCcwIcon />} Retry
      </Button>
      {error && (
        <span data-testid="turn-retry-error" role="alert" className="text-xs text-destructive">
          Could not retry: {error}
        </span>
      )}
    </div>
  );
}

/** Retry at the end of the timeline: re-sends the last user message (a /call runs the same call again). */
export function RetryAction({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const retry = useMutation(trpc.session.retry.mutationOptions());
  return <RetryActionView pending={retry.isPending} error={retry.error?.message ?? null} onRetry={() => retry.mutate({ id: sessionId })} />;
}
