import type { ExtensionVersionSource } from "@seam/shared";
import { refusal, type ExtensionsContext } from "./context.js";
import type { Run } from "./runs.js";

export type ApprovedBy = "user" | "grant" | "setting" | "earlier";

/**
 * Decides whether this version may run now (EXT-5): a grant for the package, the host-only setting, or
 * an earlier "allow" by the user let it through; otherwise every open page is asked and the first
 * answer is recorded. Resolves with who allowed it; throws `rejected`, or `cancelled` when the turn ends.
 */
export async function approve(ctx: ExtensionsContext, run: Run, src: ExtensionVersionSource, signal: AbortSignal): Promise<ApprovedBy> {
  const { extStore } = ctx;
  if (await extStore.activeGrant(src.packageId)) {
    await extStore.decide(src.packageId, src.version, "allow", "grant", false);
    ctx.changed(true);
    return "grant";
  }
  if (!src.browserCode && (await ctx.getSettings()).autoApproveHostOnly) {
    await extStore.decide(src.packageId, src.version, "allow", "setting", false);
    ctx.changed(true);
    return "setting";
  }
  if (src.decision?.decision === "allow" && src.decision.by === "user") return "earlier";
  const answer = await ask(ctx, run, src, signal);
  await extStore.decide(src.packageId, src.version, answer.decision, "user", answer.decision === "allow" && answer.allowFuture);
  ctx.changed(true);
  if (answer.decision === "deny") {
    throw refusal("rejected", `The user declined to run ${src.packageName} v${src.version}. Do not run it again unless they ask; consider changing it.`);
  }
  if (answer.allowFuture) await extStore.grant(src.packageId, src.version);
  ctx.changed(true);
  return "user";
}

/** The run request every page sees: the source, diffed against the last approved version. */
async function ask(ctx: ExtensionsContext, run: Run, src: ExtensionVersionSource, signal: AbortSignal) {
  const previous = await ctx.extStore.lastAllowed(src.packageId);
  const session = await ctx.store.sessions.get(run.sessionId);
  return ctx.broker.ask({
    sessionId: run.sessionId,
    sessionTitle: session?.title ?? run.sessionId,
    packageId: src.packageId,
    packageName: src.packageName,
    version: src.version,
    purpose: src.purpose,
    hostCode: src.hostCode,
    browserCode: src.browserCode,
    previous: previous && previous.version !== src.version
      ? { version: previous.version, hostCode: previous.hostCode, browserCode: previous.browserCode }
      : null,
  }, signal);
}
