"use client";
import type { ExtensionRunView, ExtensionsSnapshot } from "@seam/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useCallback, useEffect, useRef, useSyncExternalStore } from "react";
import { useTRPC, useTRPCClient } from "@/trpc/react";
import { bridgeListenerCount, dispatchBridge, watchBridgeListenerCount } from "./bridge-hub";
import { useTabLeader } from "./use-tab-leader";

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

const CHANNEL = "seam:extensions.snapshot";
type TabMessage = { type: "hello" } | { type: "snapshot"; snapshot: ExtensionsSnapshot };

/**
 * Keeps the cached snapshot live on every page. Mount once per tab (the app shell does).
 *
 * Browsers allow six HTTP/1.1 connections per host, and every subscription holds one for good. So
 * only one tab — the holder of a Web Lock — subscribes to `extensions.events`; it hands each snapshot
 * to the other tabs over a BroadcastChannel. When it closes, another tab takes over.
 */
export function useLiveExtensions() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const leader = useTabLeader("seam:extensions.events");
  const leaderRef = useRef(leader);
  useEffect(() => {
    leaderRef.current = leader;
  }, [leader]);
  const channel = useRef<BroadcastChannel | null>(null);
  const latest = useRef<ExtensionsSnapshot | null>(null);

  const apply = useCallback(
    (snapshot: ExtensionsSnapshot) => {
      pushes++;
      latest.current = snapshot;
      queryClient.setQueryData(trpc.extensions.snapshot.queryKey(), snapshot);
    },
    [queryClient, trpc],
  );

  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const ch = new BroadcastChannel(CHANNEL);
    channel.current = ch;
    ch.onmessage = (event: MessageEvent<TabMessage>) => {
      const m = event.data;
      if (m?.type === "snapshot" && !leaderRef.current) apply(m.snapshot);
      else if (m?.type === "hello" && leaderRef.current && latest.current) ch.postMessage({ type: "snapshot", snapshot: latest.current } satisfies TabMessage);
    };
    // A new tab asks the current leader for what it has.
    ch.postMessage({ type: "hello" } satisfies TabMessage);
    return () => {
      channel.current = null;
      ch.close();
    };
  }, [apply]);

  // Host → browser messages of every run: one stream for all frames of this tab, only while one listens.
  const frames = useSyncExternalStore(watchBridgeListenerCount, bridgeListenerCount, () => 0);
  useSubscription(
    trpc.extensions.bridge.subscriptionOptions(undefined, {
      enabled: frames > 0,
      onData: (event) => dispatchBridge(event.data.runId, event.data.message),
    }),
  );

  return useSubscription(
    trpc.extensions.events.subscriptionOptions(undefined, {
      enabled: leader,
      onData: (event) => {
        const snapshot = event.data as ExtensionsSnapshot;
        apply(snapshot);
        channel.current?.postMessage({ type: "snapshot", snapshot } satisfies TabMessage);
      },
    }),
  );
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
