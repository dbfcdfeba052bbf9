import type { ExtensionRefusal, ExtensionSettings } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import type { ToolRegistry } from "../agent/registry.js";
import type { Store } from "../persistence/store.js";
import type { ApprovalBroker } from "../permissions/broker.js";
import type { RunDecisionInput } from "../permissions/permissions.js";
import type { HostHalfLimits } from "./host-half-types.js";
import { isLive, type Run } from "./runs.js";
import type { ExtensionStore } from "./store.js";

/** One decision on a run request, for the permissions audit log (PERM-4). */
export type RunDecision = RunDecisionInput;

/** What the parts of the extensions capability share (service.ts builds it once). */
export interface ExtensionsContext {
  /** The capability's scope; every run's scope is a child of it. */
  readonly scope: Scope;
  readonly extStore: ExtensionStore;
  readonly store: Pick<Store, "settings" | "sessions">;
  readonly registry: ToolRegistry;
  readonly limits?: Partial<HostHalfLimits>;
  /** How long `run` waits for an open page to render a browser half. */
  readonly browserWaitMs: number;
  /** Live and recently ended runs, oldest first. Runs live in memory only (EXT-2). */
  readonly runs: Run[];
  /** Pages listening to every run's `api.send` messages. */
  readonly allBridges: Set<(runId: string, message: unknown) => void>;
  readonly broker: ApprovalBroker;
  readonly audit?: (entry: RunDecision) => Promise<void>;
  /** Cached; `setSettings` replaces them. */
  getSettings(): Promise<ExtensionSettings>;
  setSettings(next: ExtensionSettings): Promise<void>;
  /** Announces a change to the page (throttled); `packagesToo` when definitions, decisions or grants changed. */
  changed(packagesToo?: boolean): void;
  /** How many pages watch the extensions view right now. */
  watchers(): number;
}

/** A refusal with one of the closed EXT-1 codes as its reason. */
export const refusal = (reason: ExtensionRefusal, message: string, data: Record<string, unknown> = {}) => {
  const kind = reason === "definition_missing" ? "not_found" : reason === "rejected" ? "denied" : reason === "cancelled" || reason === "not_running" ? "closed" : "unavailable";
  return new HostError(`${kind}:extensions`, message, { reason, ...data });
};

/** The session's running run of a package, if any (a run waiting for approval does not count). */
export const liveRun = (runs: readonly Run[], sessionId: string, packageId: string) =>
  runs.find((r) => r.sessionId === sessionId && r.packageId === packageId && isLive(r) && r.state !== "waiting_approval");

/** Delivers a host event to the other running extensions of `run`'s session. */
export function emitToSession(runs: readonly Run[], run: Run, name: string, payload: unknown) {
  for (const other of runs) {
    if (other !== run && other.sessionId === run.sessionId && other.state === "running") other.half?.emit(name, payload);
  }
}

export const runOf = (runs: readonly Run[], runId: string) => {
  const run = runs.find((r) => r.id === runId);
  if (!run) throw new HostError("not_found:extensions", "No such extension run; it may have ended long ago.", { reason: "not_found" });
  return run;
};

/** The session's package called `name`, or `definition_missing`. */
export async function findPackage({ extStore }: ExtensionsContext, sessionId: string, name: string) {
  const pkg = await extStore.find(sessionId, name);
  if (!pkg) throw refusal("definition_missing", `No extension named "${name}" is defined in this session. Define it with extension_define first.`, { name });
  return pkg;
}
