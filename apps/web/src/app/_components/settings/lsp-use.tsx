"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useInvalidate } from "@/lib/use-invalidate";
import { useLiveTopic } from "@/trpc/live";
import { useTRPC } from "@/trpc/react";

/** Configured servers with their per-workspace processes, kept live by the `lsp` topic (LSP-7, UI "Live"). */
export function useLspServers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const servers = useQuery(trpc.lsp.servers.queryOptions());
  const live = useLiveTopic("lsp", {
    onData: (list) => queryClient.setQueryData(trpc.lsp.servers.queryKey(), list),
  });
  return { servers, live };
}

/** After a mutation: the servers, the presets' "added" state, the tool list and the capability overview. */
export function useInvalidateLsp() {
  const trpc = useTRPC();
  const invalidate = useInvalidate();
  return () => invalidate(trpc.lsp.servers.queryKey(), trpc.lsp.presets.queryKey(), trpc.tools.list.queryKey(), trpc.capabilities.list.queryKey());
}
