/** The pipelines the streaming benchmarks compare: a raw SSE relay (baseline) and a real Seam host. */
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startScriptedModel, type ScriptedModel } from "../packages/testkit/src/index.js";
import { createScope } from "../apps/host/src/core/scope.js";
import { createHost } from "../apps/host/src/host.js";
import type { HostApi } from "../apps/host/src/host-api.js";
import { loadHostToken, loopbackPolicy, allowLoopbackPort } from "../apps/host/src/trpc/auth.js";
import { serveTrpc } from "../apps/host/src/trpc/server.js";

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes on this machine. */
export const wallNow = () => performance.timeOrigin + performance.now();

export const chunkText = (k: number) => `«${k}» `;

/** A scripted model that streams `deltas` numbered chunks and notes when each one was written. */
export async function startBenchModel(deltas: number, gapMs: number): Promise<{ model: ScriptedModel; sentAt: Map<string, number> }> {
  const sentAt = new Map<string, number>();
  const model = await startScriptedModel({
    scripts: [{ name: "bench", turns: [{ match: "bench", steps: [{ text: Array.from({ length: deltas }, (_, k) => chunkText(k)), delayMs: gapMs }] }] }],
    onText: (text) => sentAt.set(text, wallNow()),
  });
  return { model, sentAt };
}

/** Latency of every received chunk we know the send time of. */
export const latencies = (sentAt: Map<string, number>, received: Map<string, number>) =>
  [...received].flatMap(([text, at]) => (sentAt.has(text) ? [at - sentAt.get(text)!] : []));

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as { port: number }).port;
};

/**
 * Baseline: the thinnest possible relay from the model's SSE stream to an SSE client — fetch, split
 * frames, forward each text chunk. `GET /events` streams one model response; `GET /` is an empty page
 * a browser can open to read `/events` same-origin.
 */
export async function startRelay(model: ScriptedModel): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    if (req.url !== "/events") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>relay</title>");
      return;
    }
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
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/**
 * A real Seam host in this process, its model pointed at the bench model, serving tRPC on an ephemeral port.
 * `env` adds to the host's environment (e.g. `SEAM_DATABASE_URL` for PostgreSQL; default SQLite in its home).
 */
export async function startSeam(model: ScriptedModel, webPorts: number[] = [], env: Record<string, string> = {}): Promise<{ url: string; token: string; host: HostApi; workspace: string; close(): Promise<void> }> {
  const home = mkdtempSync(join(tmpdir(), "seam-bench-"));
  const workspace = mkdtempSync(join(tmpdir(), "seam-bench-ws-"));
  const scope = createScope("bench");
  const host = await createHost(scope, {
    home, version: "bench",
    env: { SEAM_MODEL_PROVIDER: "openai-compatible", SEAM_MODEL_BASE_URL: model.baseURL, SEAM_MODEL: "bench", ...env },
  });
  const token = loadHostToken(home);
  const policy = loopbackPolicy(token, webPorts);
  const { port } = await serveTrpc(scope, { host, policy, bind: "127.0.0.1", port: 0 });
  allowLoopbackPort(policy, port);
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    host,
    workspace,
    close: async () => {
      await scope.dispose().catch(() => {});
      rmSync(home, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
