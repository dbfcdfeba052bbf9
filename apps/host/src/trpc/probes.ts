import type { IncomingMessage, ServerResponse } from "node:http";
import type { HostApi } from "../host-api.js";

/**
 * `GET /healthz` (liveness) and `GET /readyz` (readiness) for load balancers and orchestrators (SCALE-4).
 * No token, and no Host or Origin check: probes come with whatever Host the prober uses (a pod IP, a
 * balancer's address), and the answers carry no data — `{"status":"ok"}` or
 * `{"status":"unavailable","reason":"<fixed phrase>"}` — so there is nothing for a rebinding page to read.
 * `HEAD` answers the same status without a body; any other method is 405.
 */
export const PROBE_PATHS = ["/healthz", "/readyz"] as const;
type ProbePath = (typeof PROBE_PATHS)[number];

/** The probe a request's URL names (query ignored), or null. */
export function probePath(url: string | undefined): ProbePath | null {
  const path = (url ?? "").split("?", 1)[0];
  return (PROBE_PATHS as readonly string[]).includes(path!) ? (path as ProbePath) : null;
}

const HEADERS = { "content-type": "application/json", "cache-control": "no-store", "x-content-type-options": "nosniff" };

export async function serveProbe(path: ProbePath, req: IncomingMessage, res: ServerResponse, host: Pick<HostApi, "ready">): Promise<void> {
  const send = (status: number, body: Record<string, string>, extra: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { ...HEADERS, ...extra, "content-length": String(Buffer.byteLength(text)) });
    res.end(req.method === "HEAD" ? undefined : text);
  };
  // The request body (if any) is not read: drain it so the connection can be reused.
  req.resume();
  if (req.method !== "GET" && req.method !== "HEAD") {
    send(405, { status: "error", reason: "method not allowed; use GET or HEAD" }, { allow: "GET, HEAD" });
    return;
  }
  if (path === "/healthz") {
    send(200, { status: "ok" });
    return;
  }
  let ready: Awaited<ReturnType<HostApi["ready"]>>;
  try {
    ready = await host.ready();
  } catch {
    ready = { ok: false, reason: "database unreachable" };
  }
  if (ready.ok) send(200, { status: "ok" });
  else send(503, { status: "unavailable", reason: ready.reason });
}
