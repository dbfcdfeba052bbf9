import { ExtensionSettings } from "@seam/shared";
import { HostError } from "../core/errors.js";
import { RUN_REQUEST } from "./approval-flow.js";
import { bridgeMessages } from "./bridge.js";
import { refusal, runOf, type ExtensionsContext } from "./context.js";
import type { LiveView } from "./live-view.js";
import { endRun } from "./run-lifecycle.js";
import { isLive } from "./runs.js";
import type { Extensions } from "./service-types.js";

/** What the extensions page calls (EXT-4..6): the live view, approvals and grants, runs, the browser-half bridge. */
export function pageApi(ctx: ExtensionsContext, live: LiveView): Extensions["api"] {
  const { extStore, runs } = ctx;
  return {
    snapshot: live.snapshot,
    events: live.events,
    source: (input) => extStore.source(input.packageId, input.version),
    answer: async (input) => ctx.broker.answer(input.id, { decision: input.decision, allowFuture: input.allowFuture ?? false }, RUN_REQUEST),
    async revokeGrant(input) {
      if (!(await extStore.revoke(input.packageId))) {
        throw new HostError("not_found:extensions", "This package has no active grant.", { reason: "no_grant" });
      }
      ctx.changed(true);
    },
    async stop(input) {
      const run = runOf(runs, input.runId);
      if (!isLive(run)) throw refusal("not_running", `${run.packageName} v${run.version} is not running.`);
      await endRun(ctx, run, "stopped", null);
    },
    async call(input) {
      const run = runOf(runs, input.runId);
      if (run.state !== "running") throw refusal("not_running", `${run.packageName} v${run.version} is not running.`);
      if (!run.half) throw new HostError("not_found:extensions", `${run.packageName} v${run.version} has no host half to call.`, { reason: "not_found" });
      return run.half.request(input.method, input.params);
    },
    bridge: (signal, runId) => bridgeMessages(ctx, signal, runId === undefined ? undefined : runOf(runs, runId)),
    async reportBrowser(input) {
      const run = runOf(runs, input.runId);
      if (!run.hasBrowser || !isLive(run)) return;
      if (input.ok) {
        if (run.browser !== "failed") run.browser = "rendered";
      } else {
        run.browser = "failed";
        run.browserFailure = (input.message ?? "the browser half failed to render").slice(0, 2_000);
      }
      run.settleBrowser();
      ctx.changed();
    },
    async setSettings(input) {
      const next = ExtensionSettings.parse(input);
      await ctx.setSettings(next);
      ctx.changed();
      return next;
    },
  };
}
