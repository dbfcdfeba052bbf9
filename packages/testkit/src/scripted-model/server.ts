import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readConversation, type Conversation } from "./conversation.js";
import { loadScripts, parseScript, select, type Script, type ScriptInput, type Step } from "./script.js";
import { anthropicFrames, errorBody, openaiFrames, type Frame, type Plan } from "./wire.js";

export const MAX_BODY_BYTES = 1024 * 1024;
const MAX_RECORDED = 1000;
const FINISHED_TEXT = "(script finished)";

export interface ScriptedModelOptions {
  /** 0 (default) picks a free port. The server always binds 127.0.0.1. */
  port?: number;
  /** A script file, a directory of `*.json` scripts, several of those, or inline script objects. */
  scripts: string | (string | ScriptInput)[];
  /** Concurrent connection cap (default 32); extra connections are dropped by node. */
  maxConnections?: number;
  /** Called right after a text chunk is written (benchmarks timestamp chunks with it). */
  onText?: (text: string) => void;
}

export interface RecordedRequest {
  path: string;
  body: unknown;
  /** Which auth header the client sent; the value itself is never recorded. */
  auth: "authorization" | "x-api-key" | null;
}

export interface ScriptedModel {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `<url>/v1`: the base URL for both the OpenAI-compatible and the Anthropic client. */
  baseURL: string;
  port: number;
  scripts: readonly Script[];
  requests(): RecordedRequest[];
  reset(): void;
  close(): Promise<void>;
}

type Api = "openai" | "anthropic";

function resolveScripts(input: ScriptedModelOptions["scripts"]): Script[] {
  const items = typeof input === "string" ? [input] : input;
  const scripts = items.flatMap((item, i) => (typeof item === "string" ? loadScripts(item) : [parseScript(item, `inline script #${i}`)]));
  if (scripts.length === 0) throw new Error("startScriptedModel: no scripts given");
  return scripts;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer | "too_large"> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return "too_large";
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function* repeatText(step: Step, toolResult: string): Generator<string> {
  const chunks = (typeof step.text === "string" ? [step.text] : (step.text ?? [])).map((c) => c.replaceAll("{{tool_result}}", toolResult));
  for (let r = 0; r < step.repeat; r++) yield* chunks;
}

function planFor(conv: Conversation, step: Step | undefined, fallbackText: string, api: Api, rawMessages: unknown): Plan {
  const seq = conv.assistantsTotal;
  const prefix = api === "anthropic" ? "toolu" : "call";
  const toolCalls = (step?.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `${prefix}_${seq}_${i}`,
    name: c.name,
    argsJson: c.rawArgs ?? JSON.stringify(c.args),
  }));
  const oneRound = typeof step?.text === "string" ? step.text : (step?.text ?? [fallbackText]).join("");
  const textLength = oneRound.length * (step?.repeat ?? 1);
  const outputTokens = Math.max(1, Math.ceil(textLength / 4) + toolCalls.reduce((n, c) => n + Math.ceil(c.argsJson.length / 4), 0));
  return {
    model: conv.model ?? "scripted",
    seq,
    text: step ? repeatText(step, conv.lastToolResult) : [fallbackText],
    toolCalls,
    finish: toolCalls.length > 0 ? "tool_calls" : (step?.finishReason ?? "stop"),
    usage: step?.usage ?? { inputTokens: Math.max(1, Math.ceil(JSON.stringify(rawMessages ?? []).length / 4)), outputTokens },
    includeUsage: conv.includeUsage,
  };
}

