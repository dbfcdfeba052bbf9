import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { hostUrl } from "@/env";

/**
 * Same-origin proxy from the browser to the host's tRPC endpoint (CORE-1). The host URL is read at
 * request time (SEAM_HOST_URL), unlike next.config rewrites which are fixed at build time. Bodies
 * stream both ways, so SSE subscriptions arrive unbuffered.
 *
 * node:http rather than fetch: when the browser goes away (request.signal aborts) the upstream
 * socket is destroyed at once. Node 20's fetch only drops an aborted response's socket when the
 * next chunk arrives, which for an idle SSE stream is the next ping.
 */
export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const FORWARD_REQUEST = ["content-type", "cookie", "origin", "authorization", "last-event-id", "accept", "trpc-accept"];
const FORWARD_RESPONSE = ["content-type", "cache-control"];

function unreachable(base: string): Response {
  return Response.json(
    { error: { message: `Seam host is not reachable at ${base}. Start it with \`npm start\`.` } },
    { status: 502, headers: { "cache-control": "no-store" } },
  );
}

/**
 * The upstream body as a web stream, with backpressure. If the host goes away mid-stream (killed,
 * restarted), an event stream just ends — EventSource reconnects on its own — instead of surfacing
 * as an unhandled pipe error; other bodies error as usual.
 */
function bodyOf(res: IncomingMessage, endQuietly: boolean): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const finish = (err?: Error) => {
        if (done) return;
        done = true;
        if (err && !endQuietly) controller.error(err);
        else controller.close();
      };
      res.on("data", (chunk: Buffer) => {
        if (done) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 1) <= 0) res.pause();
      });
      res.on("end", () => finish());
      res.on("error", (err) => finish(err));
      res.on("close", () => finish(res.complete ? undefined : new Error("host closed the connection")));
    },
    pull() {
      res.resume();
    },
    cancel() {
      done = true;
      res.destroy();
    },
  });
}

function proxy(request: Request): Promise<Response> {
  const base = hostUrl();
  const incoming = new URL(request.url);
  const target = new URL(`${base}${incoming.pathname}${incoming.search}`);

  const headers: Record<string, string> = {};
  for (const name of FORWARD_REQUEST) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== null;
  if (!hasBody) headers["content-length"] = "0";

  return new Promise<Response>((resolve) => {
    let settled = false;
    const settle = (r: Response) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const upstream = send(target, { method: request.method, headers }, (res: IncomingMessage) => {
      const out = new Headers();
      for (const name of FORWARD_RESPONSE) {
        const value = res.headers[name];
        if (typeof value === "string") out.set(name, value);
      }
      const sse = out.get("content-type")?.startsWith("text/event-stream") ?? false;
      if (sse) out.set("x-accel-buffering", "no");
      const body = request.method === "HEAD" ? null : bodyOf(res, sse);
      settle(new Response(body, { status: res.statusCode ?? 502, statusText: res.statusMessage, headers: out }));
    });

    upstream.on("error", (err: NodeJS.ErrnoException) => {
      if (request.signal.aborted) return settle(new Response(null, { status: 499 }));
      if (!settled) console.error(`[seam-web] host not reachable at ${base}: ${err.code ?? err.message}`);
      settle(unreachable(base));
    });

    const abort = () => upstream.destroy();
    if (request.signal.aborted) abort();
    else request.signal.addEventListener("abort", abort, { once: true });
    upstream.on("close", () => request.signal.removeEventListener("abort", abort));

    if (hasBody && request.body) {
      Readable.fromWeb(request.body as unknown as NodeWebStream<Uint8Array>).pipe(upstream);
    } else {
      upstream.end();
    }
  });
}

export const GET = proxy;
export const POST = proxy;
export const PUT = proxy;
export const PATCH = proxy;
export const DELETE = proxy;
export const OPTIONS = proxy;
export const HEAD = proxy;
