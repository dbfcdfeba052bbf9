/**
 * Host overhead per streamed delta (SPEC §9): the time from the scripted model writing a chunk to an SSE
 * client receiving it, through Seam (OpenAI-compatible adapter → agent loop → session bus → tRPC SSE)
 * versus a raw SSE relay (fetch the same stream, forward each chunk) measured in the same run.
 * Prints p50/p99 of both and the ratio. No assertion: it reports.
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { EventSource } from "eventsource";
import { startScriptedModel } from "../packages/testkit/src/index.js";
import { createScope } from "../apps/host/src/core/scope.js";
import { createHost } from "../apps/host/src/host.js";
import { loadHostToken, loopbackPolicy } from "../apps/host/src/trpc/auth.js";
import { serveTrpc } from "../apps/host/src/trpc/server.js";
import type { AppRouter } from "../apps/host/src/trpc/root.js";
import { ms, percentile } from "./stats.js";

const DELTAS = Number(process.env.BENCH_DELTAS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const GAP_MS = 3;

const sent = new Map<string, number>();
const chunk = (k: number) => `«${k}» `;
const model = await startScriptedModel({
  scripts: [{ name: "bench", turns: [{ match: "bench", steps: [{ text: Array.from({ length: DELTAS }, (_, k) => chunk(k)), delayMs: GAP_MS }] }] }],
  onText: (text: string) => sent.set(text, performance.now()),
});

const latencies = (received: Map<string, number>) =>
  [...received].flatMap(([text, at]) => (sent.has(text) ? [at - sent.get(text)!] : []));

/** Baseline: the thinnest possible relay from the model's SSE stream to an SSE client. */
async function runRelay(): Promise<number[]> {
  const server: Server = createServer(async (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const upstream = await fetch(`${model.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "bench" }] }),
    });
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const bytes of upstream.body!) {
      buffer += decoder.decode(bytes, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const line = buffer.slice(0, end).replace(/^data: /, "");
        buffer = buffer.slice(end + 2);
        if (line === "[DONE]") continue;
        const text = JSON.parse(line).choices?.[0]?.delta?.content;
        if (text) res.write(`data: ${JSON.stringify(text)}\n\n`);
      }
    }
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const received = new Map<string, number>();
  await new Promise<void>((resolve) => {
    const es = new EventSource(`http://127.0.0.1:${port}/`);
    es.onmessage = (e) => {
      received.set(JSON.parse(e.data), performance.now());
      if (received.size === DELTAS) {
        es.close();
        resolve();
      }
    };
  });
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  return latencies(received);
}

/** Seam: a real host in this process, a tRPC SSE subscription as the client. */
async function runSeam(): Promise<number[]> {
  const home = mkdtempSync(join(tmpdir(), "seam-bench-"));
  const scope = createScope("bench");
  try {
    const host = await createHost(scope, {
      home, version: "bench",
      env: { SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL_BASE_URL: model.baseURL, SEAM_MODEL: "bench" },
    });
    const token = loadHostToken(home);
    const policy = loopbackPolicy(token, []);
    const { port } = await serveTrpc(scope, { host, policy, bind: "127.0.0.1", port: 0 });
    policy.hosts.add(`127.0.0.1:${port}`);
    const url = `http://127.0.0.1:${port}/trpc`;
    const headers = { authorization: `Bearer ${token}` };
    const client = createTRPCClient<AppRouter>({
      links: [splitLink({
        condition: (op) => op.type === "subscription",
        true: httpSubscriptionLink({
          url,
          EventSource: class extends EventSource {
            constructor(u: string | URL, init?: ConstructorParameters<typeof EventSource>[1]) {
              super(u, { ...init, fetch: (input, i) => fetch(input, { ...i, headers: { ...i?.headers, ...headers } }) });
            }
          },
        }),
        false: httpBatchLink({ url, headers }),
      })],
    });
    const workspace = mkdtempSync(join(tmpdir(), "seam-bench-ws-"));
    const session = await client.session.create.mutate({ workspace, title: "bench" });
    const received = new Map<string, number>();
    await new Promise<void>((resolve, reject) => {
      const sub = client.session.events.subscribe({ id: session.id }, {
        onStarted: () => void client.session.send.mutate({ sessionId: session.id, text: "bench" }).catch(reject),
        onData: ({ data }) => {
          if (data.type === "delta") received.set(data.text, performance.now());
          if (data.type === "turn" && data.turn.status !== "running") {
            sub.unsubscribe();
            resolve();
          }
        },
        onError: reject,
      });
    });
    rmSync(workspace, { recursive: true, force: true });
    return latencies(received);
  } finally {
    await scope.dispose().catch(() => {});
    rmSync(home, { recursive: true, force: true });
  }
}

const seam: number[] = [];
const relay: number[] = [];
await runSeam(); // warm-up: JIT, SQLite, first adapter call
await runRelay();
for (let round = 0; round < ROUNDS; round++) {
  relay.push(...(await runRelay()));
  seam.push(...(await runSeam()));
}
await model.close();

const row = (name: string, s: number[]) => `${name.padEnd(10)} n=${String(s.length).padStart(5)}  p50 ${ms(percentile(s, 50))}  p99 ${ms(percentile(s, 99))}`;
console.log(`streamed-delta latency, model chunk → SSE client (${DELTAS} deltas × ${ROUNDS} rounds, ${GAP_MS} ms apart)`);
console.log(row("relay", relay));
console.log(row("seam", seam));
console.log(`ratio seam/relay: p50 ${(percentile(seam, 50) / percentile(relay, 50)).toFixed(2)}×  p99 ${(percentile(seam, 99) / percentile(relay, 99)).toFixed(2)}×`);
