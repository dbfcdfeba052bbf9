import { useEffect, useState } from "react";

export type LiveStatus = "idle" | "connecting" | "pending" | "error";

/** How long a reconnect must last before the page says so: a change of topics reconnects on purpose. */
export const RECONNECT_NOTICE_MS = 1_500;

/** The subscription's status, where "connecting" shows only once it has lasted `RECONNECT_NOTICE_MS`. */
export function useDelayedConnecting(status: LiveStatus): LiveStatus {
  // The last status shown other than a reconnect still within its grace period.
  const [settled, setSettled] = useState<LiveStatus>(status);
  if (status !== "connecting" && settled !== status) setSettled(status);
  useEffect(() => {
    if (status !== "connecting") return;
    const t = setTimeout(() => setSettled("connecting"), RECONNECT_NOTICE_MS);
    return () => clearTimeout(t);
  }, [status]);
  return status === "connecting" ? settled : status;
}
