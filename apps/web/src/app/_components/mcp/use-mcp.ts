"use client";
import type { McpServerView } from "@seam/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useInvalidate } from "@/lib/use-invalidate";
import { useLiveTopic } from "@/trpc/live";
import { useTRPC } from "@/trpc/react";

/** The server list, kept live by the `mcp` topic (every push replaces the cached list). */
export function useMcpServers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const servers = useQuery(trpc.mcp.list.queryOptions());
  useLiveTopic("mcp", { onData: (list) => queryClient.setQueryData(trpc.mcp.list.queryKey(), list as McpServerView[]) });
  return servers;
}

/** After a mutation: the list, the tools and the capability overview may all have changed. */
export function useInvalidateMcp() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate(trpc.mcp.list.queryKey(), trpc.tools.list.queryKey(), trpc.capabilities.list.queryKey());
}
