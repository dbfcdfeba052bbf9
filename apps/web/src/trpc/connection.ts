"use client";
import { useSyncExternalStore } from "react";

/**
 * Whether the browser can talk to the host through the /trpc proxy. Set by `trackingFetch` from the
 * HTTP status of every tRPC response, read by the connection gate in the app shell.
 */
export type Connection =
  | { state: "unknown" | "ok" }
  | { state: "unauthorized" | "unreachable" | "refused"; message: string; status: number };

let current: Connection = { state: "unknown" };
const listeners = new Set<() => void>();

export function setConnection(next: Connection): void {
  if (next.state === current.state && (next as { message?: string }).message === (current as { message?: string }).message) return;
  current = next;
  for (const l of listeners) l();
}

export function useConnection(): Connection {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
    () => current,
  );
}

/** Problems that are about the link to the host, not about one request: they switch the whole UI. */
const linkStatuses: Record<number, Exclude<Connection["state"], "unknown" | "ok">> = {
  401: "unauthorized",
  403: "refused",
  421: "refused",
  502: "unreachable",
  503: "unreachable",
  504: "unreachable",
};

/**
 * fetch for the tRPC links. Host refusals (401/403/421 from the auth gate) and proxy failures (502)
 * come back as `{error:{message}}` without tRPC's `error.data`, which tells them apart from ordinary
 * procedure errors that happen to use the same status codes.
 */
export const trackingFetch: typeof fetch = async (input, init) => {
  let res: Response;
  try {
    res = await fetch(input, init);
  } catch (err) {
    if (!(init?.signal?.aborted ?? false)) {
      setConnection({ state: "unreachable", status: 0, message: "The Seam web server did not answer." });
    }
    throw err;
  }
  const kind = linkStatuses[res.status];
  if (kind) {
    const body = (await res.clone().json().catch(() => null)) as { error?: { message?: unknown; data?: unknown } } | null;
    const isProcedureError = Array.isArray(body) || (body?.error !== undefined && body.error.data !== undefined);
    if (!isProcedureError) {
      const message = typeof body?.error?.message === "string" ? body.error.message : `HTTP ${res.status}`;
      setConnection({ state: kind, status: res.status, message });
      return res;
    }
  }
  setConnection({ state: "ok" });
  return res;
};
