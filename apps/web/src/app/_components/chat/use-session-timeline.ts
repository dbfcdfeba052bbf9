"use client";
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from "react";
import { sessionTopic, useLiveTopic } from "@/trpc/live";
import { useTRPCClient } from "@/trpc/react";
import { emptyTimeline, hasNewer, hasOlder, timelineReducer } from "./timeline-state";

/** Items a scroll to an edge loads at once. */
export const PAGE_SIZE = 150;
/** How long the first snapshot waits for the live stream to start before it is fetched anyway. */
const STREAM_WAIT_MS = 1500;
/** A watcher that only holds its topic on the page's live stream. */
const HOLD = { onData: () => undefined };

export interface JumpState {
  itemId: string;
  status: "loading" | "ready" | "failed";
  /** Why the item could not be shown. */
  message?: string;
}

const errorOf = (err: unknown) => {
  const e = err as { message?: string; data?: { code?: string } };
  return { message: e.message ?? String(err), notFound: e.data?.code === "NOT_FOUND" };
};

/**
 * The chat's timeline (CTX-4): `session.get`'s latest page, older and newer pages loaded on demand
 * (`loadOlder` / `loadNewer`), the window around `jumpTo` (`?item=`), and the live `session:<id>` events
 * on top. The snapshot is fetched when the live stream has started with this session's topic (once, and
 * again after every reconnect, so events missed while disconnected are recovered); text deltas that
 * arrive while it is in flight are buffered and merged without duplication.
 */
export function useSessionTimeline(id: string, jumpTo: string | null = null) {
  const client = useTRPCClient();
  const [state, dispatch] = useReducer(timelineReducer, emptyTimeline);
  const [error, setError] = useState<{ message: string; notFound: boolean } | null>(null);
  const [jumped, setJumped] = useState<JumpState | null>(null);
  const jump: JumpState | null = jumpTo ? (jumped?.itemId === jumpTo ? jumped : { itemId: jumpTo, status: "loading" }) : null;
  const [paging, setPaging] = useState<{ older: boolean; newer: boolean }>({ older: false, newer: false });
  const syncSeq = useRef(0);
  const synced = useRef(false);
  const pending = useRef<Map<string, string[]> | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const windowRef = useRef(state.window);
  useLayoutEffect(() => {
    windowRef.current = state.window;
  }, [state.window]);
  const inFlight = useRef({ older: false, newer: false });

  // The state updates happen when the snapshot arrives (in the promise's callbacks), never while the effect runs.
  const sync = useCallback((reset = false) => {
    const seq = ++syncSeq.current;
    synced.current = true;
    const buffer = new Map<string, string[]>();
    pending.current = buffer;
    return client.session.get.query({ id }).then(
      (detail) => {
        if (seq !== syncSeq.current) return;
        pending.current = null;
        dispatch({ type: "snapshot", detail, deltas: buffer, reset });
        setError(null);
      },
      (err: unknown) => {
        if (seq !== syncSeq.current) return;
        pending.current = null;
        setError(errorOf(err));
      },
    );
  }, [client, id]);

  // The first fetch waits for `started` (below); a stream slow to start does not hold the page back.
  useEffect(() => {
    const timer = setTimeout(() => synced.current || void sync(), STREAM_WAIT_MS);
    return () => clearTimeout(timer);
  }, [sync]);

  // The chat's parts that mount once the session has loaded watch these (job chips; extension approvals and
  // frames). Held from the start, their mounting does not change the stream's topics: a changed set restarts
  // the stream, and every watcher — this one too — would refetch what it might have missed.
  useLiveTopic("jobs", HOLD);
  useLiveTopic("extensions", HOLD);
  const live = useLiveTopic(error?.notFound ? null : sessionTopic(id), {
    onStarted: () => void sync(),
    onData: (event) => {
      if (event.type === "delta" && pending.current) {
        pending.current.set(event.itemId, [...(pending.current.get(event.itemId) ?? []), event.text]);
      }
      dispatch({ type: "event", event });
    },
  });

  // `?item=<id>`: the window around that item replaces the shown one.
  useEffect(() => {
    if (!jumpTo) return;
    let cancelled = false;
    client.session.itemsAround.query({ sessionId: id, itemId: jumpTo, limit: PAGE_SIZE }).then(
      (page) => {
        if (cancelled) return;
        dispatch({ type: "around", page });
        setJumped({ itemId: jumpTo, status: "ready" });
      },
      (err: unknown) => !cancelled && setJumped({ itemId: jumpTo, status: "failed", message: errorOf(err).message }),
    );
    return () => {
      cancelled = true;
    };
  }, [client, id, jumpTo]);

  const loadPage = useCallback((direction: "older" | "newer") => {
    const w = windowRef.current;
    if (inFlight.current[direction] || !(direction === "older" ? hasOlder(w) : hasNewer(w)) || !w) return;
    inFlight.current[direction] = true;
    setPaging((p) => ({ ...p, [direction]: true }));
    setPageError(null);
    const cursor = direction === "older" ? { beforeSeq: w.fromSeq } : { afterSeq: w.toSeq };
    const done = () => {
      inFlight.current[direction] = false;
      setPaging((p) => ({ ...p, [direction]: false }));
    };
    client.session.items.query({ sessionId: id, limit: PAGE_SIZE, ...cursor }).then(
      (page) => {
        dispatch(direction === "older" ? { type: "older", beforeSeq: w.fromSeq, page } : { type: "newer", afterSeq: w.toSeq, page });
        done();
      },
      (err: unknown) => {
        done();
        setPageError(errorOf(err).message);
      },
    );
  }, [client, id]);

  const loadOlder = useCallback(() => loadPage("older"), [loadPage]);
  const loadNewer = useCallback(() => loadPage("newer"), [loadPage]);
  /** Back to the latest page from an old window (the window then follows live items again). */
  const toLatest = useCallback(() => (hasNewer(windowRef.current) ? sync(true) : Promise.resolve()), [sync]);

  return { state, error, live, jump, paging, pageError, loadOlder, loadNewer, toLatest, reload: sync };
}
