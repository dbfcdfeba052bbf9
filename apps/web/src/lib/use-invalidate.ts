"use client";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";

/** Marks queries stale after a change the host confirmed, so whatever shows them refetches. */
export function useInvalidate() {
  const queryClient = useQueryClient();
  return (...keys: QueryKey[]) => {
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
}
