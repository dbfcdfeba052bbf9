"use client";
import type { LiveTopic, SessionTopic } from "@seam/shared";
import { useSubscription } from "@trpc/tanstack-react-query";
import { createContext, useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { createLiveRegistry, type LiveHandler, type LiveRegistry } from "./live-registry";
import { useDelayedConnecting, type LiveStatus } from "./live-status";
import { useTRPC } from "./react";

export type { LiveHandler } from "./live-registry";
export type { LiveStatus } from "./live-status";

/**
 * One live stream per page for every topic its components watch (`live.stream`). Each SSE stream holds
 * one of the browser's six HTTP/1.1 connections to the host; a stream per topic left a few open tabs
 * with none for queries, and the UI hung. Components use `useLiveTopic`; the provider keeps the set of
 * watched topics and resubscribes when it changes (each topic then sends its state again, and
 * `onStarted` lets a component refetch whatever it might have missed).
 */
interface LiveContextValue { registry: LiveRegistry; status: LiveStatus }

const LiveContext = createContext<LiveContextValue | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const [topics, setTopics] = useState<LiveTopic[]>([]);
  const [registry] = useState(() => createLiveRegistry(setTopics));

  const subscription = useSubscription(
    trpc.live.stream.subscriptionOptions({ topics }, { enabled: topics.length > 0, onData: (event) => registry.dispatch(event) }),
  );
  const status = useDelayedConnecting(subscription.status);

  return <LiveContext.Provider value={{ registry, status }}>{children}</LiveContext.Provider>;
}

/** Watches `topic` (null: nothing) on the page's live stream; returns the stream's status. */
export function useLiveTopic<T extends LiveTopic>(topic: T | null, handler: LiveHandler<T>): LiveStatus {
  const live = useContext(LiveContext);
  if (!live) throw new Error("useLiveTopic needs a LiveProvider");
  const latest = useRef(handler);
  // The registry calls the handler of the last commit; events arrive outside render, after layout effects.
  useLayoutEffect(() => {
    latest.current = handler;
  });
  const { registry } = live;
  useEffect(() => (topic === null ? undefined : registry.register(topic, latest)), [topic, registry]);
  return live.status;
}

/** The topic of one session's events. */
export function sessionTopic(id: string): SessionTopic {
  return `session:${id}`;
}
