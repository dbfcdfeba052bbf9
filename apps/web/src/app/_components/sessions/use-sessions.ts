"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useLiveTopic } from "@/trpc/live";
import { useTRPC } from "@/trpc/react";

/** The session list from the cache. */
export function useSessions() {
  const trpc = useTRPC();
  return useQuery(trpc.session.list.queryOptions());
}

/** Keeps the cached list live: every push of the `sessions` topic replaces it (mount once). */
export function useLiveSessionList(): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useLiveTopic("sessions", {
    onStarted: () => void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() }),
    onData: (list) => queryClient.setQueryData(trpc.session.list.queryKey(), list),
  });
}
