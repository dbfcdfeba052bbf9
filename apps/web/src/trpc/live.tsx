"use client";
import type { LiveEvent } from "@seam/shared";
import { useSubscription } from "@trpc/tanstack-react-query";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { useTRPC } from "./react";

/**
 * One live stream per page for every topic its components watch (`live.stream`). Each SSE stream holds
 * one of the browser's six HTTP/1.1 connections to the host; a stream per topic left a few open tabs
 * with none for queries, and the UI hung. Components use `useLiveTopic`; the provider keeps the set of
 * watched topics and resubscribes when it changes (each topic then sends its state again, and
 * `onStarted` lets a component refetch whatever it might have missed).
 */
export interface LiveHandler {
  onData(data: unknown): void;
  /** The stream (re)started with this topic subscribed: refetch what may have been missed. */
  onStarted?(): void;
  onError?(message: string): void;
}

export type LiveStatus = "idle" | "connecting" | "pending" | "error";

interface LiveContextValue {
  register(topic: string, handler: { current: LiveHandler }): () => void;
  status: LiveStatus;
}

const LiveContext = createContext<LiveContextValue | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const handlers = useRef(new Map<string, Set<{ current: LiveHandler }>>());
  const [topics, setTopics] = useState<string[]>([]);
  const scheduled = useRef(false);

  // Mounts and unmounts come in bursts (navigation); one resubscription covers a burst.
  const recompute = useCallback(() => {
    if (scheduled.current) return;
    scheduled.current = true;
    setTimeout(() => {
      scheduled.current = false;
      const next = [...handlers.current.keys()].sort();
      setTopics((prev) => (prev.length === next.length && prev.every((t, i) => t === next[i]) ? prev : next));
    }, 0);
  }, []);

  const register = useCallback(
    (topic: string, handler: { current: LiveHandler }) => {
      let set = handlers.current.get(topic);
      if (!set) handlers.current.set(topic, (set = new Set()));
      set.add(handler);
      recompute();
      return () => {
        set.delete(handler);
        if (set.size === 0 && handlers.current.get(topic) === set) handlers.current.delete(topic);
        recompute();
      };
    },
    [recompute],
  );

  const each = (topic: string | null, fn: (h: LiveHandler) => void) => {
    const sets = topic === null ? [...handlers.current.values()] : [handlers.current.get(topic) ?? new Set()];
    for (const set of sets) for (const h of [...set]) fn(h.current);
  };

  const subscription = useSubscription(
    trpc.live.stream.subscriptionOptions(
      { topics },
      {
        enabled: topics.length > 0,
        onData: (event) => {
          const e = event as LiveEvent;
          if (e.kind === "started") each(null, (h) => h.onStarted?.());
          else if (e.kind === "data") each(e.topic, (h) => h.onData(e.data));
          else each(e.topic, (h) => h.onError?.(e.message));
        },
      },
    ),
  );

  // A change of topics reconnects on purpose; only a reconnect that lasts is worth showing.
  const [status, setStatus] = useState<LiveStatus>(subscription.status);
  useEffect(() => {
    if (subscription.status !== "connecting") {
      setStatus(subscription.status);
      return;
    }
    const t = setTimeout(() => setStatus("connecting"), 1_500);
    return () => clearTimeout(t);
  }, [subscription.status]);

  return <LiveContext.Provider value={{ register, status }}>{children}</LiveContext.Provider>;
}

/** Watches `topic` (null: nothing) on the page's live stream; returns the stream's status. */
export function useLiveTopic(topic: string | null, handler: LiveHandler): LiveStatus {
  const live = useContext(LiveContext);
  if (!live) throw new Error("useLiveTopic needs a LiveProvider");
  const latest = useRef(handler);
  latest.current = handler;
  const { register } = live;
  useEffect(() => (topic === null ? undefined : register(topic, latest)), [topic, register]);
  return live.status;
}
