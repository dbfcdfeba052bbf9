import type { BridgeMessage } from "@seam/shared";
import { iterateEvents } from "../core/events.js";
import type { ExtensionsContext } from "./context.js";
import type { Run } from "./runs.js";

/** Host → browser messages one bridge stream keeps for a slow reader. */
const BRIDGE_QUEUE_MAX = 1_000;

export type { BridgeMessage };

/**
 * Host → browser messages as `{ runId, message }`: of one run (ending with it), or of every run (one
 * stream per page, so frames don't each hold a connection). A slow reader loses the oldest first.
 */
export function bridgeMessages(ctx: ExtensionsContext, signal: AbortSignal, run?: Run): AsyncIterable<BridgeMessage> {
  const until = AbortSignal.any([signal, run ? run.scope.signal : ctx.scope.signal]);
  return iterateEvents<BridgeMessage>((fn) => {
    if (!run) {
      const all = (runId: string, message: unknown) => void fn({ runId, message });
      ctx.allBridges.add(all);
      return () => void ctx.allBridges.delete(all);
    }
    const one = (message: unknown) => void fn({ runId: run.id, message });
    run.bridges.add(one);
    return () => void run.bridges.delete(one);
  }, until, BRIDGE_QUEUE_MAX);
}
