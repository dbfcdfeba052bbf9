import { randomUUID } from "node:crypto";
import type { ApprovalRequestView } from "@seam/shared";
import { HostError } from "../core/errors.js";

export interface ApprovalAnswer { decision: "allow" | "deny"; allowFuture: boolean }

export type ApprovalRequest = Omit<ApprovalRequestView, "id" | "requestedAt">;

/**
 * Pending run requests (EXT-5). Every page sees the same list; the first answer settles a request
 * and removes it for everyone, a later answer is refused as `already_answered`. A request nobody
 * answers waits until its signal aborts (the turn was cancelled), then it is withdrawn.
 */
export interface ApprovalBroker {
  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  pending(): ApprovalRequestView[];
  /** not_found:extensions for an unknown id, conflict:extensions once another answer won. */
  answer(id: string, answer: ApprovalAnswer): void;
  /** Withdraws every pending request of a session (it was deleted), as cancelled. */
  withdrawSession(sessionId: string): void;
}

interface Entry {
  view: ApprovalRequestView;
  settle(answer: ApprovalAnswer | HostError): void;
}

/** How many settled request ids are remembered to tell a late answer from an unknown id. */
const SETTLED_MEMORY = 500;

export function createApprovalBroker(opts: { onChange: () => void; now?: () => Date }): ApprovalBroker {
  const now = opts.now ?? (() => new Date());
  const open = new Map<string, Entry>();
  const settled = new Map<string, "answered" | "withdrawn">();

  const remember = (id: string, how: "answered" | "withdrawn") => {
    settled.set(id, how);
    if (settled.size > SETTLED_MEMORY) settled.delete(settled.keys().next().value as string);
  };

  const cancelled = () =>
    new HostError("closed:extensions", "The run request was withdrawn: the turn ended before anyone answered.", { reason: "cancelled" });

  return {
    ask(request, signal) {
      if (signal.aborted) return Promise.reject(cancelled());
      const id = randomUUID();
      return new Promise<ApprovalAnswer>((resolve, reject) => {
        const onAbort = () => finish("withdrawn", cancelled());
        const finish = (how: "answered" | "withdrawn", outcome: ApprovalAnswer | HostError) => {
          if (!open.delete(id)) return;
          signal.removeEventListener("abort", onAbort);
          remember(id, how);
          opts.onChange();
          if (outcome instanceof HostError) reject(outcome);
          else resolve(outcome);
        };
        open.set(id, {
          view: { ...request, id, requestedAt: now().toISOString() },
          settle: (outcome) => finish(outcome instanceof HostError ? "withdrawn" : "answered", outcome),
        });
        signal.addEventListener("abort", onAbort, { once: true });
        opts.onChange();
      });
    },
    pending: () => [...open.values()].map((e) => e.view),
    answer(id, answer) {
      const entry = open.get(id);
      if (entry) return entry.settle(answer);
      const how = settled.get(id);
      if (how === "answered") throw new HostError("conflict:extensions", "This run request was already answered, on this or another page.", { reason: "already_answered" });
      if (how === "withdrawn") throw new HostError("conflict:extensions", "This run request was withdrawn: its turn ended before anyone answered.", { reason: "withdrawn" });
      throw new HostError("not_found:extensions", "No such run request.", { reason: "not_found" });
    },
    withdrawSession(sessionId) {
      for (const entry of [...open.values()]) if (entry.view.sessionId === sessionId) entry.settle(cancelled());
    },
  };
}
