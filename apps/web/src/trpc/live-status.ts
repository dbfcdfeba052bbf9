import { useEffect, useState } from "react";

export type LiveStatus = "idle" | "connecting" | "pending" | "error";

/** How long a reconnect must last before the page says so: a change of topics reconnects on purpose. */
export const RECONNECT_NOTICE_MS = 1_500;

/** The subscription's status, where "connecting" shows only once it has lasted `RECONNECT_NOTICE_MS`. */
export function useDelayedConnecting(status: LiveStatus): LiveStatus {
  const [shown, setShown] = useState<LiveStatus>(status);
  useEffect(() => {
    if (status !== "connecting") {
      setShown(status);
      return;
    }
    const t = setTimeout(() => setShown("connecting"), RECONNECT_NOTICE_MS);
    return () => clearTimeout(t);
  }, [status]);
  return shown;
}
