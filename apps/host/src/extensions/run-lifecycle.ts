import type { ExtensionVersionSource } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import { approve, type ApprovedBy } from "./approval-flow.js";
import { emitToSession, findPackage, liveRun, refusal, type ExtensionsContext } from "./context.js";
import { servicesFor } from "./run-services.js";
import { startHostHalf } from "./runner.js";
import { createRun, isLive, type Run } from "./runs.js";
import type { RunResult } from "./service-types.js";
import { createLog } from "../core/log.js";

const log = createLog("extensions");

/** Ended runs kept for the extensions page. */
const ENDED_RUNS_KEPT = 50;

/**
 * One run from request to running (EXT-1, EXT-5): approval, then the host half in its worker, then the
 * browser half in an open page. A package runs once per session: a new run replaces the current one.
 */
export async function runPackage(ctx: ExtensionsContext, sessionId: string, input: { name: string; version?: number }, signal: AbortSignal): Promise<RunResult> {
  const pkg = await findPackage(ctx, sessionId, input.name);
  const latest = pkg.versions.at(-1)?.version ?? 0;
  const version = input.version ?? latest;
  if (!pkg.versions.some((v) => v.version === version)) {
    throw refusal("definition_missing", `${input.name} has no version ${version}; its versions are 1–${latest}.`, { name: input.name });
  }
  const src = await ctx.extStore.source(pkg.id, version);
  const run = createRun(ctx.scope, {
    sessionId, packageId: pkg.id, packageName: pkg.name, version, hasHost: src.hostCode !== null, hasBrowser: src.browserCode !== null,
  });
  ctx.runs.push(run);
  ctx.changed();
  const approvedBy = await approveOrEnd(ctx, run, src, signal);
  const current = liveRun(ctx.runs, sessionId, pkg.id);
  if (current && current !== run) await endRun(ctx, current, "stopped", null);
  run.state = "starting";
  ctx.changed();
  if (src.hostCode) await startHost(ctx, run, src.hostCode);
  if (!isLive(run)) throw refusal("host_half_failed", run.failure ?? "The host half stopped right after it started.");
  run.state = "running";
  emitToSession(ctx.runs, run, "extension.started", { name: pkg.name, version });
  ctx.changed();
  const browser = src.browserCode ? await waitForBrowser(ctx, run, signal) : "none";
  return { name: pkg.name, version, runId: run.id, state: "running", tools: run.half?.tools() ?? [], browser, approvedBy };
}

/** Approval; a refusal, or the turn ending meanwhile, ends the run. */
async function approveOrEnd(ctx: ExtensionsContext, run: Run, src: ExtensionVersionSource, signal: AbortSignal): Promise<ApprovedBy> {
  let approvedBy: ApprovedBy;
  try {
    approvedBy = await approve(ctx, run, src, signal);
  } catch (error) {
    const reason = error instanceof HostError ? error.data?.reason : undefined;
    await endRun(ctx, run, reason === "rejected" ? "rejected" : "cancelled", messageOf(error));
    throw error instanceof HostError ? error : refusal("cancelled", messageOf(error));
  }
  if (signal.aborted) {
    await endRun(ctx, run, "cancelled", "the turn ended");
    throw refusal("cancelled", "The turn ended before the extension started.");
  }
  return approvedBy;
}

/** Leaves a live state once: disposes the host half and everything it registered. */
export async function endRun(ctx: ExtensionsContext, run: Run, state: Run["state"], failure: string | null) {
  if (!isLive(run)) return;
  run.state = state;
  run.failure = failure ?? run.failure;
  run.endedAt = new Date();
  run.settleBrowser();
  emitToSession(ctx.runs, run, "extension.stopped", { name: run.packageName, version: run.version, state });
  ctx.changed();
  await run.scope.dispose().catch((error: unknown) => log.error(`disposing ${run.packageName}@${run.version}: ${messageOf(error)}`));
  // Keep the ended runs the page shows bounded.
  const ended = ctx.runs.filter((r) => !isLive(r));
  for (const old of ended.slice(0, Math.max(0, ended.length - ENDED_RUNS_KEPT))) ctx.runs.splice(ctx.runs.indexOf(old), 1);
  ctx.changed();
}

/** Starts the host half (EXT-3); its exit ends the run, its messages reach the bridges and its session's extensions. */
async function startHost(ctx: ExtensionsContext, run: Run, code: string) {
  try {
    run.half = await startHostHalf(run.scope, {
      sessionId: run.sessionId, packageName: run.packageName, version: String(run.version), code, registry: ctx.registry, limits: ctx.limits,
      services: servicesFor(ctx, run),
    });
  } catch (error) {
    const state = error instanceof HostError && error.data?.state === "limit_exceeded" ? "limit_exceeded" : "crashed";
    await endRun(ctx, run, state, messageOf(error));
    throw refusal("host_half_failed", `${messageOf(error)}. Fix the host half and define a new version.`, { state });
  }
  const half = run.half;
  void half.exited.then((state) => endRun(ctx, run, state, half.lastFailure()));
  half.onOutbound((m) => {
    if (m.kind === "send") {
      for (const deliver of [...run.bridges]) deliver(m.message);
      for (const deliver of [...ctx.allBridges]) deliver(run.id, m.message);
      return;
    }
    // Events reach the other extensions running in the same session.
    emitToSession(ctx.runs, run, m.name, m.payload);
  });
}

/** Waits (bounded) for an open page to render the browser half (EXT-4); a failed render ends the run. */
async function waitForBrowser(ctx: ExtensionsContext, run: Run, signal: AbortSignal): Promise<RunResult["browser"]> {
  // Without an open page nobody can render it now; it renders when the user opens one.
  if (ctx.watchers() === 0) return "pending";
  const gaveUp = new AbortController();
  const timer = setTimeout(() => gaveUp.abort(), ctx.browserWaitMs);
  const stop = AbortSignal.any([signal, gaveUp.signal]);
  await Promise.race([run.browserSettled, new Promise<void>((resolve) => stop.addEventListener("abort", () => resolve(), { once: true }))]);
  clearTimeout(timer);
  if (run.browser === "failed") {
    await endRun(ctx, run, "crashed", `browser half: ${run.browserFailure}`);
    throw refusal("browser_half_failed", `The browser half failed to render: ${run.browserFailure}. Fix it and define a new version.`);
  }
  return run.browser === "rendered" ? "rendered" : "pending";
}
