"use client";
import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/trpc/react";

/** How long typing pauses before the host checks the pattern. */
const DEBOUNCE_MS = 250;

/** `value`, once it stopped changing for `ms`. */
export function useDebounced<T>(value: T, ms = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/**
 * The host's verdict on a rule pattern as it is typed (`permissions.checkPattern`): whether it is valid
 * and which recent calls it would have matched. `current` is false while the answer is for older text.
 */
export function usePatternCheck(pattern: string) {
  const trpc = useTRPC();
  const trimmed = pattern.trim();
  const settled = useDebounced(trimmed);
  const query = useQuery({
    ...trpc.permissions.checkPattern.queryOptions(settled ? { pattern: settled } : skipToken),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  return { check: trimmed ? query.data : undefined, current: settled === trimmed && !query.isPlaceholderData, error: query.error, checking: query.isFetching };
}
