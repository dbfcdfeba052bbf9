"use client";
import { useEffect, useState } from "react";

/**
 * True while this tab holds the Web Lock `name`: exactly one tab of the origin at a time, and the next
 * waiting tab when it closes. Without Web Locks or BroadcastChannel every tab leads (works, just less
 * frugal with connections).
 */
export function useTabLeader(name: string): boolean {
  const [leader, setLeader] = useState(false);
  useEffect(() => {
    const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
    if (!locks || typeof BroadcastChannel === "undefined") {
      setLeader(true);
      return;
    }
    const release = new AbortController();
    locks
      .request(name, { signal: release.signal }, () => {
        setLeader(true);
        // Held until this component unmounts.
        return new Promise<void>((resolve) => release.signal.addEventListener("abort", () => resolve(), { once: true }));
      })
      .catch(() => undefined);
    return () => {
      release.abort();
      setLeader(false);
    };
  }, [name]);
  return leader;
}
