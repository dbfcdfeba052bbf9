"use client";
import { SEARCH_QUERY_MAX } from "@seam/shared";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/trpc/react";

export const SEARCH_DEBOUNCE_MS = 200;

/** `value` once it has stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The text the host is asked for: trimmed, cut to the query limit, empty when there is nothing to look for. */
export const searchQueryOf = (text: string) => text.trim().slice(0, SEARCH_QUERY_MAX).trim();

/** Results as you type (debounced); the previous results stay while the next ones load. */
export function useSearch(text: string) {
  const trpc = useTRPC();
  const query = useDebounced(searchQueryOf(text), SEARCH_DEBOUNCE_MS);
  const result = useQuery({
    ...trpc.session.search.queryOptions({ query, limit: 20 }),
    enabled: query !== "",
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  return { query, hits: query ? result.data : undefined, loading: result.isFetching, error: result.error?.message ?? null };
}
