import { messageOf } from "../core/errors.js";
import type { Disposer } from "../core/scope.js";
import type { HalfContext } from "./host-half-context.js";
import type { Outbound } from "./host-half-types.js";

/** What a host half sends out: browser-half messages (queued, bounded, until taken) and events, to every listener. */
export function halfOutbound(ctx: HalfContext) {
  const sent: unknown[] = [];
  const listeners = new Set<{ fn: (m: Outbound) => void }>();

  const deliver = (m: Outbound) => {
    for (const { fn } of [...listeners]) {
      try {
        fn(m);
      } catch (error) {
        ctx.log(`[host] an outbound listener failed: ${messageOf(error)}`);
      }
    }
  };

  return {
    send(message: unknown) {
      sent.push(message);
      if (sent.length > ctx.limits.maxQueuedSends) sent.splice(0, sent.length - ctx.limits.maxQueuedSends);
      deliver({ kind: "send", message });
    },
    emit: (name: string, payload: unknown) => deliver({ kind: "emit", name, payload }),
    takeSent: () => sent.splice(0),
    onOutbound(fn: (message: Outbound) => void): Disposer {
      const entry = { fn };
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
  };
}
