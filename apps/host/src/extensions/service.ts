import type { ExtensionPackageView, ExtensionRunView } from "@seam/shared";
import type { HostApi } from "../host-api.js";
import type { ToolRegistry } from "../agent/registry.js";
import { HostError } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import type { Store } from "../persistence/store.js";
import { createApprovalBroker } from "./approvals.js";
import { findPackage, liveRun, refusal, type ExtensionsContext } from "./context.js";
import { liveView } from "./live-view.js";
import { pageApi } from "./page-api.js";
import { endRun, runPackage } from "./run-lifecycle.js";
import { servicesOf, type ServiceInfo } from "./run-services.js";
import type { HostHalfLimits } from "./runner.js";
import { isLive, runView, type Run } from "./runs.js";
import { settingsCache } from "./settings.js";
import type { ExtensionStore } from "./store.js";
import { checkSyntax, formatSyntaxProblem } from "./syntax.js";

export type { BridgeMessage } from "./bridge.js";
export type { ServiceInfo } from "./run-services.js";
export { refusal };

export interface DefineInput { name: string; purpose: string; host?: string; browser?: string }
export interface DefineResult { name: string; version: number; hash: string; created: boolean; halves: ("host" | "browser")[] }
export interface RunResult {
  name: string; version: number; runId: string; state: "running"; tools: string[];
  browser: "none" | "rendered" | "pending";
  approvedBy: "user" | "grant" | "setting" | "earlier";
}

export interface ExtensionsOptions {
  extStore: ExtensionStore;
  store: Pick<Store, "settings" | "sessions">;
  registry: ToolRegistry;
  limits?: Partial<HostHalfLimits>;
  /** How long `run` waits for an open page to render a browser half. Default 5 s. */
  browserWaitMs?: number;
}

export interface Extensions {
  define(sessionId: string, input: DefineInput): Promise<DefineResult>;
  /** Asks for approval unless a grant or setting allows it, then starts the halves; refuses with the EXT-1 codes. */
  run(sessionId: string, input: { name: string; version?: number }, signal: AbortSignal): Promise<RunResult>;
  stop(sessionId: string, name: string): Promise<{ name: string; version: number; stopped: true }>;
  undefine(sessionId: string, name: string): Promise<{ name: string; versions: number; stopped: boolean }>;
  /** This session's packages with their runs (another session's packages are absent). */
  packages(sessionId: string): Promise<{ pkg: ExtensionPackageView; run: ExtensionRunView | null }[]>;
  /** What `api.services.call` can reach in this session. */
  services(sessionId: string): ServiceInfo[];
  /** Stops a deleted session's runs and withdraws its run requests. */
  forgetSession(sessionId: string): Promise<void>;
  api: HostApi["extensions"];
}

/** Dynamic extensions (EXT-1..6): definitions in SQLite, runs in memory, approvals, the browser bridge. */
export function createExtensions(scope: Scope, opts: ExtensionsOptions): Extensions {
  const { extStore, store, registry } = opts;
  const runs: Run[] = [];
  const settings = settingsCache(store);
  const live = liveView(scope, { extStore, registry, runs, pendingApprovals: () => broker.pending(), getSettings: settings.get });
  const broker = createApprovalBroker({ onChange: () => live.changed() });
  const ctx: ExtensionsContext = {
    scope, extStore, store, registry, limits: opts.limits, browserWaitMs: opts.browserWaitMs ?? 5_000, runs, allBridges: new Set(), broker,
    getSettings: settings.get, setSettings: settings.set, changed: live.changed, watchers: live.watchers,
  };

  const extensions: Extensions = {
    async define(sessionId, input) {
      const halves = checkedHalves(input);
      const out = await extStore.define(sessionId, input.name, {
        purpose: input.purpose,
        hostCode: input.host?.trim() ? input.host : null,
        browserCode: input.browser?.trim() ? input.browser : null,
      });
      live.changed(true);
      return { name: input.name, version: out.version, hash: out.hash, created: out.created, halves };
    },

    run: (sessionId, input, signal) => runPackage(ctx, sessionId, input, signal),

    async stop(sessionId, name) {
      const pkg = await findPackage(ctx, sessionId, name);
      const run = liveRun(runs, sessionId, pkg.id);
      if (!run) throw refusal("not_running", `${name} is not running. Start it with extension_run.`);
      await endRun(ctx, run, "stopped", null);
      return { name, version: run.version, stopped: true };
    },

    async undefine(sessionId, name) {
      const pkg = await findPackage(ctx, sessionId, name);
      const run = liveRun(runs, sessionId, pkg.id);
      if (run) await endRun(ctx, run, "stopped", null);
      await extStore.remove(pkg.id);
      live.changed(true);
      return { name, versions: pkg.versions.length, stopped: Boolean(run) };
    },

    async packages(sessionId) {
      const list = await extStore.listForSession(sessionId);
      return list.map((pkg) => {
        const run = [...runs].reverse().find((r) => r.sessionId === sessionId && r.packageId === pkg.id);
        return { pkg, run: run ? runView(run) : null };
      });
    },

    services: (sessionId) => servicesOf(runs, sessionId),

    async forgetSession(sessionId) {
      broker.withdrawSession(sessionId);
      await Promise.all(runs.filter((r) => r.sessionId === sessionId && isLive(r)).map((r) => endRun(ctx, r, "stopped", "the session was deleted")));
      live.changed(true);
    },

    api: pageApi(ctx, live),
  };

  scope.add(async () => {
    await Promise.all(runs.filter(isLive).map((r) => endRun(ctx, r, "stopped", "the host is shutting down")));
  }, "runs");

  return extensions;
}

/** The halves given, each syntax-checked before anything is recorded (EXT-1). */
function checkedHalves(input: DefineInput): ("host" | "browser")[] {
  const halves = ([["host", input.host], ["browser", input.browser]] as const).filter(([, code]) => code !== undefined && code.trim() !== "");
  if (halves.length === 0) throw new HostError("bad_input:extensions", "Give at least one half: `host` (logic, tools) and/or `browser` (UI in the page).");
  for (const [half, code] of halves) {
    const problem = checkSyntax(code as string, half);
    if (problem) throw new HostError("bad_input:extensions", `Nothing was recorded: the ${formatSyntaxProblem(problem)}`, { reason: "syntax_error", half, line: problem.line });
  }
  return halves.map(([h]) => h);
}
