"use client";
import type { ShellJobView } from "@seam/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useLiveTopic } from "@/trpc/live";
import { useTRPC } from "@/trpc/react";

/** A session's background jobs: `shell.jobs`, then kept current by the live topic `jobs` (pushed whole per session). */
export function useSessionJobs(sessionId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const key = trpc.shell.jobs.queryKey({ sessionId });
  const query = useQuery({ ...trpc.shell.jobs.queryOptions({ sessionId }), staleTime: Number.POSITIVE_INFINITY });
  useLiveTopic("jobs", {
    onStarted: () => void queryClient.invalidateQueries({ queryKey: key }),
    onData: (change) => {
      if (change.sessionId === sessionId) queryClient.setQueryData(key, change.jobs);
    },
  });
  return query;
}

/** Replaces one job in the cached list (after a kill the host confirmed). */
export function useUpdateJob(sessionId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return (job: ShellJobView) =>
    queryClient.setQueryData(trpc.shell.jobs.queryKey({ sessionId }), (jobs) => jobs?.map((j) => (j.id === job.id ? job : j)));
}
