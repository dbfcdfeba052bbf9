import type { ApprovalRequestView, ExtensionVersionSource } from "@seam/shared";
import { messageOf } from "../core/errors.js";
import { refusal, type ExtensionsContext, type RunDecision } from "./context.js";
import type { Run } from "./runs.js";
import { createLog } from "../core/log.js";

const log = createLog("extensions");

export type ApprovedBy = "user" | "grant" | "setting" | "earlier";

export interface ApprovalAnswer { decision: "allow" | "deny"; allowFuture: boolean }

/** How the shared approval machinery names extension run requests (PERM-3, EXT-5). */
export const RUN_REQUEST = { capability: "extensions", noun: "run request" } as const;
export const RUN_REQUEST_KIND = "extension_run";

/**
 * Decides whether this version may run now (EXT-5): a grant for the package, the host-only setting, or
 * an earlier "allow" by the user let it through; otherwise every open page is asked and the first
 * answer is recorded. Resolves with who allowed it; throws `rejected`, or `cancelled` when the turn ends.
 */
export async function approve(ctx: ExtensionsContext, run: Run, src: ExtensionVersionSource, signal: AbortSignal): Promise<ApprovedBy> {
  const { extStore } = ctx;
  const requestedAt = new Date();
  const audit = (decision: RunDecision["decision"], by: RunDecision["by"], allowFuture = false) =>
    ctx.audit?.({ sessionId: run.sessionId, packageName: src.packageName, version: src.version, decision, by, allowFuture, requestedAt })
      .catch((error: unknown) => log.error(`could not record the run decision in the audit log: ${messageOf(error)}`));
  if (await extStore.activeGrant(src.packageId)) {
    await extStore.decide(src.packageId, src.version, "allow", "grant", false);
    ctx.changed(true);
    await audit("allow", "grant");
    return "grant";
  }
  if (!src.browserCode && (await ctx.getSettings()).autoApproveHostOnly) {
    await extStore.decide(src.packageId, src.version, "allow", "setting", false);
    ctx.changed(true);
    await audit("allow", "setting");
    return "setting";
  }
  if (src.decision?.decision === "allow" && src.decision.by === "user") {
    await audit("allow", "earlier");
    return "earlier";
  }
  let answer: ApprovalAnswer;
  try {
    answer = await ask(ctx, run, src, signal);
  } catch (error) {
    await audit("withdrawn", "turn_ended");
    throw error;
  }
  await extStore.decide(src.packageId, src.version, answer.decision, "user", answer.decision === "allow" && answer.allowFuture);
  ctx.changed(true);
  await audit(answer.decision, "user", answer.decision === "allow" && answer.allowFuture);
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
  const view: Omit<ApprovalRequestView, "id" | "requestedAt"> = {
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
  };
  return ctx.broker.ask<ApprovalRequestView, ApprovalAnswer>({
    kind: RUN_REQUEST_KIND,
    sessionId: run.sessionId,
    about: RUN_REQUEST,
    view: (id, requestedAt) => ({ ...view, id, requestedAt }),
  }, signal);
}
