"use client";
import type { McpElicitationView } from "@seam/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useLiveTopic } from "@/trpc/live";
import { useTRPC } from "@/trpc/react";

const NONE: McpElicitationView[] = [];

/** Every pending MCP request for input of every session (MCP-12), kept live (topic `elicitations`). */
export function useAllElicitations(): McpElicitationView[] {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const options = trpc.mcp.elicitations.queryOptions();
  const query = useQuery({ ...options, staleTime: Number.POSITIVE_INFINITY });
  useLiveTopic("elicitations", {
    onStarted: () => void queryClient.invalidateQueries({ queryKey: options.queryKey }),
    onData: (views) => queryClient.setQueryData(options.queryKey, views),
  });
  return query.data ?? NONE;
}

/** One session's pending requests for input by the call they belong to. */
export function useElicitationsOf(sessionId: string): Map<string, McpElicitationView> {
  const all = useAllElicitations();
  return useMemo(() => new Map(all.filter((v) => v.sessionId === sessionId && v.callId !== null).map((v) => [v.callId!, v])), [all, sessionId]);
}
