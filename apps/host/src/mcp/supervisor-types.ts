import type { Clock as TimerClock, RestartTimer } from "../core/supervisor.js";

/* Types the supervisor shares with its parts (connection.ts, outage.ts, server-state.ts), apart so none of them imports supervisor.ts. */

/** Timers the supervisor uses: the restart loop's (`retry`, `stable`) and its own. */
export type TimerLabel = RestartTimer | "startup" | "barrier" | "ping";
export type Clock = TimerClock<TimerLabel>;

export interface SupervisorPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  /** Reconnection attempts per outage. */
  maxAttempts: number;
  /** A connection up this long resets the attempt budget. */
  stableMs: number;
  /** How long a closing connection has to prove its peer is gone before reconnection stops. */
  closeBarrierMs: number;
  /** Health ping for Streamable HTTP servers (0 = off); stdio servers report their exit instead. */
  httpPingIntervalMs: number;
}
