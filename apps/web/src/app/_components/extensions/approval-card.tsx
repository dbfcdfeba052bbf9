"use client";
import type { ApprovalRequestView, ExtensionsSnapshot } from "@seam/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CheckIcon, LoaderCircleIcon, PuzzleIcon, XIcon } from "lucide-react";
import Link from "next/link";
import { useCallback, useEffect, useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { relativeTime } from "@/lib/time";
import { useNow } from "@/lib/use-now";
import { cn } from "@/lib/utils";
import { useTRPC } from "@/trpc/react";
import { dropApproval } from "../approvals/use-approvals";
import { HalfSource } from "./half-source";
import { messageOf, trpcCodeOf } from "./use-extensions";

/**
 * A pending run request (EXT-5): what would run, its source (diffed against the last approved version),
 * and the decision. The first answer from any page wins; the card leaves when the request does.
 */
export function ApprovalCard({ request, className }: { request: ApprovalRequestView; className?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const checkboxId = useId();
  const now = useNow(30_000);
  const [allowFuture, setAllowFuture] = useState(false);
  const [gone, setGone] = useState<string | null>(null);

  const drop = useCallback(() => {
    queryClient.setQueryData<ExtensionsSnapshot>(trpc.extensions.snapshot.queryKey(), (s) =>
      s ? { ...s, approvals: s.approvals.filter((a) => a.id !== request.id) } : s,
    );
    dropApproval(queryClient, trpc.permissions.pending.queryKey(), request.id);
  }, [queryClient, trpc, request.id]);
  const answer = useMutation(
    trpc.extensions.answer.mutationOptions({
      // The host confirmed: this page may drop the prompt before the next snapshot says so.
      onSuccess: drop,
      onError: (error) => {
        const code = trpcCodeOf(error);
        // The host says which: answered on another page, or withdrawn because its turn ended.
        if (code === "CONFLICT") setGone(messageOf(error));
        else if (code === "NOT_FOUND") setGone("This request is no longer pending: the turn ended or it was answered elsewhere.");
      },
    }),
  );
  useEffect(() => {
    if (!gone) return;
    const t = setTimeout(drop, 3_000);
    return () => clearTimeout(t);
  }, [gone, drop]);

  const decide = (decision: "allow" | "deny") =>
    answer.mutate({ id: request.id, decision, allowFuture: decision === "allow" && allowFuture });
  const pending = answer.isPending ? answer.variables?.decision : null;
  const failed = answer.isError && !gone ? answer.error : null;
  const prev = request.previous;

  if (gone) {
    return (
      <div
        data-testid="approval-card-gone"
        data-request-id={request.id}
        role="status"
        className={cn("rounded-xl border border-dashed bg-card px-4 py-3 text-[13px] text-muted-foreground", className)}
      >
        <span className="font-mono text-foreground">
          {request.packageName} v{request.version}
        </span>{" "}
        — {gone}
      </div>
    );
  }

  return (
    <article
      data-testid="approval-card"
      data-request-id={request.id}
      data-package={request.packageName}
      data-version={request.version}
      data-session-id={request.sessionId}
      aria-label={`Run request for ${request.packageName} v${request.version}`}
      className={cn("flex flex-col gap-3 rounded-xl border border-primary/30 bg-card p-4 shadow-sm", className)}
    >
      <header className="flex items-start gap-3">
        <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-primary-soft text-primary-soft-foreground">
          <PuzzleIcon className="size-4" />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <h3 className="text-[14px] font-semibold">Run extension?</h3>
            <span data-testid="approval-package" className="font-mono text-[13px]">
              {request.packageName}
            </span>
            <Badge tone="accent" data-testid="approval-version">
              v{request.version}
            </Badge>
            {prev && <Badge tone="outline">last approved v{prev.version}</Badge>}
          </div>
          <p className="mt-0.5 text-[12px] text-muted-foreground">
            Requested {relativeTime(request.requestedAt, now)} by session{" "}
            <Link href={`/s/${request.sessionId}`} data-testid="approval-session" className="font-medium text-primary hover:underline">
              {request.sessionTitle || "Untitled session"}
            </Link>
            . The turn waits for your answer.
          </p>
        </div>
      </header>

      <p data-testid="approval-purpose" className="text-[13.5px] leading-relaxed">
        <span className="text-muted-foreground">Purpose: </span>
        {request.purpose || "(no purpose given)"}
      </p>

      <HalfSource half="host" code={request.hostCode} previous={prev ? { version: prev.version, code: prev.hostCode } : null} />
      <HalfSource half="browser" code={request.browserCode} previous={prev ? { version: prev.version, code: prev.browserCode } : null} />

      {failed && (
        <p role="alert" className="text-[12.5px] text-destructive">
          Could not send your answer: {messageOf(failed)}. Check that Seam is still running and try again.
        </p>
      )}

      <footer className="flex flex-wrap items-center justify-between gap-3 border-t pt-3">
        <label htmlFor={checkboxId} className="flex cursor-pointer items-center gap-2 text-[13px]">
          <input
            id={checkboxId}
            type="checkbox"
            data-testid="approval-allow-future"
            checked={allowFuture}
            onChange={(e) => setAllowFuture(e.target.checked)}
            className="size-4 cursor-pointer accent-[var(--primary)]"
          />
          Allow future versions of this package
        </label>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" data-testid="approval-deny" disabled={answer.isPending} onClick={() => decide("deny")}>
            {pending === "deny" ? <LoaderCircleIcon className="animate-spin" /> : <XIcon />}
            Deny
          </Button>
          <Button size="sm" data-testid="approval-allow" disabled={answer.isPending} onClick={() => decide("allow")}>
            {pending === "allow" ? <LoaderCircleIcon className="animate-spin" /> : <CheckIcon />}
            Allow
          </Button>
        </div>
      </footer>
    </article>
  );
}
