import { hostUrl } from "@/env";

/**
 * Same-origin proxy from the browser to the host's tRPC endpoint (CORE-1). The host URL is read at
 * request time (SEAM_HOST_URL), unlike next.config rewrites which are fixed at build time. Bodies
 * stream both ways, so SSE subscriptions arrive unbuffered.
 */
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const FORWARD_REQUEST = ["content-type", "cookie", "origin", "authorization", "last-event-id", "accept", "trpc-accept"];
const FORWARD_RESPONSE = ["content-type", "cache-control"];

async function proxy(request: Request): Promise<Response> {
  const base = hostUrl();
  const incoming = new URL(request.url);
  const target = `${base}${incoming.pathname}${incoming.search}`;

  const headers = new Headers();
  for (const name of FORWARD_REQUEST) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }

  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  let upstream: Response;
  try {
    upstream = await fetch(target, {
      method: request.method,
      headers,
      body: hasBody ? request.body : undefined,
      // Node's fetch needs this to stream a request body.
      ...(hasBody ? { duplex: "half" } : {}),
      signal: request.signal,
      redirect: "manual",
      cache: "no-store",
    } as RequestInit);
  } catch (err) {
    if (request.signal.aborted) return new Response(null, { status: 499 });
    console.error(`[seam-web] host not reachable at ${base}: ${(err as Error).cause ?? err}`);
    return Response.json(
      { error: { message: `Seam host is not reachable at ${base}. Start it with \`npm start\`.` } },
      { status: 502, headers: { "cache-control": "no-store" } },
    );
  }

  const out = new Headers();
  for (const name of FORWARD_RESPONSE) {
    const value = upstream.headers.get(name);
    if (value !== null) out.set(name, value);
  }
  if (out.get("content-type")?.startsWith("text/event-stream")) out.set("x-accel-buffering", "no");
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: out });
}

export const GET = proxy;
export const POST = proxy;
export const PUT = proxy;
export const PATCH = proxy;
export const DELETE = proxy;
export const OPTIONS = proxy;
