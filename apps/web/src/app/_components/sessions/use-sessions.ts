"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useTRPC } from "@/trpc/react";

/** The session list from the cache. */
export function useSessions() {
  const trpc = useTRPC();
  return useQuery(trpc.session.list.queryOptions());
}

/** Keeps the cached list live: every push from `session.listEvents` replaces it (mount once). */
export function useLiveSessionList(): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useSubscription(
    trpc.session.listEvents.subscriptionOptions(undefined, {
      onStarted: () => void queryClient.invalidateQueries({ queryKey: trpc.session.list.queryKey() }),
      onData: (event) => queryClient.setQueryData(trpc.session.list.queryKey(), event.data),
    }),
  );
}
