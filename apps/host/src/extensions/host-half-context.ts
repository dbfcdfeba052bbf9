import type { Worker } from "node:worker_threads";
import type { Scope } from "../core/scope.js";
import type { HostHalfLimits, HostHalfState } from "./host-half-types.js";

/** Where a host half is in its life; runner.ts moves it, the other parts read it. */
export interface HalfLife {
  /** "starting" until the evaluation and its microtasks settled. */
  current: HostHalfState | "starting";
  /** The last failure worth showing, in words. */
  failure: string | null;
  /** When the worker last sent anything (heartbeats included): the watchdog's evidence. */
  lastSign: number;
}

/** What the parts of one host half share (calls, tools, outbound messages, the message dispatch). */
export interface HalfContext {
  /** `package@version`, for messages. */
  readonly label: string;
  readonly limits: HostHalfLimits;
  readonly worker: Worker;
  /** Owns the worker and everything it registered. */
  readonly own: Scope;
  readonly life: HalfLife;
  log(line: string): void;
  /** Leaves the running state once: rejects pending work, then disposes everything it registered. */
  end(state: HostHalfState, message: string | null): void;
}

export const isRunning = (life: HalfLife) => life.current === "running";
/** Running, or still starting: its worker's messages still count. */
export const isAlive = (life: HalfLife) => life.current === "running" || life.current === "starting";
