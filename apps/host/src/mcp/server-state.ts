import type { McpServerConfig, McpServerState } from "@seam/shared";
import type { Log } from "../core/log.js";
import type { Connection } from "./connection.js";
import type { SerialChain, ToolGenerations } from "./sync.js";
import type { Clock, SupervisorPolicy, TimerLabel } from "./supervisor-types.js";
import type { TransportHandle } from "./transport.js";

/**
 * What the parts of one server's supervisor share (connect.ts, outage.ts, supervisor.ts): its config and
 * tool generations, and the little state they move together. Each field has one writer, named here.
 */
export interface ServerState {
  readonly config: McpServerConfig;
  readonly name: string;
  readonly log: Log;
  readonly clock: Clock;
  readonly policy: SupervisorPolicy;
  readonly gens: ToolGenerations;
  /** First sync, list_changed and reconnect syncs, one at a time (MCP-4). */
  readonly chain: SerialChain;
  /** The startup and ping timers (the restart loop keeps its own). */
  readonly timers: LabelledTimers;
  /** Written through `setStatus`, which also announces it. */
  readonly status: McpServerState;
  setStatus(next: McpServerState): void;
  onChange(): void;
  /** The connection calls use: set by going live (outage.ts), cleared by its loss or end. */
  current: Connection | undefined;
  /** The connection an attempt is opening (connect.ts); dispose aborts it. */
  opening: Connection | undefined;
  /** The attempt in flight, settled either way (connect.ts); dispose waits for it. */
  attempting: Promise<void> | undefined;
  /** The newest transport, for its stderr tail. */
  lastHandle: TransportHandle | undefined;
  instructions: string | null;
  serverInfo: { name: string; version: string; protocolVersion?: string } | null;
  /**
   * The protocol era this server proved to speak (connect.ts, MCP-14): unknown until a connect negotiated one.
   * "legacy" after a server closed the pipe on the version probe, so reconnects go straight to initialize.
   */
  era: "legacy" | undefined;
  /** Set first thing by dispose: every part stops starting anything. */
  disposed: boolean;
}

export interface LabelledTimers {
  /** Arms `fn` after `ms`, replacing a pending timer of the same label. */
  start(label: TimerLabel, ms: number, fn: () => void): void;
  stop(label: TimerLabel): void;
  stopAll(): void;
}

export function createServerState(init: Pick<ServerState, "config" | "log" | "clock" | "policy" | "gens" | "chain" | "onChange">): ServerState {
  let status: McpServerState = { state: "connecting", phase: "connecting" };
  return {
    ...init,
    name: init.config.name,
    timers: labelledTimers(init.clock),
    get status() {
      return status;
    },
    setStatus(next) {
      status = next;
      init.onChange();
    },
    current: undefined,
    opening: undefined,
    attempting: undefined,
    lastHandle: undefined,
    instructions: null,
    serverInfo: null,
    era: undefined,
    disposed: false,
  };
}

function labelledTimers(clock: Clock): LabelledTimers {
  const timers = new Map<TimerLabel, unknown>();
  const stop = (label: TimerLabel) => {
    if (!timers.has(label)) return;
    clock.clearTimeout(timers.get(label));
    timers.delete(label);
  };
  return {
    start(label, ms, fn) {
      stop(label);
      timers.set(label, clock.setTimeout(() => {
        timers.delete(label);
        fn();
      }, ms, label));
    },
    stop,
    stopAll() {
      for (const label of [...timers.keys()]) stop(label);
    },
  };
}