/** Writes frames with the step's pacing; stops as soon as the client goes away. */
async function pump(res: ServerResponse, frames: Iterable<Frame>, delayMs: number, hang: boolean, onText?: (text: string) => void): Promise<void> {
  let closed = false;
  const gone = new Promise<void>((resolve) => res.once("close", () => { closed = true; resolve(); }));
  const pause = (ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([new Promise<void>((r) => { timer = setTimeout(r, ms); }), gone]).finally(() => clearTimeout(timer));
  };
  let first = true;
  for (const frame of frames) {
    if (!first && delayMs > 0) await pause(delayMs);
    if (closed) return;
    first = false;
    const flushed = res.write(frame.data);
    if (frame.text !== undefined && onText) onText(frame.text);
    if (!flushed) await Promise.race([new Promise((r) => res.once("drain", r)), gone]);
    if (hang && frame.content) break;
  }
  if (hang) return gone;
  if (!closed) res.end();
}

/** Starts the loopback scripted model server (SPEC CORE-15). A test fixture, never a product default. */
export async function startScriptedModel(options: ScriptedModelOptions): Promise<ScriptedModel> {
  const scripts = resolveScripts(options.scripts);
  const recorded: RecordedRequest[] = [];

  const serveModel = async (api: Api, req: IncomingMessage, res: ServerResponse, path: string) => {
    const raw = await readBody(req);
    if (raw === "too_large") {
      res.setHeader("connection", "close");
      return sendJson(res, 413, errorBody(api, 413, `request body exceeds ${MAX_BODY_BYTES} bytes`));
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return sendJson(res, 400, errorBody(api, 400, "request body is not valid JSON"));
    }
    const auth = req.headers.authorization ? "authorization" : req.headers["x-api-key"] ? "x-api-key" : null;
    recorded.push({ path, body, auth });
    if (recorded.length > MAX_RECORDED) recorded.shift();

    const conv = readConversation(body);
    if (typeof conv === "string") return sendJson(res, 400, errorBody(api, 400, conv));
    if (!conv.stream) {
      return sendJson(res, 400, errorBody(api, 400, "the scripted model only streams: send `\"stream\": true`"));
    }
    const picked = select(scripts, conv.model, conv.userText, conv.assistantsAfter);
    const step = picked.kind === "step" ? picked.step : undefined;
    if (step?.status !== undefined) {
      if (step.delayMs > 0) await new Promise((r) => setTimeout(r, step.delayMs));
      return sendJson(res, step.status, step.body ?? errorBody(api, step.status, `scripted error ${step.status}`));
    }
    const fallback = picked.kind === "unmatched" ? `(no script turn matches: ${JSON.stringify(conv.userText.slice(0, 80))})` : FINISHED_TEXT;
    const plan = planFor(conv, step, fallback, api, (body as { messages?: unknown }).messages);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
    await pump(res, api === "openai" ? openaiFrames(plan) : anthropicFrames(plan), step?.delayMs ?? 0, step?.hang ?? false, options.onText);
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname.replace(/\/+$/, "");
    const key = `${req.method} ${path}`;
    if (key === "POST /v1/chat/completions" || key === "POST /chat/completions") return serveModel("openai", req, res, path);
    if (key === "POST /v1/messages" || key === "POST /messages") return serveModel("anthropic", req, res, path);
    if (key === "GET /v1/models") return sendJson(res, 200, { object: "list", data: scripts.map((s) => ({ id: s.name, object: "model", owned_by: "scripted" })) });
    if (key === "GET /__requests") return sendJson(res, 200, recorded);
    if (key === "POST /__reset") {
      recorded.length = 0;
      return sendJson(res, 200, { ok: true });
    }
    if (key === "GET /__health") return sendJson(res, 200, { ok: true, scripts: scripts.map((s) => s.name) });
    return sendJson(res, 404, { error: { message: `no route ${key}; try POST /v1/chat/completions or POST /v1/messages` } });
  };

  const server = createServer((req, res) => {
    route(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `scripted model failed: ${(e as Error).message}` } });
      else res.destroy();
    });
  });
  server.maxConnections = options.maxConnections ?? 32;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    baseURL: `${url}/v1`,
    port,
    scripts,
    requests: () => structuredClone(recorded),
    reset: () => { recorded.length = 0; },
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
