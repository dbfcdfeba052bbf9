import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { FactItem, WebFetchResult, WebSearchResult } from "@seam/shared";
import type { SecretSource } from "../../src/llm/secrets.js";
import type { FetchProvider, SearchProvider } from "../../src/web/provider.js";
import type { WebSeamDeps } from "../../src/web/web.js";

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => unknown;

export interface Loopback extends AsyncDisposable {
  url: string;
  port: number;
  /** TCP connections accepted so far. */
  connections(): number;
  requests: { method: string; path: string; headers: IncomingMessage["headers"]; body: string }[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records requests and counts connections. */
export async function loopback(handler: Handler): Promise<Loopback> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const requests: Loopback["requests"] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      Promise.resolve(handler(req, res, body)).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  server.on("connection", (s) => {
    connections++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url: `http://127.0.0.1:${port}`, port, connections: () => connections, requests, close, [Symbol.asyncDispose]: close };
}

export function secretsOf(values: Record<string, string>): SecretSource {
  return { get: (name) => (values[name] ? { value: values[name], source: `test ${name}` } : undefined) };
}

/** An in-memory stand-in for the store parts the web seam uses. */
export function memoryStore(initial: Record<string, unknown> = {}) {
  const settings = new Map<string, unknown>(Object.entries(initial));
  const facts: { sessionId: string; turnId: string | null; factKind: string; text: string; payload: unknown; at: number }[] = [];
  let seq = 0;
  const store: WebSeamDeps["store"] = {
    settings: {
      get: async (key) => structuredClone(settings.get(key)),
      set: async (key, value) => {
        if (value === undefined) settings.delete(key);
        else settings.set(key, structuredClone(value));
      },
    },
    items: {
      appendFact: async (sessionId, f) => {
        facts.push({ sessionId, ...f, at: ++seq });
        const item: FactItem = { kind: "fact", id: `f${seq}`, seq, turnId: f.turnId, factKind: f.factKind, text: f.text, payload: f.payload, createdAt: new Date().toISOString() } as FactItem;
        return item;
      },
    },
  };
  return { store, settings, facts };
}

export const neverAborted = (): AbortSignal => new AbortController().signal;

/** A scripted search provider: `available` and the answer are switchable; it records the signals it got. */
export function fakeSearch(id: string, opts: { available?: boolean; sources?: number; answer?: (query: string) => WebSearchResult | Promise<WebSearchResult> } = {}) {
  const calls: { query: string; maxResults: number; signal: AbortSignal }[] = [];
  let available = opts.available ?? true;
  const provider: SearchProvider = {
    id,
    label: id,
    available: () => available,
    describe: () => ({ problem: available ? null : `${id} has no key`, keySource: null, endpoint: null }),
    async search(req, ctx) {
      calls.push({ query: req.query, maxResults: req.maxResults, signal: ctx.signal });
      if (opts.answer) return opts.answer(req.query);
      const n = opts.sources ?? 3;
      return { sources: Array.from({ length: n }, (_, i) => ({ url: `https://${id}.example/${encodeURIComponent(req.query)}/${i + 1}`, title: `${req.query} ${i + 1}` })), truncated: false };
    },
  };
  return { provider, calls, setAvailable: (v: boolean) => { available = v; } };
}

export function fakeFetch(id: string, available = true): FetchProvider {
  return {
    id,
    label: id,
    available: () => available,
    fetch: async (req): Promise<WebFetchResult> => ({ url: req.url, statusCode: 200, body: { kind: "text", content: `from ${id}` }, truncated: false }),
  };
}

/** Resolves after `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
