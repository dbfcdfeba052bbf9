"use client";
import type { ExtensionRunView, ExtensionsSnapshot } from "@seam/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";
import { useLiveTopic } from "@/trpc/live";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import { bridgeListenerCount, dispatchBridge, watchBridgeListenerCount } from "./bridge-hub";

/** Pushed snapshots this tab has applied; a fetch that started before the latest push must not overwrite it. */
let pushes = 0;

/** The extensions snapshot from the cache; `useLiveExtensions` (mounted once, in the app shell) keeps it current. */
export function useExtensions() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const options = trpc.extensions.snapshot.queryOptions();
  return useQuery({
    ...options,
    queryFn: async () => {
      const before = pushes;
      const fetched = await client.extensions.snapshot.query();
      const pushed = queryClient.getQueryData<ExtensionsSnapshot>(options.queryKey);
      return pushes !== before && pushed ? pushed : fetched;
    },
    // Pushed whole on every change, so a cached copy is never stale while the subscription runs.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * Keeps the cached snapshot live on every page (mount once per tab; the approval tray does), and feeds
 * the frames of this tab the host → browser messages of the `bridge` topic while any frame listens.
 */
export function useLiveExtensions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  useLiveTopic("extensions", {
    onData: (snapshot) => {
      pushes++;
      queryClient.setQueryData(trpc.extensions.snapshot.queryKey(), snapshot);
    },
  });
  const frames = useSyncExternalStore(watchBridgeListenerCount, bridgeListenerCount, () => 0);
  useLiveTopic(frames > 0 ? "bridge" : null, {
    onData: ({ runId, message }) => dispatchBridge(runId, message),
  });
}

/** A run whose browser half should be on screen now. */
export function hasLiveBrowserHalf(run: ExtensionRunView): boolean {
  return (run.state === "running" || run.state === "starting") && run.browser !== "none";
}

export function isActiveRun(run: ExtensionRunView): boolean {
  return run.state === "running" || run.state === "starting";
}

/** The tRPC error code (`CONFLICT`, `NOT_FOUND`…), when the error came from a procedure. */
export function trpcCodeOf(error: unknown): string | null {
  const data = (error as { data?: { code?: unknown } } | null)?.data;
  return typeof data?.code === "string" ? data.code : null;
}

/** What a failed call's message says, for sentences like "Could not stop it: …". */
export function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return "unknown error";
}
