import type { ApprovalRequestView } from "@seam/shared";
import { HostError } from "../core/errors.js";
import type { Scope } from "../core/scope.js";
import { createApprovalBroker } from "../permissions/broker.js";
import { RUN_REQUEST_KIND } from "./approval-flow.js";
import { findPackage, liveRun, refusal, type ExtensionsContext } from "./context.js";
import { liveView } from "./live-view.js";
import { pageApi } from "./page-api.js";
import { endRun, runPackage } from "./run-lifecycle.js";
import { servicesOf } from "./run-services.js";
import { isLive, runView, type Run } from "./runs.js";
import type { DefineInput, Extensions, ExtensionsOptions } from "./service-types.js";
import { settingsCache } from "./settings.js";
import { checkSyntax, formatSyntaxProblem } from "./syntax.js";

export type { BridgeMessage } from "@seam/shared";
export type { ServiceInfo } from "./run-services.js";
export type * from "./service-types.js";
export { refusal };


/** Dynamic extensions (EXT-1..6): definitions in SQLite, runs in memory, approvals, the browser bridge. */
export function createExtensions(scope: Scope, opts: ExtensionsOptions): Extensions {
  const { extStore, store, registry } = opts;
  const runs: Run[] = [];
  const settings = settingsCache(store);
  const broker = opts.broker ?? createApprovalBroker();
  const live = liveView(scope, {
    extStore, registry, runs, pendingApprovals: () => broker.pending<ApprovalRequestView>(RUN_REQUEST_KIND).map((r) => r.view), getSettings: settings.get,
  });
  scope.add(broker.onChange(() => live.changed()), "approvals:listen");
  const ctx: ExtensionsContext = {
    scope, extStore, store, registry, limits: opts.limits, browserWaitMs: opts.browserWaitMs ?? 5_000, runs, allBridges: new Set(), broker, audit: opts.audit,
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
