"use client";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { sessionTopic, useLiveTopic } from "@/trpc/live";
import { useTRPCClient } from "@/trpc/react";
import { emptyTimeline, timelineReducer } from "./timeline-state";

/**
 * Loads `session.get` and applies the live `session:<id>` events on top. Every (re)connect of the subscription
 * refetches the snapshot so events missed while disconnected are recovered; text deltas that
 * arrive while that snapshot is in flight are buffered and merged without duplication.
 */
export function useSessionTimeline(id: string) {
  const client = useTRPCClient();
  const [state, dispatch] = useReducer(timelineReducer, emptyTimeline);
  const [error, setError] = useState<{ message: string; notFound: boolean } | null>(null);
  const syncSeq = useRef(0);
  const pending = useRef<Map<string, string[]> | null>(null);

  // The state updates happen when the snapshot arrives (in the promise's callbacks), never while the effect runs.
  const sync = useCallback(() => {
    const seq = ++syncSeq.current;
    const buffer = new Map<string, string[]>();
    pending.current = buffer;
    return client.session.get.query({ id }).then(
      (detail) => {
        if (seq !== syncSeq.current) return;
        pending.current = null;
        dispatch({ type: "snapshot", detail, deltas: buffer });
        setError(null);
      },
      (err: unknown) => {
        if (seq !== syncSeq.current) return;
        pending.current = null;
        const e = err as { message?: string; data?: { code?: string } };
        setError({ message: e.message ?? String(err), notFound: e.data?.code === "NOT_FOUND" });
      },
    );
  }, [client, id]);

  useEffect(() => {
    void sync();
  }, [sync]);

  const live = useLiveTopic(error?.notFound ? null : sessionTopic(id), {
    onStarted: () => void sync(),
    onData: (event) => {
      if (event.type === "delta" && pending.current) {
        pending.current.set(event.itemId, [...(pending.current.get(event.itemId) ?? []), event.text]);
      }
      dispatch({ type: "event", event });
    },
  });

  return { state, error, live, reload: sync };
}
