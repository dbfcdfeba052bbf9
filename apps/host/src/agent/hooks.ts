import type { FactItem } from "@seam/shared";
import type { Disposer } from "../core/scope.js";

/** What a pre-step hook may see and do before a model step (CORE-13: e.g. the skills catalog, SKL-6). */
export interface StepContext {
  sessionId: string;
  workspace: string;
  turnId: string;
  /** 1-based step number within the turn. */
  step: number;
  signal: AbortSignal;
  /** Appends a durable fact to the session's history; the model sees `text` from this step on. */
  appendFact(fact: { factKind: string; text: string; payload: unknown }): Promise<FactItem>;
}

export type StepHook = (ctx: StepContext) => Promise<void> | void;

export interface StepHooks {
  /** Hooks run in registration order; one hook's failure is reported and does not stop the others. */
  add(label: string, hook: StepHook): Disposer;
  run(ctx: StepContext, onError: (label: string, error: unknown) => void): Promise<void>;
}

export function createStepHooks(): StepHooks {
  const hooks: { label: string; hook: StepHook }[] = [];
  return {
    add(label, hook) {
      const entry = { label, hook };
      hooks.push(entry);
      return () => {
        const i = hooks.indexOf(entry);
        if (i >= 0) hooks.splice(i, 1);
      };
    },
    async run(ctx, onError) {
      for (const { label, hook } of [...hooks]) {
        if (ctx.signal.aborted) return;
        try {
          await hook(ctx);
        } catch (error) {
          onError(label, error);
        }
      }
    },
  };
}
