import { randomUUID } from "node:crypto";
import type { ExtensionBrowserState, ExtensionRunState, ExtensionRunView } from "@seam/shared";
import type { Scope } from "../core/scope.js";
import type { HostHalf } from "./host-half-types.js";

/** One run of one version: from the run request until it ends. Runs live in memory only (EXT-2). */
export interface Run {
  readonly id: string;
  readonly sessionId: string;
  readonly packageId: string;
  readonly packageName: string;
  readonly version: number;
  readonly hasHost: boolean;
  readonly hasBrowser: boolean;
  readonly startedAt: Date;
  /** Owns the host half; disposed when the run ends. */
  readonly scope: Scope;
  state: ExtensionRunState;
  half: HostHalf | null;
  browser: ExtensionBrowserState;
  browserFailure: string | null;
  failure: string | null;
  endedAt: Date | null;
  /** Pages waiting for `api.send` messages. */
  readonly bridges: Set<(message: unknown) => void>;
  /** Settled by the first browser report (or the end of the run). */
  readonly browserSettled: Promise<void>;
  settleBrowser(): void;
}

export const LIVE_STATES: readonly ExtensionRunState[] = ["waiting_approval", "starting", "running"];
export const isLive = (run: Run) => LIVE_STATES.includes(run.state);

export function createRun(scope: Scope, init: {
  sessionId: string; packageId: string; packageName: string; version: number; hasHost: boolean; hasBrowser: boolean;
}): Run {
  let settleBrowser!: () => void;
  const browserSettled = new Promise<void>((resolve) => (settleBrowser = resolve));
  const id = randomUUID();
  return {
    ...init,
    id,
    startedAt: new Date(),
    scope: scope.child(`run:${init.packageName}@${init.version}`),
    state: "waiting_approval",
    half: null,
    browser: init.hasBrowser ? "pending" : "none",
    browserFailure: null,
    failure: null,
    endedAt: null,
    bridges: new Set(),
    browserSettled,
    settleBrowser,
  };
}

export function runView(run: Run): ExtensionRunView {
  return {
    runId: run.id,
    packageId: run.packageId,
    packageName: run.packageName,
    sessionId: run.sessionId,
    version: run.version,
    state: run.state,
    hasHost: run.hasHost,
    browser: run.browser,
    browserFailure: run.browserFailure,
    tools: run.half && run.state === "running" ? run.half.tools() : [],
    logs: run.half?.logs() ?? [],
    lastFailure: run.failure ?? run.half?.lastFailure() ?? null,
    startedAt: run.startedAt.toISOString(),
    endedAt: run.endedAt?.toISOString() ?? null,
  };
}
