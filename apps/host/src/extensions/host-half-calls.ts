import { HostError, messageOf } from "../core/errors.js";
import type { HalfContext } from "./host-half-context.js";

export type CallTarget = "tool" | "handle" | "service";

/** Why the bridge refused a result (EXT-3 limits; see README.md). */
export type ResultRefusal = "result_too_deep" | "result_too_large";

/** The worker's answer to one call. */
export type ResultMessage =
  | { t: "result"; id: number; ok: true; value: unknown }
  | { t: "result"; id: number; ok: false; error: string; missing?: boolean; reason?: ResultRefusal };

interface Pending {
  resolve(value: unknown): void;
  reject(error: HostError): void;
  label: string;
}

/**
 * Calls into a host half (its tools, `api.handle` handlers, services it provides): JSON arguments,
 * a per-call timeout that terminates a half that does not answer (EXT-3), cancellation by signal.
 */
export function halfCalls(ctx: HalfContext) {
  const pending = new Map<number, Pending>();
  let nextCallId = 1;

  const invoke = (target: CallTarget, name: string, args: unknown, signal?: AbortSignal, service?: string): Promise<unknown> => {
    if (ctx.life.current !== "running") {
      return Promise.reject(new HostError("closed:extensions", `${ctx.label} is not running (${ctx.life.current}).`, { reason: "not_running" }));
    }
    if (signal?.aborted) return Promise.reject(new HostError("closed:extensions", "The call was cancelled.", { reason: "cancelled" }));
    let json: unknown;
    try {
      json = JSON.parse(JSON.stringify(args ?? null));
    } catch (error) {
      return Promise.reject(new HostError("bad_input:extensions", `The arguments are not JSON: ${messageOf(error)}`));
    }
    const id = nextCallId++;
    const what = target === "tool" ? `tool ${name}` : target === "service" ? `service ${service}.${name}` : `handler ${name}`;
    return new Promise<unknown>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        pending.delete(id);
      };
      const onAbort = () => {
        cleanup();
        reject(new HostError("closed:extensions", `The call to ${what} was cancelled.`, { reason: "cancelled" }));
      };
      const timer = setTimeout(() => {
        cleanup();
        const message = `${what} did not answer within ${ctx.limits.callTimeoutMs} ms; the host half was terminated`;
        reject(new HostError("timeout:extensions", `${ctx.label}: ${message}.`, { reason: "extension_timeout" }));
        ctx.end("limit_exceeded", message);
      }, ctx.limits.callTimeoutMs);
      timer.unref?.();
      signal?.addEventListener("abort", onAbort, { once: true });
      pending.set(id, {
        label: what,
        resolve: (v) => { cleanup(); resolve(v); },
        reject: (e) => { cleanup(); reject(e); },
      });
      ctx.worker.postMessage({ t: "invoke", id, target, name, service, args: json });
    });
  };

  return {
    invoke,
    /** Settles the call a `result` message answers (a late answer finds nothing). */
    settle(m: ResultMessage) {
      const p = pending.get(m.id);
      if (!p) return;
      if (m.ok) p.resolve(m.value);
      else if (m.reason) {
        // Refused at once by the bridge's depth/size limits: the model sees why, the log and the last failure too.
        ctx.life.failure = `${p.label}: ${m.error}`;
        ctx.log(`[limit] ${m.reason}: ${ctx.life.failure}`);
        p.reject(new HostError("bad_input:extensions", `${ctx.label}: ${p.label} returned a result the bridge refuses: ${m.error}. Return less, or flatten it.`, { reason: m.reason }));
      } else if (m.missing) p.reject(new HostError("not_found:extensions", `${ctx.label}: ${m.error}.`, { reason: "not_found" }));
      else p.reject(new HostError("unavailable:extensions", `${p.label} failed: ${m.error}`, { reason: "extension_tool_failed" }));
    },
    /** Rejects every call still waiting (the half ended). */
    rejectAll(reason: HostError) {
      for (const p of pending.values()) p.reject(reason);
      pending.clear();
    },
  };
}
