import { randomUUID } from "node:crypto";
import { HostError, type Capability } from "../core/errors.js";
import type { Disposer } from "../core/scope.js";
import { createLog } from "../core/log.js";

const log = createLog("approvals");

/** Who is asked about what: the capability that owns the request and how a person would name it. */
export interface RequestAbout {
  /** Error codes are `<kind>:<capability>` (e.g. conflict:extensions). */
  capability: Capability;
  /** "run request", "approval request". */
  noun: string;
}

/** A request as every page sees it: its kind, its session and what the card shows. */
export interface PendingRequest<V = unknown> {
  id: string;
  kind: string;
  sessionId: string;
  requestedAt: string;
  view: V;
}

/**
 * One approval machinery (PERM-3, EXT-5): pending requests of every kind (tool calls, extension runs).
 * Every page sees the same list; the first answer settles a request and removes it for everyone, a later
 * answer is refused as `already_answered`. A request nobody answers waits until its signal aborts (the
 * turn was stopped or ended), then it is withdrawn.
 */
export interface ApprovalBroker {
  /** `view(id, requestedAt)` builds what the card shows once the id is known. */
  ask<V, A>(request: { kind: string; sessionId: string; about: RequestAbout; view(id: string, requestedAt: string): V }, signal: AbortSignal): Promise<A>;
  pending<V = unknown>(kind?: string): PendingRequest<V>[];
  /** Settles request `id` with `answer`. not_found for an unknown id, conflict once another answer won or it was withdrawn. */
  answer(id: string, answer: unknown, about: RequestAbout): void;
  /** The kind of a pending request, or undefined. */
  kindOf(id: string): string | undefined;
  /** Withdraws every pending request of a session (it was deleted), as cancelled. */
  withdrawSession(sessionId: string): void;
  /** Fires after every change of the pending list. */
  onChange(fn: () => void): Disposer;
}

interface Entry {
  request: PendingRequest;
  about: RequestAbout;
  settle(answer: unknown, withdrawn: HostError | null): void;
}

/** How many settled request ids are remembered to tell a late answer from an unknown id. */
const SETTLED_MEMORY = 500;

export function createApprovalBroker(opts: { now?: () => Date } = {}): ApprovalBroker {
  const now = opts.now ?? (() => new Date());
  const open = new Map<string, Entry>();
  const settled = new Map<string, "answered" | "withdrawn">();
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const fn of [...listeners]) {
      try {
        fn();
      } catch (error) {
        log.error("a change listener failed", { error });
      }
    }
  };

  const remember = (id: string, how: "answered" | "withdrawn") => {
    settled.set(id, how);
    if (settled.size > SETTLED_MEMORY) settled.delete(settled.keys().next().value as string);
  };

  const cancelled = (about: RequestAbout) =>
    new HostError(`closed:${about.capability}`, `The ${about.noun} was withdrawn: the turn ended before anyone answered.`, { reason: "cancelled" });

  return {
    ask<V, A>(request: { kind: string; sessionId: string; about: RequestAbout; view(id: string, requestedAt: string): V }, signal: AbortSignal) {
      if (signal.aborted) return Promise.reject(cancelled(request.about));
      const id = randomUUID();
      const requestedAt = now().toISOString();
      return new Promise<A>((resolve, reject) => {
        const onAbort = () => finish(null, cancelled(request.about));
        const finish = (answer: unknown, withdrawn: HostError | null) => {
          if (!open.delete(id)) return;
          signal.removeEventListener("abort", onAbort);
          remember(id, withdrawn ? "withdrawn" : "answered");
          changed();
          if (withdrawn) reject(withdrawn);
          else resolve(answer as A);
        };
        open.set(id, {
          request: { id, kind: request.kind, sessionId: request.sessionId, requestedAt, view: request.view(id, requestedAt) },
          about: request.about,
          settle: finish,
        });
        signal.addEventListener("abort", onAbort, { once: true });
        changed();
      });
    },
    pending<V>(kind?: string) {
      return [...open.values()].map((e) => e.request as PendingRequest<V>).filter((r) => kind === undefined || r.kind === kind);
    },
    answer(id, answer, about) {
      const entry = open.get(id);
      if (entry) return entry.settle(answer, null);
      const how = settled.get(id);
      if (how === "answered") throw new HostError(`conflict:${about.capability}`, `This ${about.noun} was already answered, on this or another page.`, { reason: "already_answered" });
      if (how === "withdrawn") throw new HostError(`conflict:${about.capability}`, `This ${about.noun} was withdrawn: its turn ended before anyone answered.`, { reason: "withdrawn" });
      throw new HostError(`not_found:${about.capability}`, `No such ${about.noun}.`, { reason: "not_found" });
    },
    kindOf: (id) => open.get(id)?.request.kind,
    withdrawSession(sessionId) {
      for (const entry of [...open.values()]) if (entry.request.sessionId === sessionId) entry.settle(null, cancelled(entry.about));
    },
    onChange(fn) {
      const entry = () => fn();
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
  };
}
