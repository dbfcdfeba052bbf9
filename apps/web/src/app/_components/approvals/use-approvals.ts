"use client";
import type { ApprovalsSnapshot, ToolApprovalView } from "@seam/shared";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useLiveTopic } from "@/trpc/live";
import { useTRPC, useTRPCClient } from "@/trpc/react";

/** Pushed snapshots this tab has applied; a fetch that started before the latest push must not overwrite it. */
let pushes = 0;

const EMPTY: ApprovalsSnapshot = { tools: [], runs: [] };

/** Every pending request of every session (tool calls and extension runs), kept live by `useLiveApprovals`. */
export function useApprovals() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const options = trpc.permissions.pending.queryOptions();
  return useQuery({
    ...options,
    queryFn: async () => {
      const before = pushes;
      const fetched = await client.permissions.pending.query();
      const pushed = queryClient.getQueryData<ApprovalsSnapshot>(options.queryKey);
      return pushes !== before && pushed ? pushed : fetched;
    },
    // Pushed whole on every change, so a cached copy is never stale while the subscription runs.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The pending snapshot, or an empty one while it loads. */
export function useApprovalsSnapshot(): ApprovalsSnapshot {
  return useApprovals().data ?? EMPTY;
}

/** How many requests wait for a person, both kinds. */
export function usePendingCount(): number {
  const s = useApprovalsSnapshot();
  return s.tools.length + s.runs.length;
}

/** This session's pending tool-call requests by the call id they hold up. */
export function useToolApprovalsOf(sessionId: string): Map<string, ToolApprovalView> {
  const { tools } = useApprovalsSnapshot();
  return useMemo(() => new Map(tools.filter((t) => t.sessionId === sessionId).map((t) => [t.callId, t])), [tools, sessionId]);
}

/**
 * Keeps the pending snapshot live on every page (mounted once, by the approval tray). Each change may
 * have written the audit log or created a rule, so those queries are refreshed as well (again a moment
 * later: the host writes the audit line just after the request leaves the list).
 */
export function useLiveApprovals() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useLiveTopic("approvals", {
    onStarted: () => void queryClient.invalidateQueries({ queryKey: trpc.permissions.pending.queryKey() }),
    onData: (snapshot) => {
      pushes++;
      const before = queryClient.getQueryData<ApprovalsSnapshot>(trpc.permissions.pending.queryKey());
      queryClient.setQueryData(trpc.permissions.pending.queryKey(), snapshot);
      if (before && before.tools.length + before.runs.length > snapshot.tools.length + snapshot.runs.length) {
        const refresh = () => {
          void queryClient.invalidateQueries({ queryKey: trpc.permissions.audit.pathKey() });
          void queryClient.invalidateQueries({ queryKey: trpc.permissions.rules.queryKey() });
        };
        refresh();
        setTimeout(refresh, 1_000);
      }
    },
  });
}

/** Drops request `id` from this tab's copy once the host confirmed an answer (the next push says so too). */
export function dropApproval(queryClient: QueryClient, queryKey: readonly unknown[], id: string): void {
  queryClient.setQueryData<ApprovalsSnapshot>(queryKey, (s) => (s ? { tools: s.tools.filter((t) => t.id !== id), runs: s.runs.filter((r) => r.id !== id) } : s));
}
